/** The rule of the blocklist check (docs/scoring.md): no mail server address listed. */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, partial, pass, unknown, type Verdict } from "../../kernel/RuleVerdict.ts"
import { silentImplicitMx } from "../dns/Rules.ts"
import type { BlocklistResult } from "./BlocklistResult.ts"
import type { SmtpTlsResult } from "../smtp-tls/SmtpTlsResult.ts"

export const BLOCKLIST_SPECS = {
  blocklist: spec({
    id: "security.blocklist",
    title: "Blocklists",
    titleNl: "Blocklijsten",
    category: "security",
    concerns: "mail",
    maxPoints: 5,
    level: "required",
    critical: true,
    rule: "No MX address on a high-severity blocklist (medium or low listings: 3)",
    rank: 40
  })
} as const

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly blocklist: BlocklistResult; readonly "smtp-tls": SmtpTlsResult }

const records = (scan: Judging<Reads>): ReadonlyArray<Ruling> => {
  const c = scan.checks
  const silent = silentImplicitMx(scan)
  const blocklist = judge(c.blocklist, (b): Verdict => {
    if (b.mailServers.length === 0) return notApplicable("no mail servers")
    if (silent)
      return notApplicable("no MX, and nothing answers SMTP at the domain's own address (implicit MX)")
    const hits = b.mailServers.flatMap((m) =>
      m.blacklistResult.blacklists.filter((z) => z.listed).map((z) => ({ m, z }))
    )
    if (hits.some((h) => h.z.severity === "high"))
      return fail(`listed: ${[...new Set(hits.map((h) => h.z.name))].join(", ")}`, "blocklisted")
    if (hits.length > 0)
      return partial(
        3,
        `listed on lower-severity lists: ${hits.map((h) => h.z.name).join(", ")}`,
        "blocklisted"
      )
    return b.summary.unknownLookups > 0
      ? unknown(`${b.summary.unknownLookups} blocklist lookup(s) failed`)
      : pass(`${b.summary.serversChecked} address(es) not listed`)
  })
  return [scored(BLOCKLIST_SPECS.blocklist, blocklist)]
}

export const rules = rulesOver<Reads>(Object.values(BLOCKLIST_SPECS), records)
