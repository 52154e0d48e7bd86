/**
 * The rules of the registration check (docs/scoring.md): the domain's own registration, and those
 * of the domains it depends on, far enough from expiry. Without an RDAP source they do not apply.
 */
import { judge, type Judging, rulesOver, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, partial, pass, unknown, type Verdict } from "../../kernel/RuleVerdict.ts"
import type { RegistrationEntry, RegistrationResult } from "./RegistrationResult.ts"

export const REGISTRATION_SPECS = {
  own: spec({
    id: "dns.registration",
    title: "Registration expiry",
    titleNl: "Verloop van de registratie",
    category: "dns",
    maxPoints: 2,
    level: "required",
    rule: "RDAP gives the registration an expiry more than 30 days away (8 to 30 days: 1); not applicable without an RDAP source",
    rank: 73
  }),
  dependencies: spec({
    id: "dns.registration.dependencies",
    title: "Registration expiry of dependencies",
    titleNl: "Verloop van de registratie van afhankelijkheden",
    category: "dns",
    maxPoints: 2,
    level: "recommended",
    rule: "Every domain the records name (NS, MX, SPF, DMARC, TLS-RPT, BIMI, CNAME) expires more than 30 days away (8 to 30 days: 1); not applicable without an RDAP source",
    rank: 74
  })
} as const

const NO_SOURCE = "no RDAP source configured (RDAP_BOOTSTRAP)"

/** The verdict of the soonest expiry among `entries` (the ones RDAP answered for). */
const expiryVerdict = (
  entries: ReadonlyArray<RegistrationEntry>,
  issue: string,
  expiredIssue: string
): Verdict => {
  const answered = entries.filter((e) => e.rdap === "registered")
  const soonest = [...answered].sort((a, b) => (a.daysLeft ?? Infinity) - (b.daysLeft ?? Infinity))[0]
  const held = answered.find((e) => e.status === "fail" && e.band !== "expired" && e.band !== "7")
  if (soonest?.band === "expired") return fail(soonest.message, expiredIssue)
  if (soonest?.band === "7" || soonest?.band === "14") return fail(soonest.message, issue)
  if (held) return fail(held.message, issue)
  if (soonest?.band === "30") return partial(1, soonest.message, issue)
  const unanswered = entries.find((e) => e.rdap === "unknown")
  if (unanswered) return unknown(`RDAP could not answer for ${unanswered.domain}: ${unanswered.message}`)
  if (answered.length === 0)
    return notApplicable("no registry with an RDAP server answered for these domains")
  return pass(soonest?.daysLeft == null ? "registered" : `${soonest.message}`)
}

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly registration: RegistrationResult }

const registrationRules = (scan: Judging<Reads>) => {
  const outcome = scan.checks.registration
  const own = judge(outcome, (r) => {
    if (!r.rdapConfigured) return notApplicable(NO_SOURCE)
    // A name RDAP does not know (a zone under a private suffix) says nothing about the domain's expiry.
    if (r.registration.rdap === "not-registered") return unknown(r.registration.message)
    return expiryVerdict([r.registration], "registration_expiring", "registration_expired")
  })
  const dependencies = judge(outcome, (r) => {
    if (!r.rdapConfigured) return notApplicable(NO_SOURCE)
    if (r.dependencies.length === 0) return notApplicable("the records name no other domain")
    // Not registered at all is a takeover risk, judged by security.takeover.dependencies.
    return expiryVerdict(
      r.dependencies.filter((e) => e.rdap !== "not-registered"),
      "dependency_expiring",
      "dependency_expiring"
    )
  })
  return [scored(REGISTRATION_SPECS.own, own), scored(REGISTRATION_SPECS.dependencies, dependencies)]
}

export const rules = rulesOver<Reads>(Object.values(REGISTRATION_SPECS), registrationRules)
