/**
 * The rules of the takeover check (docs/scoring.md): no alias of the domain can be claimed by
 * somebody else, and no domain it depends on can be registered by somebody else.
 */
import { judge, type Judging, rulesOver, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, partial, pass, unknown } from "../../kernel/RuleVerdict.ts"
import type { TakeoverResult } from "./TakeoverResult.ts"

export const TAKEOVER_SPECS = {
  aliases: spec({
    id: "security.takeover.cname",
    title: "No dangling CNAME",
    titleNl: "Geen loshangende CNAME",
    category: "security",
    maxPoints: 3,
    level: "required",
    rule: 'No CNAME at the apex, www, the MTA-STS or BIMI hosts, or a name the scan was given (names=), ends in NXDOMAIN or at a hosting service\'s "no such site" page; not applicable when none is an alias',
    rank: 121
  }),
  dependencies: spec({
    id: "security.takeover.dependencies",
    title: "Dependencies registered",
    titleNl: "Afhankelijkheden geregistreerd",
    category: "security",
    maxPoints: 3,
    level: "required",
    rule: "Every domain the records name is registered (RDAP) and answers in DNS (name servers failing: 1); without an RDAP source only a failure is scored",
    rank: 122
  })
} as const

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly takeover: TakeoverResult }

const takeoverRules = (scan: Judging<Reads>) => {
  const outcome = scan.checks.takeover
  const aliases = judge(outcome, (r) => {
    if (r.aliases.length === 0) return notApplicable("none of the probed names is an alias")
    const dangling = r.aliases.find((a) => a.risk === "dangling")
    if (dangling) return fail(`remove ${dangling.remove}: ${dangling.message}`, "cname_dangling")
    const unclaimed = r.aliases.find((a) => a.risk === "unclaimed")
    if (unclaimed) return fail(`remove ${unclaimed.remove}: ${unclaimed.message}`, "cname_unclaimed")
    const open = r.aliases.find((a) => a.status === "unknown")
    if (open) return unknown(open.message)
    return pass(`${r.aliases.length} alias(es), each ending in a name that exists`)
  })
  const dependencies = judge(outcome, (r) => {
    if (r.dependencies.length === 0) return notApplicable("the records name no other domain")
    const taken = r.dependencies.find((d) => d.risk === "unregistered" || d.risk === "nxdomain")
    if (taken) return fail(`remove ${taken.remove.join("; ")}: ${taken.message}`, "dependency_unregistered")
    const silent = r.dependencies.find((d) => d.risk === "unanswered")
    if (silent) return partial(1, silent.message, "dependency_unresolvable")
    // Without RDAP a dependency that answers in DNS may still be unregistered: nothing to pass on.
    if (!r.rdapConfigured) return notApplicable("no RDAP source configured (RDAP_BOOTSTRAP)")
    const open = r.dependencies.find((d) => d.status === "unknown")
    if (open) return unknown(open.message)
    return pass(`all ${r.dependencies.length} dependency domains are registered and answer`)
  })
  return [scored(TAKEOVER_SPECS.aliases, aliases), scored(TAKEOVER_SPECS.dependencies, dependencies)]
}

export const rules = rulesOver<Reads>(Object.values(TAKEOVER_SPECS), takeoverRules)
