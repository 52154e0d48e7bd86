/** The rule of the DANE check (docs/scoring.md): TLSA that validates for every mail server. */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, pass, unknown, type Verdict } from "../../kernel/RuleVerdict.ts"
import { noMailServers } from "../dns/Rules.ts"
import type { TlsaResult } from "./TlsaResult.ts"
import type { SmtpTlsResult } from "../smtp-tls/SmtpTlsResult.ts"
import type { DnssecResult } from "../dnssec/DnssecResult.ts"

export const DANE_SPECS = {
  dane: spec({
    id: "security.mx.dane",
    title: "DANE",
    titleNl: "DANE",
    category: "security",
    concerns: "mail",
    maxPoints: 2,
    level: "recommended",
    rule: "DNSSEC-signed TLSA that matches every MX (RFC 7672); not applicable when the zone is unsigned",
    rank: 30
  })
} as const

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly dane: TlsaResult; readonly "smtp-tls": SmtpTlsResult; readonly dnssec: DnssecResult }

const records = (scan: Judging<Reads>): ReadonlyArray<Ruling> => {
  const c = scan.checks
  const smtp = c["smtp-tls"]
  const servers = judge(smtp, (s) => noMailServers(s) ?? pass(""))
  const dnssecSigned = c.dnssec.result?.signed ?? null
  const dane = judge(c.dane, (t): Verdict => {
    if (servers.status !== "pass") return servers
    if (t.hosts.every((h) => !h.exists))
      return dnssecSigned === true
        ? fail("no TLSA records", "dane_missing")
        : notApplicable("the zone is not signed, so DANE cannot apply")
    if (t.status === "unknown") return unknown("the TLSA records could not be compared")
    return t.status === "fail" || t.hosts.some((h) => h.exists && h.dane !== null && !h.dane.daneValid)
      ? fail("TLSA does not validate for every MX", "dane_invalid")
      : pass("TLSA validates for every MX")
  })
  return [scored(DANE_SPECS.dane, dane)]
}

export const rules = rulesOver<Reads>(Object.values(DANE_SPECS), records)
