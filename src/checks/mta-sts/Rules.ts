/** The rules of the MTA-STS check (docs/scoring.md): the policy's mode, and TLS-RPT. */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, partial, pass, unknown } from "../../kernel/RuleVerdict.ts"
import type { MtaStsResult } from "./MtaStsResult.ts"

export const MTA_STS_SPECS = {
  mtaSts: spec({
    id: "email.mta_sts",
    title: "MTA-STS",
    titleNl: "MTA-STS",
    category: "email",
    concerns: "mail",
    maxPoints: 2,
    level: "recommended",
    rule: "mode=enforce covering every MX 2, testing 1 (RFC 8461)",
    rank: 70
  }),
  tlsRpt: spec({
    id: "email.tls_rpt",
    title: "TLS-RPT",
    titleNl: "TLS-RPT",
    category: "email",
    concerns: "mail",
    maxPoints: 1,
    level: "recommended",
    rule: "A valid _smtp._tls record (RFC 8460)",
    rank: 80
  })
} as const

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly "mta-sts": MtaStsResult }

const records = (scan: Judging<Reads>): ReadonlyArray<Ruling> => {
  const c = scan.checks
  const mtaSts = judge(c["mta-sts"], (m) => {
    if (m.mx.nullMx) return notApplicable("null MX")
    if (m.status === "unknown") return unknown("MTA-STS could not be read")
    if (!m.exists) return fail("no _mta-sts record", "mta_sts_missing")
    const mode = m.policy?.mode ?? null
    if (!m.valid || mode === null) return fail("the policy cannot be used", "mta_sts_invalid")
    if (mode === "enforce")
      return m.mx.allCovered === false
        ? partial(1, "enforce, but not every MX is covered", "mta_sts_invalid")
        : pass("mode=enforce")
    return mode === "testing"
      ? partial(1, "mode=testing", "mta_sts_testing")
      : fail("mode=none", "mta_sts_missing")
  })
  const tlsRpt = judge(c["mta-sts"], (m) =>
    m.mx.nullMx
      ? notApplicable("null MX")
      : m.tlsRpt.status === "unknown"
        ? unknown("the TLS-RPT record could not be looked up")
        : m.tlsRpt.exists && m.tlsRpt.valid
          ? pass("a valid TLS-RPT record")
          : fail("no valid TLS-RPT record", "tls_rpt_missing")
  )
  return [scored(MTA_STS_SPECS.mtaSts, mtaSts), scored(MTA_STS_SPECS.tlsRpt, tlsRpt)]
}

export const rules = rulesOver<Reads>(Object.values(MTA_STS_SPECS), records)
