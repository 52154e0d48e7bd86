/** The rule of the CAA check (docs/scoring.md): the served certificates' issuers are permitted by CAA. */
import { judge, type Judging, rulesOver, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, pass, unknown } from "../../kernel/RuleVerdict.ts"
import type { CaaReport } from "./CaaResult.ts"

export const CAA_SPECS = {
  issuer: spec({
    id: "security.caa.issuer",
    title: "CAA permits the issuers of the certificates served",
    titleNl: "CAA staat de uitgevers van de gebruikte certificaten toe",
    category: "security",
    maxPoints: 2,
    level: "recommended",
    rule: "The CAA set governing the web site and every MX host permits the CA that issued its certificate (RFC 8659)",
    rank: 113
  })
} as const

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly caa: CaaReport }

export const rules = rulesOver<Reads>(Object.values(CAA_SPECS), (scan: Judging<Reads>) => [
  scored(
    CAA_SPECS.issuer,
    judge(scan.checks.caa, (r) => {
      const certs = r.result.certificates.filter((c) => c.status !== "not-applicable")
      if (certs.length === 0) return notApplicable("no certificate issued by a CA was served")
      const forbidden = certs.filter((c) => c.verdict === "forbidden")
      if (forbidden.length > 0)
        return fail(
          `CAA forbids the issuer of ${forbidden.map((c) => c.host).join(", ")}`,
          "caa_forbids_issuer"
        )
      if (certs.some((c) => c.verdict === "unknown"))
        return unknown(certs.find((c) => c.verdict === "unknown")!.message)
      // Without any CAA record nothing restricts issuance: that is dns.caa's finding, not this one's.
      if (certs.every((c) => c.verdict === "no-caa")) return notApplicable("no CAA record restricts issuance")
      return pass(`CAA permits the issuer of every certificate served (${certs.length})`)
    })
  )
])
