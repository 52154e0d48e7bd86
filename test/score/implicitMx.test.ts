/**
 * How the score treats a domain with no MX (docs/scoring.md, "Implicit MX"): the implicit MX (the
 * domain's own A/AAAA, RFC 5321 5.1) that answers SMTP is judged like any MX; one that nothing answers
 * on leaves the mail-transport records not applicable and recommends a null MX (RFC 7505).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { scan } from "../../src/scan/Scanner.ts"
import { score } from "../../src/score/Score.ts"
import { fakeNet, type FakeNet } from "../checks/facts.ts"
import { probe } from "../checks/fixtures.ts"
import { domain as toDomain } from "../support/domain.ts"

const scored = (domain: string, net: FakeNet) =>
  Effect.map(Effect.scoped(scan(toDomain(domain))), score).pipe(Effect.provide(fakeNet(net)))

const record = (s: ReturnType<typeof score>, id: string) =>
  Object.values(s.categories)
    .flatMap((c) => c.checks)
    .find((r) => r.id === id)!

const TRANSPORT = [
  "security.mx.starttls",
  "security.mx.cert",
  "security.mx.dane",
  "security.blocklist",
  "dns.ptr",
  "dns.fcrdns",
  "ipv6.mx"
]

describe("score of a domain without MX", () => {
  it.live("nothing listens at the implicit MX: transport not applicable, null MX recommended", () =>
    Effect.gen(function* () {
      const s = yield* scored("web.example", {
        zone: { "web.example A": ["192.0.2.1"], "web.example TXT": ["v=spf1 -all"] }
      })
      const mx = record(s, "dns.mx.resolvable")
      expect(mx.status).toBe("not-applicable")
      expect(mx.issues).toEqual(["null_mx_missing"])
      for (const id of TRANSPORT) expect([id, record(s, id).status]).toEqual([id, "not-applicable"])
      expect(s.issues.map((i) => i.id)).toContain("null_mx_missing")
      expect(s.recommendations.find((r) => r.id === "null_mx_missing")).toMatchObject({
        points: 0,
        priority: "low"
      })
    })
  )

  it.live("a null MX instead: no recommendation", () =>
    Effect.gen(function* () {
      const s = yield* scored("web.example", {
        zone: {
          "web.example A": ["192.0.2.1"],
          "web.example MX": ["0 ."],
          "web.example TXT": ["v=spf1 -all"]
        }
      })
      expect(record(s, "dns.mx.resolvable").status).toBe("pass")
      expect(s.issues.map((i) => i.id)).not.toContain("null_mx_missing")
    })
  )

  it.live("an implicit MX that answers is judged like any MX (here: no STARTTLS fails)", () =>
    Effect.gen(function* () {
      const s = yield* scored("web.example", {
        zone: { "web.example A": ["192.0.2.1"], "web.example TXT": ["v=spf1 a -all"] },
        probes: {
          "web.example|192.0.2.1": probe({
            host: "web.example",
            address: "192.0.2.1",
            starttlsOffered: false
          })
        }
      })
      expect(record(s, "dns.mx.resolvable").status).toBe("pass")
      expect(record(s, "security.mx.starttls")).toMatchObject({
        status: "fail",
        issues: ["starttls_missing"]
      })
      expect(record(s, "dns.ptr")).toMatchObject({ status: "fail", issues: ["ptr_missing"] })
      expect(record(s, "ipv6.mx").status).toBe("fail")
      expect(s.issues.map((i) => i.id)).not.toContain("null_mx_missing")
    })
  )
})
