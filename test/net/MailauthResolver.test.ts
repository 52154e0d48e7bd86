/**
 * The Resolver as mailauth's resolver: answers in node's shapes, NXDOMAIN/NODATA as "no record",
 * and every failure (timeout, SERVFAIL, the deadline) as a temporary error, never as "no record".
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { mailauthResolver } from "../../src/net/MailauthResolver.ts"
import { Resolver } from "../../src/net/Resolver.ts"

const ZONE = {
  "perfect.test TXT": ['"v=spf1 " "ip4:192.0.2.1 -all"'],
  "perfect.test MX": ["10 mx.perfect.test."],
  "mx.perfect.test A": ["192.0.2.1"],
  "slow.test TXT": "TIMEOUT",
  "broken.test TXT": "SERVFAIL"
} as const

const resolverFor = (signal = new AbortController().signal) =>
  Effect.runPromise(
    Effect.map(Resolver, (r) => mailauthResolver((name, type) => r.query(name, type), signal)).pipe(
      Effect.provide(Resolver.Test(ZONE))
    )
  )

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (e: { code?: string }) => e.code
  )

describe("mailauthResolver", () => {
  it("answers in dns.promises.resolve's shapes", async () => {
    const resolve = await resolverFor()
    expect(await resolve("perfect.test", "TXT")).toEqual([["v=spf1 ", "ip4:192.0.2.1 -all"]])
    expect(await resolve("perfect.test", "MX")).toEqual([{ exchange: "mx.perfect.test", priority: 10 }])
    expect(await resolve("mx.perfect.test", "a")).toEqual(["192.0.2.1"])
  })

  it("NXDOMAIN is ENOTFOUND and NODATA is ENODATA: the codes mailauth reads as no record", async () => {
    const resolve = await resolverFor()
    expect(await codeOf(resolve("nothere.test", "TXT"))).toBe("ENOTFOUND")
    expect(await codeOf(resolve("perfect.test", "AAAA"))).toBe("ENODATA")
  })

  it("a timeout or SERVFAIL is a temporary error code, never ENOTFOUND/ENODATA", async () => {
    const resolve = await resolverFor()
    expect(await codeOf(resolve("slow.test", "TXT"))).toBe("ETIMEOUT")
    expect(await codeOf(resolve("broken.test", "TXT"))).toBe("ESERVFAIL")
    expect(await codeOf(resolve("perfect.test", "HINFO"))).toBe("ENOTIMP")
  })

  it("after the deadline every lookup fails at once as a timeout", async () => {
    const deadline = new AbortController()
    const resolve = await resolverFor(deadline.signal)
    deadline.abort()
    expect(await codeOf(resolve("perfect.test", "TXT"))).toBe("ETIMEOUT")
  })
})
