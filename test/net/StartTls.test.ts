/**
 * The STARTTLS opener (net/StartTls.ts) against scripted SMTP servers on loopback: every way the
 * dialogue fails before TLS starts is the opener's error, which a handshake reports as `unknown`
 * (never as a refused version); a server that agrees hands over a socket with nothing read past
 * its 220.
 */
import * as net from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { Effect } from "effect"
import { starttlsOpener } from "../../src/net/StartTls.ts"
import { handshake } from "../../src/net/TlsHandshake.ts"

const servers: Array<net.Server> = []
afterEach(() => {
  for (const s of servers.splice(0)) s.close()
})

/** A server that answers each line the client sends with the next of `replies` (CRLF inside). */
const scripted = (banner: string | null, replies: ReadonlyArray<string>) =>
  new Promise<number>((resolve) => {
    const server = net.createServer((socket) => {
      socket.on("error", () => {})
      if (banner !== null) socket.write(banner + "\r\n")
      let i = 0
      socket.on("data", () => {
        const reply = replies[i++]
        if (reply !== undefined) socket.write(reply + "\r\n")
      })
    })
    servers.push(server)
    server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port))
  })

const settings = (port: number) => ({
  port,
  heloName: "test.invalid",
  connectTimeoutMs: 1_000,
  bannerTimeoutMs: 300,
  commandTimeoutMs: 300
})

const open = (port: number) =>
  Effect.runPromise(
    Effect.match(starttlsOpener(settings(port), "127.0.0.1"), {
      onFailure: (left) => ({ _tag: "Left" as const, left }),
      onSuccess: (right) => ({ _tag: "Right" as const, right })
    })
  )

describe("starttlsOpener", () => {
  it("fails with the stage and the reason, never a socket, before TLS starts", async () => {
    const rejected = await open(await scripted("554 go away", []))
    expect(rejected).toMatchObject({ _tag: "Left", left: "banner: banner 554" })
    const noStarttls = await open(await scripted("220 mx ESMTP", ["250-mx\r\n250 PIPELINING"]))
    expect(noStarttls).toMatchObject({ _tag: "Left", left: "ehlo: STARTTLS not offered" })
    const refused = await open(
      await scripted("220 mx ESMTP", ["250-mx\r\n250 STARTTLS", "454 TLS not available"])
    )
    expect(refused).toMatchObject({ _tag: "Left", left: "starttls: STARTTLS answered 454" })
    const silent = await open(await scripted(null, []))
    expect(silent._tag === "Left" && silent.left).toMatch(/^banner: no answer at banner within 300 ms/)
  })

  it("hands over the socket after 220, and a failed opener makes the handshake unknown", async () => {
    const ready = await open(await scripted("220 mx ESMTP", ["250-mx\r\n250 STARTTLS", "220 go ahead"]))
    expect(ready._tag).toBe("Right")
    if (ready._tag === "Right") ready.right.destroy()
    const port = await scripted("220 mx ESMTP", ["250-mx\r\n250 SIZE 1000"])
    const outcome = await Effect.runPromise(
      handshake(starttlsOpener(settings(port), "127.0.0.1"), {
        servername: "mx.example.com",
        minVersion: "TLSv1.2",
        maxVersion: "TLSv1.2",
        suites: ["ECDHE-RSA-AES128-GCM-SHA256"],
        timeoutMs: 500
      })
    )
    expect(outcome).toEqual({ kind: "unknown", message: "ehlo: STARTTLS not offered" })
  })
})
