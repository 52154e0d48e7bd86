/** The rule of the HTTPS record check (docs/scoring.md): a published record tells the truth. */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, pass, unknown } from "../../kernel/RuleVerdict.ts"
import type { HttpsRecordResult } from "./HttpsRecordResult.ts"

export const HTTPS_RECORD_SPECS = {
  consistent: spec({
    id: "dns.https_record",
    title: "HTTPS record",
    titleNl: "HTTPS-record",
    category: "dns",
    concerns: "web",
    maxPoints: 1,
    level: "recommended",
    rule: "A published HTTPS record (RFC 9460) parses, its alpn protocols are negotiated by the server and its ipv4hint/ipv6hint are the target's addresses; no record, or nothing verifiable, is not applicable; ECH is reported, not scored",
    rank: 87
  })
} as const

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly "https-record": HttpsRecordResult }

const records = (scan: Judging<Reads>): ReadonlyArray<Ruling> => [
  scored(
    HTTPS_RECORD_SPECS.consistent,
    judge(scan.checks["https-record"], (r) => {
      if (r.status === "unknown") return unknown(r.note ?? "the HTTPS record could not be read")
      if (r.status === "absent") return notApplicable("no HTTPS record")
      if (r.consistent === false) return fail(r.issues.join("; "), "https_record_mismatch")
      if (r.consistent === null) return notApplicable("nothing in the HTTPS record could be verified")
      return pass(
        `${r.records.length} HTTPS record(s) match the server${r.echPresent ? " (ECH published)" : ""}`
      )
    })
  )
]

export const rules = rulesOver<Reads>(Object.values(HTTPS_RECORD_SPECS), records)
