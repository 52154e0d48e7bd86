/**
 * The pure half of the HTTPS transport check: each TLS scan (net/TlsScan.ts) rated part by part
 * with the NCSC-NL TLS guidelines v2.1 (records/TlsRating.ts), a server as good as its worst part,
 * the domain as good as its worst server. A server that could not be reached is unknown, never
 * rated; a version this client cannot speak (SSL 3) is untested, never "refused". A server that
 * refused the connection (nothing listens on 443) is an answer, not a silence: the host serves no
 * HTTPS there, which fails it when another address of the site does (visitors sent there get no
 * site) and is nothing to rate when none does (the missing HTTPS is the headers' and redirect
 * checks' finding).
 */
import { publicFacts } from "../../net/Certificate.ts"
import type { KeyExchangeFacts, TlsScanResult } from "../../net/TlsScan.ts"
import {
  acceptable,
  rateCertificateKey,
  rateCipher,
  rateKeyExchange,
  rateSignature,
  rateVersion,
  type TlsRating,
  worst
} from "../../records/TlsRating.ts"
import { type CheckStatus, worstOf } from "../../kernel/Status.ts"
import type { WebTlsResult, WebTlsServer } from "./WebTlsResult.ts"

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

/** The status a rating earns: good and sufficient pass, phase-out warns, insufficient fails. */
export const statusOfRating = (rating: TlsRating): CheckStatus =>
  acceptable(rating) ? "pass" : rating === "phase-out" ? "warning" : "fail"

const keyExchange = (kx: KeyExchangeFacts) => ({
  type: kx.type,
  name: kx.name,
  bits: kx.size,
  rating: rateKeyExchange(kx)
})

const worstOrNull = (ratings: ReadonlyArray<TlsRating>): TlsRating | null =>
  ratings.length === 0 ? null : worst(ratings)

const list = (items: ReadonlyArray<string>) => items.join(", ")

