/**
 * The NIS2 scorecard in the world, through the API: perfect.com is
 * compliant; nomail.org's mail evidence does not apply and costs nothing; dmarc-none.com and
 * bogus-ds.org show their gaps in the measures docs/nis2.md names; a name that does not exist is
 * unscannable; /scan/quick and /scan/nis2 of one domain share one scan.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { CheckRecord } from "../../src/score/Model.ts"
import { nis2FromRecords } from "../../src/score/Nis2.ts"
import { MEASURES } from "../../src/score/Nis2Mapping.ts"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"
import { domain as toDomain } from "../support/domain.ts"

const MAIL = [
  "email.dmarc.reporting",
  "email.tls_rpt",
  "email.dkim",
  "security.blocklist",
  "dns.ptr",
  "dns.fcrdns",
  "security.mx.starttls",
  "security.mx.cert",
  "email.mta_sts",
  "security.mx.dane"
]

const nis2 = (domain: string, lang = "en") => getJson(`/api/scan/nis2?domain=${domain}&lang=${lang}`)
const measure = (card: any, id: string) => card.measures.find((m: any) => m.id === id)
const item = (card: any, checkId: string) =>
  card.measures.flatMap((m: any) => m.evidence).find((e: any) => e.checkId === checkId)
const allFixes = (card: any): string => card.measures.flatMap((m: any) => m.fixes).join("\n")

/** The scored records of the quick scan (the same cached scan the scorecard read). */
const recordsOf = (quick: any): Array<CheckRecord> =>
  Object.values(quick.categories).flatMap((c: any) => c.checks as Array<CheckRecord>)

describe("the NIS2 scorecard in the world", () => {
  layer(testApp(worldEnv()), { timeout: 180_000, excludeTestServices: true })((it) => {
    it.effect("perfect.com is compliant, with no critical gap, in both languages", () =>
      Effect.gen(function* () {
        const en = yield* nis2("perfect.com")
        expect(en).toMatchObject({ domain: "perfect.com", status: "compliant", criticalGaps: [] })
        expect(en.total).toBeGreaterThanOrEqual(90)
        for (const id of ["b", "c", "d", "e", "g", "h", "j"])
          expect(measure(en, id).weight).toBeGreaterThan(0)
        for (const id of ["a", "f", "i"])
          expect(measure(en, id)).toMatchObject({ status: "not-applicable", weight: 0 })
        const nl = yield* nis2("perfect.com", "nl")
        expect(nl.measures.map((m: any) => [m.id, m.status, m.score, m.weight])).toEqual(
          en.measures.map((m: any) => [m.id, m.status, m.score, m.weight])
        )
        expect(nl.total).toBe(en.total)
        expect(measure(nl, "h").description).toBe(
          "beleid en procedures inzake het gebruik van cryptografie en, in voorkomend geval, encryptie"
        )
      })
    )

    it.effect("shares one scan with /scan/quick", () =>
      Effect.gen(function* () {
        const quick = yield* getJson("/api/scan/quick?domain=unsigned.net")
        const card = yield* nis2("unsigned.net")
        expect(card.cached).toBe(true)
        expect(card.scannedAt).toBe(quick.timestamp)
      })
    )

    it.effect("nomail.org: mail evidence is not applicable and costs nothing", () =>
      Effect.gen(function* () {
        const card = yield* nis2("nomail.org")
        for (const id of MAIL) expect(item(card, id).result, id).toBe("not-applicable")
        for (const id of MAIL) expect(item(card, id).detail, id).toMatch(/receives no mail|no mail/)
        for (const id of ["b", "j"])
          expect(measure(card, id)).toMatchObject({ status: "not-applicable", weight: 0 })
        // SPF -all and DMARC reject still apply to a domain that sends no mail, and pass.
        expect(measure(card, "g")).toMatchObject({ score: 100, status: "pass", fixes: [] })
        expect(allFixes(card)).not.toMatch(
          /dkim|mta_sts|tls_rpt|starttls|blocklisted|ptr_missing|dmarc_no_rua/
        )
        // No penalty: the same scan with the mail evidence failing instead would score lower.
        const quick = yield* getJson("/api/scan/quick?domain=nomail.org")
        const meta = { domain: toDomain("nomail.org"), scannedAt: card.scannedAt, cached: true }
        const same = nis2FromRecords(recordsOf(quick), meta, "en")
        expect(same.total).toBe(card.total)
        const failing = recordsOf(quick).map((r) =>
          MAIL.includes(r.id)
            ? { ...r, status: "fail" as const, maxPoints: 1, points: 0, issues: ["dkim_weak_key"] }
            : r
        )
        expect(nis2FromRecords(failing, meta, "en").total).toBeLessThan(card.total)
        expect(MEASURES.flatMap((m) => m.evidence.map((e) => e.checkId))).toEqual(
          expect.arrayContaining(MAIL)
        )
      })
    )

    it.effect("dmarc-none.com: the DMARC policy is a critical gap in g, its reports are missing in b", () =>
      Effect.gen(function* () {
        const card = yield* nis2("dmarc-none.com")
        expect(card.criticalGaps).toEqual(["g"])
        expect(card.status).toBe("non-compliant")
        expect(measure(card, "g").status).toBe("fail")
        expect(item(card, "email.dmarc.policy").result).toBe("fail")
        expect(measure(card, "g").fixes.join("\n")).toMatch(/\(dmarc_policy_none\)/)
        expect(item(card, "email.dmarc.reporting").result).toBe("missing")
        expect(item(card, "email.tls_rpt").result).toBe("missing")
        expect(measure(card, "b").fixes.join("\n")).toMatch(/\(dmarc_no_rua\)/)
        expect(item(card, "email.spf.valid").result).toBe("pass")
      })
    )

    it.effect("bogus-ds.org: DNSSEC validation failing is a fatal gap in h", () =>
      Effect.gen(function* () {
        const card = yield* nis2("bogus-ds.org")
        expect(card.criticalGaps).toEqual(["h"])
        expect(card.status).toBe("non-compliant")
        expect(measure(card, "h").status).toBe("fail")
        expect(item(card, "dnssec.valid").result).toBe("fail")
        expect(measure(card, "h").fixes.join("\n")).toMatch(/\(dnssec_bogus\)/)
        // Behind a bogus chain most lookups fail: those items are left out, never read as missing.
        const items = card.measures.flatMap((m: any) => m.evidence)
        expect(items.filter((e: any) => /^Could not be observed/.test(e.detail)).length).toBeGreaterThan(5)
        expect(items.filter((e: any) => e.result === "missing")).toEqual([])
        const nl = yield* nis2("bogus-ds.org", "nl")
        expect(item(nl, "dnssec.valid").detail).toMatch(/^Voldoet niet: DNSSEC-validatie faalt/)
      })
    )

    it.effect("a name that does not exist is unscannable, not a non-compliant 0", () =>
      Effect.gen(function* () {
        const card = yield* nis2("no-such-domain.com")
        expect(card).toMatchObject({ status: "unscannable", total: 0, criticalGaps: [] })
        for (const m of card.measures)
          expect(m).toMatchObject({ status: "not-applicable", weight: 0, fixes: [] })
        expect(item(card, "email.spf.valid").detail).toMatch(/does not exist \(NXDOMAIN\)/)
      })
    )
  })
})
