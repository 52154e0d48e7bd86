/** The rules of the FCrDNS check (docs/scoring.md): reverse DNS of the mail servers, and its confirmation. */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, pass, unknown, type Verdict } from "../../kernel/RuleVerdict.ts"
import { publishesNullMx, SILENT_IMPLICIT_MX, silentImplicitMx } from "../dns/Rules.ts"
import type { FcrdnsReport } from "./FcrdnsResult.ts"
import type { MtaStsResult } from "../mta-sts/MtaStsResult.ts"
import type { SmtpTlsResult } from "../smtp-tls/SmtpTlsResult.ts"

export const FCRDNS_SPECS = {
  ptr: spec({
    id: "dns.ptr",
    title: "Reverse DNS of the mail servers",
    titleNl: "Reverse DNS van de mailservers",
    category: "dns",
    concerns: "mail",
    maxPoints: 2,
    level: "recommended",
    rule: "Every MX address has a PTR record",
    rank: 40
  }),
  fcrdns: spec({
    id: "dns.fcrdns",
    title: "Forward-confirmed reverse DNS",
    titleNl: "Voorwaarts bevestigde reverse DNS",
    category: "dns",
    concerns: "mail",
    maxPoints: 3,
    level: "recommended",
    rule: "A PTR name of every MX address resolves back to it",
    rank: 50
  })
} as const

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = {
  readonly fcrdns: FcrdnsReport
  readonly "mta-sts": MtaStsResult
  readonly "smtp-tls": SmtpTlsResult
}

const fcrdnsRecords = (scan: Judging<Reads>): ReadonlyArray<Ruling> => {
  const c = scan.checks
  const nullMx = publishesNullMx(scan)
  const fc = judge(c.fcrdns, (f) => {
    const rs = f.result.results
    if (!f.result.checked || rs.length === 0) return notApplicable("no mail server addresses to check")
    if (rs.some((r) => r.status === "unknown" && r.ptrRecords.length === 0))
      return unknown("a PTR lookup failed")
    const noPtr = rs.filter((r) => r.ptrRecords.length === 0)
    return noPtr.length === 0
      ? pass(`every MX address (${rs.length}) has a PTR`)
      : fail(`no PTR for ${noPtr.map((r) => r.ip).join(", ")}`, "ptr_missing")
  })
  const confirmed = judge(c.fcrdns, (f) => {
    const rs = f.result.results
    if (!f.result.checked || rs.length === 0) return notApplicable("no mail server addresses to check")
    // Without a PTR there is nothing to confirm: the fix is the PTR (dns.ptr), one issue, not two.
    if (rs.some((r) => r.ptrRecords.length === 0 && r.status !== "unknown"))
      return fail("an MX address has no PTR to confirm", "ptr_missing")
    const bad = rs.filter((r) => r.forwardConfirmed === false)
    if (bad.length > 0)
      return fail(`not forward-confirmed: ${bad.map((r) => r.ip).join(", ")}`, "fcrdns_mismatch")
    return rs.some((r) => r.forwardConfirmed === null)
      ? unknown("a reverse or forward lookup failed")
      : pass("every MX address is forward-confirmed")
  })
  const silent = silentImplicitMx(scan)
  const gate = (v: Verdict) =>
    nullMx ? notApplicable("null MX") : silent ? notApplicable(SILENT_IMPLICIT_MX) : v
  return [scored(FCRDNS_SPECS.ptr, gate(fc)), scored(FCRDNS_SPECS.fcrdns, gate(confirmed))]
}

export const rules = rulesOver<Reads>(Object.values(FCRDNS_SPECS), fcrdnsRecords)
