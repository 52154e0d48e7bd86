/** The RDAP service over a fake web client: bootstrap, 404, cache per domain, off when unset. */
import { writeFileSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { it as effectIt } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { describe, expect, it } from "vitest"
import { makeRdap } from "../../src/net/Rdap.ts"

/** The defaults of RDAP_FAILURE_TTL and RDAP_BOOTSTRAP_REFRESH. */
const kept = { failureTtlMs: 60_000, bootstrapRefreshMs: 600_000 }
import type { WebResponse } from "../../src/net/Web.ts"

const response = (url: string, status: number, body: unknown): WebResponse => ({
  url,
  finalUrl: url,
  status,
  headers: {},
  rawHeaders: [],
  body: new TextEncoder().encode(JSON.stringify(body)),
  redirects: [],
  address: "192.0.2.1",
  tls: null
})

const bootstrapFile = () => {
  const path = join(mkdtempSync(join(tmpdir(), "rdap-")), "dns.json")
  writeFileSync(path, JSON.stringify({ version: "1.0", services: [[["com"], ["https://rdap.test/"]]] }))
  return path
}

describe("the RDAP service", () => {
  it("answers registered, not registered and unsupported, asking each domain once, in any case", async () => {
    const asked: Array<string> = []
    const get = (url: string) => {
      asked.push(url)
      return Effect.succeed(
        url.endsWith("/taken.com")
          ? response(url, 200, {
              objectClassName: "domain",
              events: [{ eventAction: "expiration", eventDate: "2027-01-01T00:00:00Z" }]
            })
          : response(url, 404, { errorCode: 404 })
      )
    }
    const answers = await Effect.runPromise(
      Effect.gen(function* () {
        const rdap = yield* makeRdap(bootstrapFile(), { ...kept, cacheTtlMs: 3_600_000, concurrency: 2 }, get)
        return [
          yield* rdap.lookup("taken.com"),
          yield* rdap.lookup("Taken.COM"),
          yield* rdap.lookup("free.com"),
          yield* rdap.lookup("example.de")
        ]
      })
    )
    expect(answers.map((a) => a.outcome)).toEqual([
      "registered",
      "registered",
      "not-registered",
      "unsupported"
    ])
    expect(answers[0]).toMatchObject({
      expires: "2027-01-01T00:00:00.000Z",
      url: "https://rdap.test/domain/taken.com"
    })
    expect(asked).toEqual(["https://rdap.test/domain/taken.com", "https://rdap.test/domain/free.com"])
  })

  it("is off without a source, and unknown when the server fails", async () => {
    const off = await Effect.runPromise(
      Effect.flatMap(
        makeRdap("", { ...kept, cacheTtlMs: 1, concurrency: 1 }, () => Effect.die("no request")),
        (r) => r.lookup("a.com")
      )
    )
    expect(off).toEqual({ outcome: "off" })
    const failing = await Effect.runPromise(
      Effect.flatMap(
        makeRdap(bootstrapFile(), { ...kept, cacheTtlMs: 1, concurrency: 1 }, (url) =>
          Effect.succeed(response(url, 503, {}))
        ),
        (r) => r.lookup("a.com")
      )
    )
    expect(failing).toMatchObject({ outcome: "unknown" })
  })

  effectIt.effect(
    "keeps a registration for RDAP_CACHE_TTL and a failure for a minute (the transport cache)",
    () =>
      Effect.gen(function* () {
        const asked: Array<string> = []
        const get = (url: string) => {
          asked.push(url)
          return Effect.succeed(url.endsWith("/down.com") ? response(url, 503, {}) : response(url, 404, {}))
        }
        const rdap = yield* makeRdap(bootstrapFile(), { ...kept, cacheTtlMs: 3_600_000, concurrency: 2 }, get)
        const both = () => Effect.all([rdap.lookup("down.com"), rdap.lookup("free.com")])
        expect((yield* both()).map((a) => a.outcome)).toEqual(["unknown", "not-registered"])
        yield* both()
        expect(asked).toHaveLength(2)
        // a minute later the failure is asked again, the answer is not
        yield* TestClock.adjust("61 seconds")
        yield* both()
        expect(asked.filter((u) => u.endsWith("/down.com"))).toHaveLength(2)
        expect(asked.filter((u) => u.endsWith("/free.com"))).toHaveLength(1)
        yield* TestClock.adjust("1 hour")
        yield* both()
        expect(asked.filter((u) => u.endsWith("/free.com"))).toHaveLength(2)
      })
  )
})
