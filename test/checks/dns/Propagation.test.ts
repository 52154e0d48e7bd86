import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema, TestClock } from "effect"
import * as fc from "fast-check"
import {
  analyse,
  gatherType,
  Propagation,
  type PropagationFacts,
  PropagationResult
} from "../../../src/checks/dns/Propagation.ts"
import { DnsError, type RecordType } from "../../../src/net/DnsTypes.ts"
import type { FakeZone } from "../../../src/net/Resolver.ts"
import { withFacts } from "../../../src/scan/Scanner.ts"
import { fakeNet, runFake } from "../facts.ts"
import { domain } from "../../support/domain.ts"

const env = {
  PROPAGATION_RESOLVERS:
    "10.0.0.1|One|Paris|FR,10.0.0.2|Two|Oslo|NO,10.0.0.3|Three|Rome|IT,10.0.0.4|Four|Bern|CH"
}
const NOW = new Date("2026-11-22T00:00:00Z")

/** `GET /dns/propagation?type=`: the parameterised gather over a scan's Facts, analysed at NOW. */
const propagation = (zone: FakeZone, type: RecordType) =>
  withFacts(domain("example.com"), gatherType(type)).pipe(
    Effect.map((gathered) => analyse(gathered, NOW)),
    Effect.provide(fakeNet({ zone, env }))
  )

describe("Propagation", () => {
  it.effect("agreeing resolvers propagate; a timeout is failed, not disagreeing", () =>
    Effect.gen(function* () {
      const r = yield* propagation(
        { "example.com A": ["192.0.2.1"], "example.com A @10.0.0.4": "TIMEOUT" },
        "A"
      )
      expect(r).toMatchObject({
        domain: "example.com",
        type: "A",
        recordType: "A",
        propagated: true,
        servers_checked: 3,
        servers_matching: 3,
        servers_failed: 1,
        consensus: ["192.0.2.1"]
      })
      const four = r.results.find((x) => x.server === "Four")!
      expect(four).toMatchObject({
        success: false,
        status: "failed",
        value: [],
        resolver: { ip: "10.0.0.4", name: "Four", country: "CH" }
      })
      expect(r.results.find((x) => x.server === "One")).toMatchObject({
        location: "Paris",
        value: ["192.0.2.1"],
        records: [{ type: "A", data: "192.0.2.1" }],
        success: true,
        status: "match"
      })
    })
  )

  it.effect("says whether the record exists: agreeing on nothing is not a propagated record", () =>
    Effect.gen(function* () {
      const none = yield* propagation({ "example.com MX": [] }, "MX")
      expect(none).toMatchObject({ propagated: true, recordExists: false, consensus: [] })
      const some = yield* propagation({ "example.com A": ["192.0.2.1"] }, "A")
      expect(some).toMatchObject({ propagated: true, recordExists: true })
    })
  )

  it.effect("a lagging resolver disagrees", () =>
    Effect.gen(function* () {
      const r = yield* propagation(
        {
          "example.com TXT": ["v=spf1 ip4:192.0.2.2 -all"],
          "example.com TXT @10.0.0.2": ["v=spf1 ip4:192.0.2.1 -all"]
        },
        "TXT"
      )
      expect(r.propagated).toBe(false)
      expect(r.servers_matching).toBe(3)
      expect(r.results.find((x) => x.server === "Two")).toMatchObject({
        status: "differs",
        value: ["v=spf1 ip4:192.0.2.1 -all"]
      })
    })
  )

  it.effect("the check asks for A records, its timestamp from the clock", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(NOW.getTime())
      const r = yield* runFake(Propagation, "example.com", { zone: { "example.com A": ["192.0.2.1"] }, env })
      expect(r).toMatchObject({ type: "A", propagated: true, servers_total: 4, timestamp: NOW.toISOString() })
    })
  )

  it("counts are consistent for any mix of answers and failures (property)", () =>
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.subarray(["192.0.2.1", "192.0.2.2", "192.0.2.3"]), { nil: undefined }), {
          maxLength: 8
        }),
        (answers) => {
          const facts: PropagationFacts = {
            domain: "example.com",
            type: "A",
            results: answers.map((values, i) => ({
              resolver: { address: `10.0.0.${i}`, port: 53, name: `r${i}`, location: "x", country: "XX" },
              elapsedMs: i,
              result:
                values === undefined
                  ? Either.left(
                      new DnsError({ name: "example.com", type: "A", reason: "timeout", message: "t" })
                    )
                  : Either.right({
                      name: "example.com",
                      type: "A" as const,
                      outcome: values.length ? ("answer" as const) : ("nodata" as const),
                      rcode: "NOERROR",
                      flags: { aa: false, tc: false, ra: true, ad: false, cd: false },
                      answers: values.map((v) => ({
                        name: "example.com",
                        type: "A",
                        ttl: 60,
                        data: v,
                        text: v
                      })),
                      authority: [],
                      resolver: `10.0.0.${i}:53`,
                      elapsedMs: i,
                      fromCache: false
                    })
            }))
          }
          const r = analyse(facts, NOW)
          expect(Schema.is(PropagationResult)(r)).toBe(true)
          const answered = answers.filter((a) => a !== undefined)
          expect(r.servers_checked).toBe(answered.length)
          expect(r.servers_failed).toBe(answers.length - answered.length)
          expect(r.servers_matching).toBeLessThanOrEqual(r.servers_checked)
          const distinct = new Set(answered.map((a) => JSON.stringify([...a].sort())))
          expect(r.propagated).toBe(answered.length > 0 && distinct.size === 1)
        }
      )
    ))
})
