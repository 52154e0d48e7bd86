/**
 * Traffic, node's side of every request: the request id in and out, /metrics where asked, the
 * requests in flight, and the drain: stop accepting, answer what is in flight within the grace,
 * then close what is left.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { makeTraffic } from "../../src/http/edge/Traffic.ts"

let server: Server | undefined
afterEach(() => {
  server?.closeAllConnections()
  server?.close()
})

/** A server behind `traffic` whose handler answers after `delayMs`; its base URL. */
const serve = async (traffic: ReturnType<typeof makeTraffic>, delayMs: number) => {
  server = createServer((req, res) => {
    if (traffic.observe(req, res, true)) return
    setTimeout(() => res.end(`seen ${req.headers["x-request-id"]}`), delayMs)
  })
  traffic.attach(server)
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const metrics = (_req: IncomingMessage, res: ServerResponse) => res.end("# metrics\n")

describe("Traffic", () => {
  it("keeps a safe request id, replaces another, and the app sees the id it answers with", async () => {
    const base = await serve(makeTraffic({ metrics }), 0)
    const kept = await fetch(base, { headers: { "x-request-id": "abc-1" } })
    expect(kept.headers.get("x-request-id")).toBe("abc-1")
    expect(await kept.text()).toBe("seen abc-1")
    const replaced = await fetch(base, { headers: { "x-request-id": "<script>" } })
    const id = replaced.headers.get("x-request-id")!
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(await replaced.text()).toBe(`seen ${id}`)
  })

  it("answers /metrics itself when asked to", async () => {
    const base = await serve(makeTraffic({ metrics }), 0)
    expect(await (await fetch(`${base}/metrics`)).text()).toBe("# metrics\n")
  })

  it("drains: requests in flight are answered, then nothing new is accepted", async () => {
    const traffic = makeTraffic({ metrics })
    const base = await serve(traffic, 300)
    const answers = Promise.all([1, 2, 3].map(() => fetch(base).then((r) => r.status)))
    while (traffic.inFlight() < 3) await new Promise((r) => setTimeout(r, 10))
    const cut = await Effect.runPromise(traffic.drain(10_000))
    expect(cut).toBe(0)
    expect(await answers).toEqual([200, 200, 200])
    expect(traffic.draining()).toBe(true)
    await expect(fetch(base)).rejects.toThrow()
  })

  it("cuts off what is still running when the grace ends", async () => {
    const traffic = makeTraffic({ metrics })
    const base = await serve(traffic, 5_000)
    const answer = fetch(base).then(
      (r) => r.status,
      () => "cut"
    )
    while (traffic.inFlight() < 1) await new Promise((r) => setTimeout(r, 10))
    expect(await Effect.runPromise(traffic.drain(100))).toBe(1)
    expect(await answer).toBe("cut")
  })
})
