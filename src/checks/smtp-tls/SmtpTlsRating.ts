/**
 * The TLS configuration of an MX address as internet.nl's mail test judges it: the TLS scan
 * (net/SmtpTlsScan.ts: versions each probed, a sample of suites in the server's order, key
 * exchange, Extended Master Secret on TLS 1.2) rated part by part by the NCSC-NL TLS guidelines of
 * May 2025 (records/TlsRating.ts), with the
 * same fields and the same rating as the web's (web-tls). Pure: the scan comes in, fields go out.
 */
import { Schema } from "effect"
import type { TlsScanResult } from "../../net/TlsScan.ts"
import { Nullable } from "../../records/Schemas.ts"
import { acceptable } from "../../records/TlsRating.ts"
import { CipherResult, KeyExchangeResult, Rating, TlsVersionResult } from "../../kernel/TlsRatingSchemas.ts"
import { rateTlsServer as rateScan, statusOfRating } from "../../kernel/TlsServerRating.ts"
import type { CheckStatus } from "../../kernel/Status.ts"
import { NOT_ENUMERATED } from "../../kernel/Depth.ts"

/**
 * The fields the TLS scan adds to each server of the result (named as web-tls names them). Optional,
 * so a result stored before the scan existed still reads; every result made now carries them all.
 */
export const TlsScanFields = {
  /** The worst of versions, suites, key exchange and certificate key and signature; null: not scanned. */
  rating: Schema.optional(Nullable(Rating)),
  versions: Schema.optional(Schema.Array(TlsVersionResult)),
  versionsRating: Schema.optional(Nullable(Rating)),
  /** A sample: the server's first choices among the acceptable suites, then weak ones it accepts. */
  ciphers: Schema.optional(Schema.Array(CipherResult)),
  ciphersRating: Schema.optional(Nullable(Rating)),
  /** Every suite this client can offer was asked about (false for the sampled SMTP scan). */
  ciphersComplete: Schema.optional(Schema.Boolean),
  /** The server chooses by its own preference order (true) or the client's (false); null: not known. */
  serverCipherOrder: Schema.optional(Nullable(Schema.Boolean)),
  keyExchanges: Schema.optional(Schema.Array(KeyExchangeResult)),
  keyExchangeRating: Schema.optional(Nullable(Rating)),
  /** Extended Master Secret negotiated on TLS 1.2 (RFC 7627); null: TLS 1.2 refused or no answer. */
  extendedMasterSecret: Schema.optional(Nullable(Schema.Boolean)),
  /** good when negotiated, insufficient when not (NCSC-NL 2025 chapter 4); null: not applicable. */
  extendedMasterSecretRating: Schema.optional(Nullable(Rating)),
  /** An OCSP response was stapled after STARTTLS (RFC 6066 8); informational, not scored. */
  ocspStapled: Schema.optional(Nullable(Schema.Boolean)),
  /** Stapling where the certificate names an OCSP responder: good stapled, sufficient not; null without one. */
  ocspStaplingRating: Schema.optional(Nullable(Rating)),
  signatureAlgorithm: Schema.optional(Nullable(Schema.String)),
  certificateRating: Schema.optional(Nullable(Rating)),
  /** SMTP sessions the scan opened at this address (at most 16). */
  handshakes: Schema.optional(Schema.Int),
  /** Set when a shallow scan (kernel/Depth.ts) did not enumerate this server's TLS: nothing above was asked. */
  notChecked: Schema.optional(Schema.String)
}

export type TlsScanView = {
  -readonly [K in Exclude<keyof typeof TlsScanFields, "notChecked">]-?: Exclude<
    Schema.Schema.Type<(typeof TlsScanFields)[K]>,
    undefined
  >
} & { notChecked?: string }

const NOT_SCANNED: TlsScanView = {
  rating: null,
  versions: [],
  versionsRating: null,
  ciphers: [],
  ciphersRating: null,
  ciphersComplete: false,
  serverCipherOrder: null,
  keyExchanges: [],
  keyExchangeRating: null,
  extendedMasterSecret: null,
  extendedMasterSecretRating: null,
  ocspStapled: null,
  ocspStaplingRating: null,
  signatureAlgorithm: null,
  certificateRating: null,
  handshakes: 0
}

/**
 * The scan's fields, the issues it raises and the status it earns for the server at `where`
 * (`pass` when not scanned or not rated: the STARTTLS probe judges reachability on its own).
 */
export const rateMxTls = (
  scan: TlsScanResult | null,
  where: string,
  now: Date
): { readonly view: TlsScanView; readonly issues: ReadonlyArray<string>; readonly status: CheckStatus } => {
  if (scan === null) return { view: NOT_SCANNED, issues: [], status: "pass" }
  // Not asked at this depth: the STARTTLS probe judged the certificate; nothing more to rate.
  if (scan.enumerated === false)
    return { view: { ...NOT_SCANNED, notChecked: NOT_ENUMERATED }, issues: [], status: "pass" }
  const r = rateScan(scan, now)
  const view: TlsScanView = {
    rating: r.rating,
    versions: r.versions,
    versionsRating: r.versionsRating,
    ciphers: r.ciphers,
    ciphersRating: r.ciphersRating,
    ciphersComplete: r.ciphersComplete,
    serverCipherOrder: r.serverCipherOrder,
    keyExchanges: r.keyExchanges,
    keyExchangeRating: r.keyExchangeRating,
    extendedMasterSecret: r.extendedMasterSecret ?? null,
    extendedMasterSecretRating: r.extendedMasterSecretRating ?? null,
    ocspStapled: r.ocspStapled,
    ocspStaplingRating: r.ocspStaplingRating ?? null,
    signatureAlgorithm: r.signatureAlgorithm,
    certificateRating: r.certificateRating,
    handshakes: r.handshakes
  }
  const issues: Array<string> = []
  if (scan.status !== "complete" || r.rating === null)
    issues.push(`${where}: TLS versions and ciphers could not be probed (${scan.failure ?? "no handshake"})`)
  const old = r.versions
    .filter((v) => v.support === "accepted" && !acceptable(v.rating))
    .map((v) => v.version)
  if (old.length > 0) issues.push(`${where}: accepts ${old.join(", ")} (phase out: NCSC-NL, RFC 8996)`)
  const weak = r.ciphers.filter((c) => !acceptable(c.rating))
  if (weak.length > 0)
    issues.push(`${where}: accepts ${weak.map((c) => `${c.name} (${c.rating})`).join(", ")}`)
  const weakKx = r.keyExchanges.filter((k) => !acceptable(k.rating))
  if (weakKx.length > 0)
    issues.push(
      `${where}: key exchange ${weakKx.map((k) => `${k.name ?? k.type} ${k.bits} bits (${k.rating})`).join(", ")}`
    )
  if (r.extendedMasterSecret === false)
    issues.push(`${where}: TLS 1.2 without Extended Master Secret (RFC 7627; insufficient)`)
  if (r.certificateRating !== null && !acceptable(r.certificateRating))
    issues.push(
      `${where}: certificate key or signature rated ${r.certificateRating} (${r.signatureAlgorithm ?? "?"})`
    )
  return { view, issues, status: r.rating === null ? "pass" : statusOfRating(r.rating) }
}
