/**
 * The rule of the RPKI check (docs/scoring.md): the routes to the domain's addresses are
 * RPKI-valid. With no source of payloads configured the rule does not apply: nothing is scored.
 */
import { judge, type Judging, rulesOver, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, partial, pass, unknown } from "../../kernel/RuleVerdict.ts"
import type { RpkiReport } from "./RpkiResult.ts"

export const RPKI_SPECS = {
  rpki: spec({
    id: "security.rpki",
    title: "RPKI route-origin validation",
    titleNl: "RPKI-validatie van de route-herkomst",
    category: "security",
    maxPoints: 2,
    level: "recommended",
    rule: "The routes to the web, mail and name server addresses are RPKI-valid (RFC 6811); not-found 1, invalid 0",
    rank: 117
  })
} as const

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly rpki: RpkiReport }

export const rules = rulesOver<Reads>(Object.values(RPKI_SPECS), (scan: Judging<Reads>) => [
  scored(
    RPKI_SPECS.rpki,
    judge(scan.checks.rpki, (r) => {
      const { source, addresses } = r.result
      if (source.status === "off")
        return notApplicable("no RPKI source configured: route origins not validated")
      if (source.status === "unavailable")
        return unknown(`the RPKI source could not be read (${source.reason})`)
      if (addresses.length === 0)
        return r.result.status === "unknown"
          ? unknown("addresses could not be resolved")
          : notApplicable("no addresses")
      const invalid = addresses.filter((a) => a.state === "invalid")
      if (invalid.length > 0)
        return fail(
          `RPKI-invalid route to ${invalid.map((a) => `${a.host} (${a.ip})`).join(", ")}`,
          "rpki_invalid"
        )
      if (r.result.status === "unknown") return unknown("an origin lookup failed or an address is not routed")
      const notFound = addresses.filter((a) => a.state === "not-found")
      if (notFound.length > 0)
        return partial(
          1,
          `no ROA covers the route to ${notFound.map((a) => `${a.host} (${a.ip})`).join(", ")}`,
          "rpki_not_found"
        )
      return pass(`the routes to all ${addresses.length} addresses are RPKI-valid`)
    })
  )
])
