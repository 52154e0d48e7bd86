/** The rule of the BIMI check (docs/scoring.md): shown, never scored. */
import {
  fail,
  judge,
  type Judged,
  notApplicable,
  pass,
  type Rules,
  type Ruling,
  scored,
  spec
} from "../../kernel/Declaration.ts"
import type { BimiResult } from "./Bimi.ts"

export const BIMI_SPECS = {
  bimi: spec({
    id: "email.bimi",
    title: "BIMI",
    category: "email",
    maxPoints: 0,
    level: "info",
    rule: "Shown, never scored",
    rank: 90
  })
} as const

const records = (scan: { readonly checks: { readonly bimi: Judged<BimiResult> } }): ReadonlyArray<Ruling> => {
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

export const rules: Rules = { specs: Object.values(BIMI_SPECS), judge: records }
