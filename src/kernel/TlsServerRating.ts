/**
 * One TLS server rated part by part with the NCSC-NL TLS guidelines of May 2025
 * (records/TlsRating.ts): the versions, suites and key exchanges a TLS scan (net/TlsScan.ts) found,
 * Extended Master Secret on TLS 1.2, and the certificate; the server as good as its worst part.
 * OCSP stapling is shown and rated apart, never in the server's rating (`ocspStaplingRating`).
 * Shared by the HTTPS (web-tls) and mail (smtp-tls) transport checks, so it sits below both. A
 * server that could not be reached is unknown, never rated; a version this client cannot speak
 * (SSL 3) is untested, never "refused".
 */
import { publicFacts } from "../net/Certificate.ts"
import type { PeerJudged } from "../net/TlsPeer.ts"
import type { KeyExchangeFacts, TlsScanResult } from "../net/TlsScan.ts"
import {
  acceptable,
  rateCertificateKey,
  rateCipher,
  rateExtendedMasterSecret,
  rateKeyExchange,
  rateSignature,
  rateVersion,
  type TlsRating,
  worst
} from "../records/TlsRating.ts"
import { type CheckStatus, worstOf } from "./Status.ts"
import { NOT_ENUMERATED } from "./Depth.ts"
import type { WebTlsServer } from "./TlsRatingSchemas.ts"

/**
 * The chain the peer presented as a result shows it (leaf first), its leaf, and whether the leaf is
 * outside its validity period at `now` (RFC 5280 4.1.2.5); null where no certificate was presented.
 */
export const presented = (peer: PeerJudged | null | undefined, now: Date) => {
  const chain = (peer?.chain ?? []).map(publicFacts)
  const leaf = chain[0] ?? null
  const expired = leaf
    ? Date.parse(leaf.validTo) < now.getTime() || Date.parse(leaf.validFrom) > now.getTime()
    : null
  return { chain, leaf, expired }
}

/**
 * Whether the peer's certificate is trusted and covers the name asked for, each with why not, as
 * a server's result shows it (a web server's, a mail server's); null where no TLS session was had.
 */
export const trustShown = (peer: PeerJudged | null | undefined) => ({
  trusted: peer ? peer.trusted : null,
  trustError: peer?.trustError ?? null,
  hostnameMatch: peer ? peer.hostnameMatch : null,
  hostnameError: peer?.hostnameError ?? null
})

/** The status a rating earns: good and sufficient pass, phase-out warns, insufficient fails. */
export const statusOfRating = (rating: TlsRating): CheckStatus =>
  acceptable(rating) ? "pass" : rating === "phase-out" ? "warning" : "fail"

const keyExchange = (kx: KeyExchangeFacts) => ({
  type: kx.type,
  name: kx.name,
  bits: kx.size,
  rating: rateKeyExchange(kx)
})

/**
 * OCSP stapling (RFC 6066 8; NCSC-NL 2025 rates it on good, off sufficient): judged only where the
 * certificate names an OCSP responder, since there is nothing to staple otherwise (CAs such as
 * Let's Encrypt issue certificates without one since 2025, relying on CRLs). Null: no responder
 * named, no certificate, or a scan made before the responder was recorded.
 */
export const rateOcspStapling = (
  stapled: boolean | null,
  responder: boolean | undefined
): TlsRating | null => (responder !== true || stapled === null ? null : stapled ? "good" : "sufficient")

/** The worst of some ratings; null when there are none. */
export const worstOrNull = (ratings: ReadonlyArray<TlsRating>): TlsRating | null =>
  ratings.length === 0 ? null : worst(ratings)

const list = (items: ReadonlyArray<string>) => items.join(", ")

/** The verdict for one address of a web host. Total for any scan. */
export const rateTlsServer = (scan: TlsScanResult, now: Date): WebTlsServer => {
  const where = `${scan.host} (${scan.address})`
  const issues: Array<string> = []
  // A certificate-only scan (a shallow scan, kernel/Depth.ts) asked about no version.
  const enumerated = scan.enumerated !== false
  const versions = enumerated
    ? [
        { version: "SSLv3", support: "untested" as const, rating: rateVersion("SSLv3") },
        ...Object.entries(scan.versions).map(([version, support]) => ({
          version,
          support,
          rating: rateVersion(version)
        }))
      ]
    : []
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
  const { chain, leaf, expired } = presented(cert, now)
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
  const extendedMasterSecret = enumerated ? (scan.extendedMasterSecret ?? null) : null
  const extendedMasterSecretRating = rateExtendedMasterSecret(extendedMasterSecret)
  const parts = [
    versionsRating,
    ciphersRating,
    keyExchangeRating,
    extendedMasterSecretRating,
    certificateRating
  ].filter((r): r is TlsRating => r !== null)
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
  } else if (!enumerated) {
    const problems =
      scan.negotiated === null
        ? [`refused the TLS handshake (${scan.failure ?? "no shared version or suite"})`]
        : certificateProblemsOf(scan, leaf, expired)
    for (const p of problems) issues.push(`${where}: ${p}`)
    status = problems.length > 0 ? "fail" : "pass"
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
    if (extendedMasterSecret === false)
      issues.push(`${where}: TLS 1.2 without Extended Master Secret (RFC 7627; insufficient)`)
    if (certificateRating !== null && !acceptable(certificateRating))
      issues.push(
        `${where}: certificate ${leaf!.keyType.toUpperCase()} ${leaf!.keySize ?? "?"} bits signed ${cert?.signatureAlgorithm ?? "?"} (${certificateRating})`
      )
    const certificateProblems = certificateProblemsOf(scan, leaf, expired)
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
    extendedMasterSecret,
    extendedMasterSecretRating,
    negotiatedProtocol: scan.negotiated?.protocol ?? null,
    negotiatedCipher: scan.negotiated?.cipher ?? null,
    certificate: leaf,
    chain,
    signatureAlgorithm: cert?.signatureAlgorithm ?? null,
    certificateRating,
    ...trustShown(cert),
    expired,
    expiresAt: leaf?.validTo ?? null,
    daysUntilExpiry: leaf ? Math.floor((Date.parse(leaf.validTo) - now.getTime()) / 86_400_000) : null,
    ocspStapled: scan.ocspStapled,
    ocspResponder: cert?.ocspResponder ?? null,
    ocspStaplingRating: rateOcspStapling(scan.ocspStapled, cert?.ocspResponder),
    handshakes: scan.handshakes,
    elapsedMs: Math.max(0, Math.round(scan.elapsedMs)),
    ...(enumerated ? {} : { notChecked: NOT_ENUMERATED }),
    issues
  }
}

/** What is wrong with the certificate a scan's ordinary handshake was shown. */
const certificateProblemsOf = (
  scan: TlsScanResult,
  leaf: ReturnType<typeof publicFacts> | null,
  expired: boolean | null
): ReadonlyArray<string> => {
  const cert = scan.certificate
  return [
    ...(leaf === null ? ["presented no certificate"] : []),
    ...(cert && !cert.trusted ? [`certificate not trusted (${cert.trustError ?? "unknown reason"})`] : []),
    ...(cert && !cert.hostnameMatch ? [`certificate does not cover ${scan.host}`] : []),
    ...(expired && leaf ? [`certificate expired on ${leaf.validTo.slice(0, 10)}`] : [])
  ]
}