/** The verdict for one address of a web host. Total for any scan. */
export const analyseServer = (scan: TlsScanResult, now: Date): WebTlsServer => {
  const where = `${scan.host} (${scan.address})`
  const issues: Array<string> = []
  const versions = [
    { version: "SSLv3", support: "untested" as const, rating: rateVersion("SSLv3") },
    ...Object.entries(scan.versions).map(([version, support]) => ({
      version,
      support,
      rating: rateVersion(version)
    }))
  ]
  const accepted = versions.filter((v) => v.support === "accepted")
  const ciphers = scan.suites.map((s) => ({
    name: s.cipher,
    version: s.version,
    rating: rateCipher(s.cipher),
    keyExchange: s.keyExchange ? keyExchange(s.keyExchange) : null
  }))
  const seen = new Set<string>()
  const keyExchanges = ciphers.flatMap((c) => {
    if (c.keyExchange === null) return []
    const key = `${c.keyExchange.type} ${c.keyExchange.name} ${c.keyExchange.bits}`
    if (seen.has(key)) return []
    seen.add(key)
    return [c.keyExchange]
  })
  const cert = scan.certificate
  const chain = (cert?.chain ?? []).map(publicFacts)
  const leaf = chain[0] ?? null
  const expired = leaf
    ? Date.parse(leaf.validTo) < now.getTime() || Date.parse(leaf.validFrom) > now.getTime()
    : null
  const certificateRating =
    leaf === null
      ? null
      : worst([
          rateCertificateKey(leaf.keyType, leaf.keySize, leaf.curve),
          cert?.signatureAlgorithm ? rateSignature(cert.signatureAlgorithm) : "good"
        ])
  const versionsRating = worstOrNull(accepted.map((v) => v.rating))
  const ciphersRating = worstOrNull(ciphers.map((c) => c.rating))
  const keyExchangeRating = worstOrNull(keyExchanges.map((k) => k.rating))
  const parts = [versionsRating, ciphersRating, keyExchangeRating, certificateRating].filter(
    (r): r is TlsRating => r !== null
  )
  const rating = scan.status === "complete" && accepted.length > 0 ? worstOrNull(parts) : null
  let status: CheckStatus
  if (scan.status === "refused") {
    status = "fail"
    issues.push(`${where}: not a public address, so visitors cannot reach it (not probed)`)
  } else if (scan.status === "closed") {
    // Settled by `analyse`, which knows whether another address serves HTTPS.
    status = "not-applicable"
    issues.push(`${where}: nothing accepts connections on port ${scan.port} (${scan.failure ?? "refused"})`)
  } else if (scan.status === "unknown") {
    status = "unknown"
    issues.push(`${where}: no TLS handshake could be made (${scan.failure ?? "no answer"})`)
  } else if (accepted.length === 0) {
    status = "fail"
    issues.push(`${where}: accepts none of TLS 1.0 to 1.3`)
  } else {
    const old = accepted.filter((v) => !acceptable(v.rating)).map((v) => v.version)
    if (old.length > 0) issues.push(`${where}: accepts ${list(old)} (phase out: NCSC-NL, RFC 8996)`)
    const weak = ciphers.filter((c) => !acceptable(c.rating))
    if (weak.length > 0) issues.push(`${where}: accepts ${list(weak.map((c) => `${c.name} (${c.rating})`))}`)
    const weakKx = keyExchanges.filter((k) => !acceptable(k.rating))
    if (weakKx.length > 0)
      issues.push(
        `${where}: key exchange ${list(weakKx.map((k) => `${k.name ?? k.type} ${k.bits} bits (${k.rating})`))}`
      )
    if (certificateRating !== null && !acceptable(certificateRating))
      issues.push(
        `${where}: certificate ${leaf!.keyType.toUpperCase()} ${leaf!.keySize ?? "?"} bits signed ${cert?.signatureAlgorithm ?? "?"} (${certificateRating})`
      )
    const certificateProblems = [
      ...(leaf === null ? ["presented no certificate"] : []),
      ...(cert && !cert.trusted ? [`certificate not trusted (${cert.trustError ?? "unknown reason"})`] : []),
      ...(cert && !cert.hostnameMatch ? [`certificate does not cover ${scan.host}`] : []),
      ...(expired ? [`certificate expired on ${leaf!.validTo.slice(0, 10)}`] : [])
    ]
    for (const p of certificateProblems) issues.push(`${where}: ${p}`)
    status = worstOf([
      rating === null ? "unknown" : statusOfRating(rating),
      certificateProblems.length > 0 ? "fail" : "pass"
    ])
  }
  return {
    host: scan.host,
    ip: scan.address,
    family: scan.family,
    status,
    reachable:
      scan.status === "complete"
        ? true
        : scan.status === "unknown" || scan.status === "closed"
          ? false
          : null,
    error: scan.failure,
    rating,
    versions,
    versionsRating,
    ciphers,
    ciphersRating,
    ciphersComplete: scan.suitesComplete,
    serverCipherOrder: scan.serverOrder,
    keyExchanges,
    keyExchangeRating,
    negotiatedProtocol: scan.negotiated?.protocol ?? null,
    negotiatedCipher: scan.negotiated?.cipher ?? null,
    certificate: leaf,
    chain,
    signatureAlgorithm: cert?.signatureAlgorithm ?? null,
    certificateRating,
    trusted: cert ? cert.trusted : null,
    trustError: cert?.trustError ?? null,
    hostnameMatch: cert ? cert.hostnameMatch : null,
    hostnameError: cert?.hostnameError ?? null,
    expired,
    expiresAt: leaf?.validTo ?? null,
    daysUntilExpiry: leaf ? Math.floor((Date.parse(leaf.validTo) - now.getTime()) / 86_400_000) : null,
    ocspStapled: scan.ocspStapled,
    handshakes: scan.handshakes,
    elapsedMs: Math.max(0, Math.round(scan.elapsedMs)),
    issues
  }
}

const VERSION_ORDER = ["SSLv3", "TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"]

/** The verdict for the domain's web hosts. Pure and total. */
export const analyse = (input: WebTlsInput, now: Date): WebTlsResult => {
  const rated = input.scans.map((s) => analyseServer(s, now))
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
