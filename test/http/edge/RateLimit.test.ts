/**
 * The one token-bucket limiter and the RateLimit header fields it produces
 * (draft-ietf-httpapi-ratelimit-headers: `"name";q=..;w=..` and `"name";r=..;t=..`).
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { keyClientOf } from "../../../src/http/edge/KeyClients.ts"
import {
  KEY_CLIENT,
  makeLimiter,
  rateLimitHeaders,
  scaled,
  windowSeconds
} from "../../../src/http/edge/RateLimit.ts"
import { keyHash } from "../../../src/monitor/access/ApiKey.ts"
import { runs } from "../../support/runs.ts"

describe("the token-bucket limiter", () => {
  it("admits the burst, then says how long to wait, and refills with time", () => {
    const limiter = makeLimiter({ name: "t", burst: 3, perMinute: 60 })
    expect([0, 1, 2].map(() => limiter.take("a", 0).retryAfterS)).toEqual([0, 0, 0])
    expect(limiter.take("a", 0)).toMatchObject({ retryAfterS: 1, remaining: 0, resetS: 1 })
    expect(limiter.take("b", 0).retryAfterS).toBe(0)
    expect(limiter.take("a", 1_000).retryAfterS).toBe(0)
  })

  it("forgets full buckets, so an address sweep cannot grow memory without bound", () => {
    const limiter = makeLimiter({ name: "t", burst: 2, perMinute: 60 }, 1_000)
    for (let i = 0; i < 50_000; i++) limiter.take(`10.0.${i >> 8}.${i & 255}`, i)
    expect(limiter.size()).toBeLessThanOrEqual(1_000)
  })

  it("3 per 10 minutes: three at once, then one back every 200 s", () => {
    const limiter = makeLimiter({ name: "csp-scan", burst: 3, perMinute: 0.3 })
    for (let i = 0; i < 3; i++) expect(limiter.take("c", 0).retryAfterS).toBe(0)
    expect(limiter.take("c", 0).retryAfterS).toBe(200)
    expect(limiter.take("c", 199_000).retryAfterS).toBe(1)
    expect(limiter.take("c", 200_000).retryAfterS).toBe(0)
    expect(rateLimitHeaders([limiter.peek("c", 200_000)])).toEqual({
      "RateLimit-Policy": '"csp-scan";q=3;w=600',
      RateLimit: '"csp-scan";r=0;t=200'
    })
  })

  it("peek takes nothing", () => {
    const limiter = makeLimiter({ name: "t", burst: 2, perMinute: 60 })
    expect(limiter.peek("p", 0)).toMatchObject({ remaining: 2, resetS: 0 })
    limiter.take("p", 0)
    expect(limiter.peek("p", 0)).toMatchObject({ remaining: 1, resetS: 1 })
    expect(limiter.peek("p", 0)).toMatchObject({ remaining: 1, resetS: 1 })
  })

  it("property: a refusal's reset is its Retry-After; r never exceeds q; a steady q per w is never refused", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 600 }),
        fc.array(fc.integer({ min: 0, max: 120_000 }), { maxLength: 60 }),
        (burst, perMinute, gaps) => {
          const policy = { name: "p", burst, perMinute }
          const limiter = makeLimiter(policy)
          let now = 0
          for (const gap of gaps) {
            now += gap
            const reading = limiter.take("k", now)
            expect(reading.remaining).toBeLessThanOrEqual(burst)
            expect(reading.remaining).toBeGreaterThanOrEqual(0)
            if (reading.retryAfterS > 0) {
              expect(reading.remaining).toBe(0)
              expect(reading.resetS).toBe(reading.retryAfterS)
            }
            const headers = rateLimitHeaders([reading])
            expect(headers["RateLimit"]).toMatch(/^"p";r=\d+;t=\d+$/)
            expect(headers["RateLimit-Policy"]).toBe(`"p";q=${burst};w=${windowSeconds(policy)}`)
          }
          // q requests spread evenly over w seconds, from a fresh key: all admitted
          const steady = makeLimiter(policy)
          const spacing = (windowSeconds(policy) * 1000) / burst
          for (let i = 0; i < burst * 3; i++) expect(steady.take("s", i * spacing).retryAfterS).toBe(0)
        }
      )
    )
  })
})

describe("an API key's bucket", () => {
  it("is held to the key policy, an address to its own, in one limiter", () => {
    const policy = { name: "costly", burst: 2, perMinute: 60 }
    const limiter = makeLimiter(policy, undefined, scaled(policy, 3))
    const admitted = (client: string) =>
      Array.from({ length: 8 }, () => limiter.take(client, 0)).filter((r) => r.retryAfterS === 0).length
    expect([admitted("203.0.113.9"), admitted(`${KEY_CLIENT}key_1`), admitted(`${KEY_CLIENT}key_2`)]).toEqual(
      [2, 6, 6]
    )
    expect(limiter.peek(`${KEY_CLIENT}key_1`, 0).policy).toEqual({ name: "costly", burst: 6, perMinute: 180 })
  })

  it("is named only for a usable key presented as a bearer token; anything else goes to the address", () => {
    const key = `da_${"k".repeat(43)}`
    const usable = new Map([[keyHash(key), "key_1"]])
    expect(keyClientOf(usable, `Bearer ${key}`)).toBe(`${KEY_CLIENT}key_1`)
    expect(keyClientOf(usable, `bearer ${key}`)).toBe(`${KEY_CLIENT}key_1`)
    for (const other of [
      undefined,
      "",
      key,
      `Basic ${key}`,
      `Bearer ${key} x`,
      `Bearer da_${"u".repeat(43)}`
    ])
      expect(keyClientOf(usable, other), String(other)).toBeUndefined()
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (header) => {
        const client = keyClientOf(usable, header)
        expect(client === undefined || client === `${KEY_CLIENT}key_1`).toBe(true)
      }),
      { numRuns: runs(500) }
    )
  })
})
