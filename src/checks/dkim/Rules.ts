/** The rule of the DKIM check (docs/scoring.md): a valid key under a known selector. */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { notApplicable, partial, pass, unknown } from "../../kernel/RuleVerdict.ts"
import type { DkimResult } from "./DkimResult.ts"
import type { MtaStsResult } from "../mta-sts/MtaStsResult.ts"
import { publishesNullMx } from "../dns/Rules.ts"

/** DKIM's own "unknown": a search that found nothing, not a lookup that failed (RFC 6376 3.6.2.1). */
export const DKIM_NOT_FOUND = "no key under the selectors we know (DKIM cannot be listed)"

export const DKIM_SPECS = {
  dkim: spec({
    id: "email.dkim",
    title: "DKIM",
    titleNl: "DKIM",
    category: "email",
    concerns: "mail",
    maxPoints: 5,
    level: "required",
    rule: "A valid key under a known selector: 2048-bit RSA or Ed25519 5, weaker 3; none found is unknown (selectors cannot be listed)",
    rank: 60
  })
} as const

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly dkim: DkimResult; readonly "mta-sts": MtaStsResult }

const records = (scan: Judging<Reads>): ReadonlyArray<Ruling> => {
  const c = scan.checks
  const receivesNoMail = publishesNullMx(scan)
  const dkim = judge(c.dkim, (k) => {
    const valid = k.selectorsFound.filter((s) => s.valid && !s.revoked)
    if (valid.length > 0) {
      const strong = valid.some((s) => s.keyType.toLowerCase() === "ed25519" || (s.keyLength ?? 0) >= 2048)
      return strong
        ? pass(`${valid.length} valid key(s)`)
        : partial(3, "only keys below 2048 bits", "dkim_weak_key")
    }
    if (receivesNoMail) return notApplicable("null MX and no DKIM key")
    return k.discovery === "unknown" ? unknown("the selector lookups failed") : unknown(DKIM_NOT_FOUND)
  })
  return [scored(DKIM_SPECS.dkim, dkim)]
}

export const rules = rulesOver<Reads>(Object.values(DKIM_SPECS), records)
