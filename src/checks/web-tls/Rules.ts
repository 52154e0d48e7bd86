/**
 * The rule of the HTTPS transport check (docs/scoring.md): the TLS configuration of the web hosts,
 * rated by the NCSC-NL TLS guidelines of May 2025 as internet.nl applies them.
 */
import { judge, type Judging, rulesOver, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, partial, pass, unknown } from "../../kernel/RuleVerdict.ts"
import type { WebTlsResult } from "./WebTlsResult.ts"

export const WEB_TLS_SPECS = {
  tls: spec({
    id: "security.web.tls",
    title: "HTTPS transport (TLS)",
    titleNl: "HTTPS-transport (TLS)",
    category: "security",
    concerns: "web",
    maxPoints: 3,
    level: "recommended",
    rule: "Every web address of the domain and www. rated good or sufficient by the NCSC-NL TLS guidelines of May 2025 (versions, cipher suites, key exchange, Extended Master Secret on TLS 1.2, certificate key and signature) 3; phase-out 1; insufficient, or an address refusing connections on port 443 beside one that serves HTTPS, 0; no web address, or none accepting connections on port 443, is not applicable",
    rank: 57
  })
} as const

/** The catalogue ids a result's weaknesses name, worst first. */
export const weaknesses = (r: WebTlsResult): ReadonlyArray<string> => {
  const servers = r.servers.filter((s) => s.rating !== null)
  const ids: Array<string> = []
  const weak = (x: string | null) => x === "phase-out" || x === "insufficient"
  if (servers.some((s) => weak(s.versionsRating))) ids.push("web_tls_version_outdated")
  if (servers.some((s) => weak(s.ciphersRating))) ids.push("web_tls_cipher_weak")
  if (servers.some((s) => weak(s.keyExchangeRating))) ids.push("web_tls_key_exchange_weak")
  if (servers.some((s) => weak(s.extendedMasterSecretRating ?? null))) ids.push("web_tls_ems_missing")
  if (servers.some((s) => weak(s.certificateRating))) ids.push("web_tls_certificate_weak")
  return ids
}

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly "web-tls": WebTlsResult }

const webTlsRecords = (scan: Judging<Reads>) => {
  const verdict = judge(scan.checks["web-tls"], (r) => {
    if (r.servers.length === 0)
      return r.summary.status === "unknown"
        ? unknown("the web hosts' address lookups failed")
        : notApplicable("no web address")
    // Every address refused the connection: the site serves no HTTPS, nothing to rate.
    if (r.summary.status === "not-applicable")
      return notApplicable("no web address accepts connections on port 443")
    const rating = r.summary.rating
    if (rating === null) return unknown("no web address completed a TLS handshake")
    const ids = weaknesses(r)
    const detail = `rated ${rating} (NCSC-NL); versions ${r.summary.versionsAccepted.join(", ") || "none"}`
    if (rating === "insufficient") return fail(detail, ...ids)
    // Refused beside an address that serves HTTPS (an unreachable one stays unknown, not failed).
    const closed = r.servers.filter((s) => s.reachable === false && s.status === "fail")
    if (closed.length > 0)
      return fail(`${detail}; ${closed.map((s) => s.ip).join(", ")} accept no connection on port 443`, ...ids)
    if (rating === "phase-out") return partial(1, detail, ...ids)
    return r.summary.status === "unknown" ? unknown(`${detail}; some addresses did not answer`) : pass(detail)
  })
  return [scored(WEB_TLS_SPECS.tls, verdict)]
}

export const rules = rulesOver<Reads>(Object.values(WEB_TLS_SPECS), webTlsRecords)
