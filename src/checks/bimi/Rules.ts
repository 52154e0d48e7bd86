/** The rule of the BIMI check (docs/scoring.md): shown, never scored. */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { notApplicable, pass } from "../../kernel/RuleVerdict.ts"
import type { BimiResult } from "./BimiResult.ts"

export const BIMI_SPECS = {
  bimi: spec({
    id: "email.bimi",
    title: "BIMI",
    titleNl: "BIMI",
    category: "email",
    concerns: "mail",
    maxPoints: 0,
    level: "info",
    rule: "Shown, never scored",
    rank: 90
  })
} as const

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly bimi: BimiResult }

const records = (scan: Judging<Reads>): ReadonlyArray<Ruling> => {
  const c = scan.checks
  const bimi = judge(c.bimi, (b) =>
    !b.exists
      ? notApplicable("no BIMI record")
      : b.valid
        ? pass("a valid BIMI record")
        : { status: "fail", detail: "the BIMI record has problems", issues: ["bimi_invalid"] }
  )
  return [scored(BIMI_SPECS.bimi, bimi)]
}

export const rules = rulesOver<Reads>(Object.values(BIMI_SPECS), records)
