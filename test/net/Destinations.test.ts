import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as fc from "fast-check"
import { Destinations, prefixOf } from "../../src/net/Destinations.ts"

const limits = { kind: "smtp" as const, perAddress: 2, perPrefix: 3, backoffMs: 1_000 }

/** Runs `n` holders of `address(i)` at once; the peak per address, per prefix and in total. */
const crowd = (destinations: Destinations, n: number, address: (i: number) => string) =>
  Effect.gen(function* () {
    const holding = new Map<string, number>()
    const peaks = new Map<string, number>()
    const bump = (key: string, by: number) => {
      const now = (holding.get(key) ?? 0) + by
      holding.set(key, now)
      peaks.set(key, Math.max(peaks.get(key) ?? 0, now))
    }
    yield* Effect.forEach(
      Array.from({ length: n }, (_, i) => address(i)),
      (a) =>
        destinations.around(
          a,
          Effect.gen(function* () {
            bump(a, 1)
            bump(prefixOf(a), 1)
            yield* Effect.sleep("2 millis")
            bump(a, -1)
            bump(prefixOf(a), -1)
          })
        ),
      { concurrency: "unbounded" }
    )
    return peaks
  })

const octet = fc.integer({ min: 0, max: 255 })
const v4 = fc.tuple(octet, octet, octet, octet).map((o) => o.join("."))
const group = fc.integer({ min: 0, max: 0xffff })
const v6Groups = fc.array(group, { minLength: 8, maxLength: 8 })

describe("prefixOf", () => {
  it("an IPv4 address counts under its /24", () => {
    expect(prefixOf("192.0.2.77")).toBe("192.0.2.0/24")
    fc.assert(
      fc.property(v4, octet, (address, last) => {
        const sibling = address.replace(/\d+$/, String(last))
        expect(prefixOf(sibling)).toBe(prefixOf(address))
      })
    )
  })

  it("an IPv6 address counts under its /48, whatever its spelling", () => {
    expect(prefixOf("2001:db8:1:2::25")).toBe("2001:db8:1::/48")
    expect(prefixOf("2001:DB8:1::")).toBe("2001:db8:1::/48")
    expect(prefixOf("::ffff:192.0.2.1")).toBe("0:0:0::/48")
    fc.assert(
      fc.property(v6Groups, v6Groups, (a, b) => {
        const full = a.map((g) => g.toString(16)).join(":")
        const sameTop = [...a.slice(0, 3), ...b.slice(3)].map((g) => g.toString(16)).join(":")
        expect(prefixOf(sameTop)).toBe(prefixOf(full))
        // The :: shorthand names the same address as its full spelling.
        const zeroed = [...a.slice(0, 3), 0, 0, 0, 0, 1]
        const short = `${zeroed
          .slice(0, 3)
          .map((g) => g.toString(16))
          .join(":")}::1`
        expect(prefixOf(short)).toBe(prefixOf(zeroed.map((g) => g.toString(16)).join(":")))
      })
    )
  })

  it("addresses in other /24s never share a prefix", () => {
    fc.assert(
      fc.property(v4, v4, (a, b) => {
        const top = (x: string) => x.split(".").slice(0, 3).join(".")
        expect(prefixOf(a) === prefixOf(b)).toBe(top(a) === top(b))
      })
    )
  })
})

describe("Destinations", () => {
  it.live("never more than perAddress on one address, nor perPrefix in one /24", () =>
    Effect.gen(function* () {
      const destinations = new Destinations(limits)
      const peaks = yield* crowd(destinations, 40, (i) => `192.0.2.${i % 4}`)
      for (let i = 0; i < 4; i++) expect(peaks.get(`192.0.2.${i}`)).toBeLessThanOrEqual(2)
      expect(peaks.get("192.0.2.0/24")).toBe(3)
      // Nothing is kept once every holder has left.
      expect(destinations.sizes).toEqual({ addresses: 0, prefixes: 0, backedOff: 0 })
    })
  )

  it.live("other prefixes are not held up by a busy one", () =>
    Effect.gen(function* () {
      const destinations = new Destinations({ ...limits, perAddress: 1, perPrefix: 1 })
      const peaks = yield* crowd(destinations, 20, (i) => `198.51.${i % 10}.1`)
      for (let i = 0; i < 10; i++) expect(peaks.get(`198.51.${i}.0/24`)).toBe(1)
    })
  )

  it.live("a waiter gives up at its deadline", () =>
    Effect.gen(function* () {
      const destinations = new Destinations({ ...limits, perAddress: 1 })
      const slow = destinations.around("192.0.2.1", Effect.sleep("200 millis"))
      const late = destinations.around(
        "192.0.2.1",
        Effect.succeed("ran"),
        performance.now() + 20,
        () => "no permit in time"
      )
      const [, second] = yield* Effect.all([slow, Effect.either(late)], { concurrency: "unbounded" })
      expect(second).toEqual(Either.left("no permit in time"))
    })
  )

  it("a backed-off destination answers with its first failure until the backoff ends", () => {
    let now = 0
    const destinations = new Destinations<string>(limits, () => now)
    expect(destinations.backedOff("192.0.2.1", 25)).toBeUndefined()
    destinations.backOff("192.0.2.1", 25, "banner timeout")
    expect(destinations.backedOff("192.0.2.1", 25)).toBe("banner timeout")
    // Another port of the address, and another address, are not backed off.
    expect(destinations.backedOff("192.0.2.1", 443)).toBeUndefined()
    expect(destinations.backedOff("192.0.2.2", 25)).toBeUndefined()
    now = 999
    expect(destinations.backedOff("192.0.2.1", 25)).toBe("banner timeout")
    now = 1_000
    expect(destinations.backedOff("192.0.2.1", 25)).toBeUndefined()
    expect(destinations.sizes.backedOff).toBe(0)
  })

  it("a backoff time of 0 backs nothing off", () => {
    const destinations = new Destinations<string>({ ...limits, backoffMs: 0 })
    destinations.backOff("192.0.2.1", 25, "refused")
    expect(destinations.backedOff("192.0.2.1", 25)).toBeUndefined()
  })
})
