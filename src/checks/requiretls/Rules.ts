/** The rule of the REQUIRETLS check (docs/scoring.md): shown, never scored. */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { spread } from "../../kernel/RuleVerdict.ts"
import type { RequireTlsResult } from "./RequireTlsResult.ts"

export const REQUIRETLS_SPECS = {
  requireTls: spec({
    id: "security.mx.requiretls",
    title: "REQUIRETLS",
    titleNl: "REQUIRETLS",
    category: "security",
    concerns: "mail",
    maxPoints: 0,
    level: "info",
    rule: "Shown, never scored: every mail server advertises REQUIRETLS after STARTTLS (RFC 8689); some but not all is a finding; none, or no mail, is not applicable",
    rank: 35
  })
} as const

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly requiretls: RequireTlsResult }

const records = (scan: Judging<Reads>): ReadonlyArray<Ruling> => [
  scored(
    REQUIRETLS_SPECS.requireTls,
    judge(scan.checks.requiretls, (r) =>
      spread(r.status === "no-mail" ? "none" : r.status, r.note, "requiretls_partial")
    )
  )
]

export const rules = rulesOver<Reads>(Object.values(REQUIRETLS_SPECS), records)
