/**
 * Signatures that expire before the SOA expire time (RFC 1035 3.3.13, RFC 6781 4.4.2): the pure
 * finding, and what the check and its informational rule make of it.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { analyse, type Gathered } from "../../../src/checks/dnssec/Dnssec.ts"
import { dnssecRecords } from "../../../src/checks/dnssec/Rules.ts"
import { beforeSoaExpire } from "../../../src/checks/dnssec/SoaExpire.ts"
import { parseData } from "../../../src/net/DnsWire.ts"
import type { RecordType } from "../../../src/net/DnsTypes.ts"
import { recordsOfRulings } from "../../../src/score/Rules.ts"
import { runs } from "../../support/runs.ts"

const NOW = new Date("2026-11-22T00:00:00Z")
const now = NOW.getTime() / 1000
const DAY = 86_400
const KSK =
  "257 3 13 NtGYnWOedCg0t/HjyLyywaS1VKo2PSMvh/azAeUzu8odltBljy3arP3X4F4OxfpEVzfTu0JiVmTnsKwSBsCYkg=="
const DS = "45575 13 2 5b79e31a442ff65610cf3ad8971282555713d007a9e7d1e8bee543e1c8f74b4e"

const stamp = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/[-:T]/g, "").slice(0, 14)
const sig = (covered: string, expires: number) =>
  `${covered} 13 2 300 ${stamp(expires)} ${stamp(now - DAY)} 45575 example.com. c2lnbmF0dXJl`
const answer = (type: RecordType, records: ReadonlyArray<[RecordType, string]>): Gathered => ({
  _tag: "Answer",
  bogus: false,
  answer: {
    name: "example.com",
    type,
    outcome: "answer",
    rcode: "NOERROR",
    flags: { aa: false, tc: false, ra: true, ad: true, cd: false },
    answers: records.map(([t, text]) => ({
      name: "example.com",
      type: t,
      ttl: 300,
      data: parseData(t, text),
      text
    })),
    authority: [],
    resolver: "192.0.2.53:53",
    elapsedMs: 1,
    fromCache: false
  }
})
/** A secure zone whose SOA has `expire` seconds and whose SOA and DNSKEY signatures run `days` more days. */
const zone = (expire: number, days: number) =>
  analyse(
    {
      domain: "example.com",
      zone: "example.com",
      dnskey: answer("DNSKEY", [
        ["DNSKEY", KSK],
        ["RRSIG", sig("DNSKEY", now + days * DAY)]
      ]),
      ds: answer("DS", [["DS", DS]]),
      soa: answer("SOA", [
        ["SOA", `ns.example.com. h.example.com. 1 7200 3600 ${expire} 300`],
        ["RRSIG", sig("SOA", now + days * DAY)]
      ]),
      nsec3param: answer("NSEC3PARAM", []),
      resolverValidates: true
    },
    NOW
  )
const record = (r: ReturnType<typeof zone>) =>
  recordsOfRulings(dnssecRecords({ checks: { dnssec: { status: "done", reason: null, result: r } } })).find(
    (x) => x.id === "dnssec.rrsig-soa-expire"
  )!

describe("signatures against the SOA expire", () => {
  it("warns exactly for current SOA and DNSKEY signatures that expire within now + expire (property)", () =>
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            typeCovered: fc.constantFrom("SOA", "DNSKEY", "A", "NSEC3PARAM"),
            keyTag: fc.integer({ min: 0, max: 65535 }),
            inception: fc.integer({ min: now - 40 * DAY, max: now + DAY }),
            expiration: fc.integer({ min: now - DAY, max: now + 100 * DAY })
          }),
          { maxLength: 6 }
        ),
        fc.option(fc.integer({ min: 0, max: 60 * DAY }), { nil: undefined }),
        (spans, expire) => {
          const found = beforeSoaExpire(spans, expire, now)
          const due = spans.filter(
            (s) =>
              expire !== undefined &&
              (s.typeCovered === "SOA" || s.typeCovered === "DNSKEY") &&
              s.inception <= now &&
              s.expiration >= now &&
              s.expiration < now + expire
          )
          expect(found).toHaveLength(due.length)
          for (const f of found) expect([f.severity, f.code]).toEqual(["warning", "rrsig-before-soa-expire"])
          // A longer expire never finds fewer.
          if (expire !== undefined)
            expect(beforeSoaExpire(spans, expire + DAY, now).length).toBeGreaterThanOrEqual(found.length)
        }
      ),
      { numRuns: runs(200) }
    ))

  it("20-day signatures under a 1000-hour expire: a warning, shown and never scored", () => {
    const r = zone(3_600_000, 20)
    expect(r.rrsig.soaExpire).toBe(3_600_000)
    expect(r.rrsig.issues.filter((i) => i.code === "rrsig-before-soa-expire")).toHaveLength(2)
    expect(r.rrsig.issues[0]!.message).toMatch(/within the SOA expire of 42 day\(s\)/)
    expect(r.status).toBe("warning")
    expect(r.state).toBe("secure")
    expect(record(r)).toMatchObject({ status: "fail", maxPoints: 0, issues: ["dnssec_rrsig_soa_expire"] })
  })

  it("signatures that outlive the expire pass", () => {
    const r = zone(14 * DAY, 30)
    expect(r.rrsig.issues).toEqual([])
    expect(r.status).toBe("pass")
    expect(record(r)).toMatchObject({ status: "pass" })
  })
})
