/** The rules of the DMARC check (docs/scoring.md): a record that parses, its policy, its reporting. */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, partial, pass, unknown, type Verdict } from "../../kernel/RuleVerdict.ts"
import type { DmarcResult } from "./DmarcResult.ts"
import type { MtaStsResult } from "../mta-sts/MtaStsResult.ts"
import { publishesNullMx } from "../dns/Rules.ts"

export const DMARC_SPECS = {
  dmarcValid: spec({
    id: "email.dmarc.valid",
    title: "DMARC record",
    titleNl: "DMARC-record",
    category: "email",
    concerns: "mail",
    maxPoints: 3,
    level: "required",
    rule: "A DMARC record that parses (RFC 7489 6.3)",
    rank: 30
  }),
  dmarcPolicy: spec({
    id: "email.dmarc.policy",
    title: "DMARC policy",
    titleNl: "DMARC-beleid",
    category: "email",
    concerns: "mail",
    maxPoints: 8,
    level: "required",
    critical: true,
    rule: "p=reject 8, quarantine 6, both scaled by pct/100; none 0 (a critical fail)",
    rank: 40
  }),
  dmarcRua: spec({
    id: "email.dmarc.reporting",
    title: "DMARC reporting",
    titleNl: "DMARC-rapportage",
    category: "email",
    concerns: "mail",
    maxPoints: 2,
    level: "recommended",
    rule: "rua present (1 when an external address is not authorised)",
    rank: 50
  })
} as const

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly dmarc: DmarcResult; readonly "mta-sts": MtaStsResult }

const records = (scan: Judging<Reads>): ReadonlyArray<Ruling> => {
  const c = scan.checks
  const dmarc = c.dmarc
  const dmarcValid = judge(dmarc, (d) =>
    d.status === "unknown"
      ? unknown("the DMARC record could not be looked up")
      : !d.exists
        ? fail("no DMARC record", "dmarc_missing")
        : d.valid && d.errors.length === 0
          ? pass("the DMARC record parses")
          : d.valid
            ? partial(2, `${d.errors.length} syntax error(s)`, "dmarc_invalid")
            : fail("the DMARC record is invalid", "dmarc_invalid")
  )
  const dmarcPolicy = judge(dmarc, (d): Verdict => {
    if (d.status === "unknown") return unknown("the DMARC record could not be looked up")
    if (!d.exists || !d.valid || d.policy === undefined)
      return fail("no usable DMARC policy", d.exists ? "dmarc_invalid" : "dmarc_missing")
    const pct = d.pct ?? 100
    const base = d.policy === "reject" ? 8 : d.policy === "quarantine" ? 6 : 0
    const points = Math.floor((base * pct) / 100)
    if (d.policy === "none") return fail("p=none: monitoring only", "dmarc_policy_none")
    const issues = [
      ...(d.policy === "quarantine" ? (["dmarc_policy_quarantine"] as const) : []),
      ...(pct < 100 ? (["dmarc_pct_below_100"] as const) : [])
    ]
    return points === 8 ? pass(`p=${d.policy}`) : partial(points, `p=${d.policy}, pct=${pct}`, ...issues)
  })
  const receivesNoMail = publishesNullMx(scan)
  const dmarcRua = judge(dmarc, (d) => {
    if (d.status === "unknown") return unknown("the DMARC record could not be looked up")
    // A domain that sends no mail has no legitimate mail to monitor (as /email/check has it).
    if (receivesNoMail && d.exists) return notApplicable("null MX: no mail to report on")
    const rua = d.reportDestinations.filter((r) => r.kind === "rua")
    if (!d.exists || rua.length === 0) return fail("no rua", d.exists ? "dmarc_no_rua" : "dmarc_missing")
    return rua.some((r) => r.external && r.authorised === false)
      ? partial(1, "an external rua is not authorised", "dmarc_external_rua_unauthorised")
      : pass(`${rua.length} rua address(es)`)
  })
  return [
    scored(DMARC_SPECS.dmarcValid, dmarcValid),
    scored(DMARC_SPECS.dmarcPolicy, dmarcPolicy),
    scored(DMARC_SPECS.dmarcRua, dmarcRua)
  ]
}

export const rules = rulesOver<Reads>(Object.values(DMARC_SPECS), records)
