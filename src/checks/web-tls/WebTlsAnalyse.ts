/**
 * The pure half of the HTTPS transport check: each TLS scan (net/TlsScan.ts) rated part by part
 * with the NCSC-NL TLS guidelines of May 2025 (kernel/TlsServerRating.ts, shared with the mail servers'
 * check), a server as good as its worst part, the domain as good as its worst server. A server
 * that could not be reached is unknown, never rated; a version this client cannot speak (SSL 3) is
 * untested, never "refused". A server that refused the connection (nothing listens on 443) is an
 * answer, not a silence: the host serves no HTTPS there, which fails it when another address of
 * the site does (visitors sent there get no site) and is nothing to rate when none does (the
 * missing HTTPS is the headers' and redirect checks' finding).
 */
import type { TlsScanResult } from "../../net/TlsScan.ts"
import { TLS_GUIDELINE } from "../../records/TlsRating.ts"
import { type CheckStatus, worstOf } from "../../kernel/Status.ts"
import { rateTlsServer, worstOrNull } from "../../kernel/TlsServerRating.ts"
import type { WebTlsResult, WebTlsServer } from "./WebTlsResult.ts"

export { rateTlsServer as analyseServer, statusOfRating } from "../../kernel/TlsServerRating.ts"

export interface WebTlsHostInput {
  readonly host: string
  readonly lookup: "answer" | "none" | "unknown"
  readonly addresses: ReadonlyArray<string>
}

export interface WebTlsInput {
  readonly domain: string
  readonly hosts: ReadonlyArray<WebTlsHostInput>
  readonly scans: ReadonlyArray<TlsScanResult>
}

const VERSION_ORDER = ["SSLv3", "TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"]

/** The verdict for the domain's web hosts. Pure and total. */
export const analyse = (input: WebTlsInput, now: Date): WebTlsResult => {
  const rated = input.scans.map((s) => rateTlsServer(s, now))
  const reachable = rated.filter((s) => s.reachable === true)
  // A closed address beside one that serves HTTPS: some visitors get no site.
  const servers =
    reachable.length === 0
      ? rated
      : rated.map((s): WebTlsServer => (s.status === "not-applicable" ? { ...s, status: "fail" } : s))
  const judged = servers.filter((s) => s.status !== "not-applicable")
  const issues = servers.flatMap((s) => s.issues)
  const unknownHosts = input.hosts.filter((h) => h.lookup === "unknown")
  for (const h of unknownHosts) issues.push(`${h.host}: address lookup failed`)
  const ratings = servers.flatMap((s) => (s.rating === null ? [] : [s.rating]))
  const status: CheckStatus =
    judged.length === 0
      ? unknownHosts.length > 0
        ? "unknown"
        : "not-applicable"
      : worstOf([...judged.map((s) => s.status), ...(unknownHosts.length > 0 ? ["unknown" as const] : [])])
  const versionsAccepted = VERSION_ORDER.filter((v) =>
    servers.some((s) => s.versions.some((x) => x.version === v && x.support === "accepted"))
  )
  const withCertificates = reachable.filter((s) => s.certificate !== null)
  return {
    domain: input.domain,
    checkedAt: now.toISOString(),
    guideline: TLS_GUIDELINE,
    hosts: input.hosts.map((h) => ({ host: h.host, lookup: h.lookup, addresses: [...h.addresses] })),
    servers,
    summary: {
      status,
      rating: worstOrNull(ratings),
      serversChecked: servers.length,
      serversReachable: reachable.length,
      versionsAccepted,
      allCertificatesValid:
        withCertificates.length === 0
          ? null
          : withCertificates.every(
              (s) => s.trusted === true && s.hostnameMatch === true && s.expired === false
            )
    },
    issues
  }
}
