/**
 * The rated parts of a TLS scan (net/TlsScan.ts) as results show them, shared by the HTTPS
 * (web-tls) and mail (smtp-tls) transport checks: each version, suite and key exchange with its
 * NCSC-NL rating (records/TlsRating.ts).
 */
import { Schema } from "effect"
import { DateTime, Nullable, Strings } from "../records/Schemas.ts"
import { TLS_RATINGS } from "../records/TlsRating.ts"
import { Status } from "./Status.ts"

export const Rating = Schema.Literal(...TLS_RATINGS).annotations({
  description:
    "NCSC-NL TLS guidelines (May 2025): good / sufficient (both pass) / phase-out (replace soon) / insufficient"
})

export const VersionSupport = Schema.Literal("accepted", "refused", "unknown", "untested").annotations({
  description:
    "accepted / refused by the server; unknown: no answer; untested: this client cannot speak it (SSL 3), which is not the same as refused"
})

export const TlsVersionResult = Schema.Struct({
  version: Schema.String,
  support: VersionSupport,
  rating: Rating
}).annotations({ identifier: "TlsVersionResult" })

export const KeyExchangeResult = Schema.Struct({
  /** `ECDH` (a curve or X25519/X448) or `DH` (a finite-field group). */
  type: Schema.Literal("ECDH", "DH"),
  name: Nullable(Schema.String),
  bits: Schema.Int,
  rating: Rating
}).annotations({ identifier: "KeyExchangeResult" })

export const CipherResult = Schema.Struct({
  /** IANA name (RFC 8446 B.4, the TLS parameters registry). */
  name: Schema.String,
  version: Schema.String,
  rating: Rating,
  keyExchange: Nullable(KeyExchangeResult)
}).annotations({ identifier: "CipherResult" })

/** A certificate's public facts (everything but the raw bytes). */
export const CertificateInfo = Schema.Struct({
  subject: Schema.String,
  commonName: Nullable(Schema.String),
  subjectAltNames: Strings,
  issuer: Schema.String,
  issuerCommonName: Nullable(Schema.String),
  serialNumber: Schema.String,
  validFrom: DateTime,
  validTo: DateTime,
  keyType: Schema.String,
  keySize: Nullable(Schema.Int),
  curve: Nullable(Schema.String),
  isCa: Schema.Boolean,
  selfIssued: Schema.Boolean,
  sha256: Schema.String,
  spkiSha256: Schema.String
}).annotations({ identifier: "CertificateInfo" })

/**
 * How the served certificate checked out, as the mail and web checks both report it: trusted by
 * the configured roots, naming the host (RFC 6125), within its validity period; null where no
 * certificate was read or the question could not be answered.
 */
export const CertificateVerdictFields = {
  trusted: Nullable(Schema.Boolean),
  trustError: Nullable(Schema.String),
  hostnameMatch: Nullable(Schema.Boolean),
  hostnameError: Nullable(Schema.String),
  expired: Nullable(Schema.Boolean),
  expiresAt: Nullable(DateTime),
  daysUntilExpiry: Nullable(Schema.Int)
}

/** One address of a host rated (the HTTPS transport check's server; the mail check rates its MX the same way). */
export const WebTlsServer = Schema.Struct({
  host: Schema.String,
  ip: Schema.String,
  family: Schema.Literal(4, 6),
  status: Status,
  reachable: Nullable(Schema.Boolean),
  error: Nullable(Schema.String),
  /** The worst of the parts below; null when nothing could be rated. */
  rating: Nullable(Rating),
  versions: Schema.Array(TlsVersionResult),
  versionsRating: Nullable(Rating),
  ciphers: Schema.Array(CipherResult),
  ciphersRating: Nullable(Rating),
  /** Every suite this client can offer was asked about; false when the probe stopped early. */
  ciphersComplete: Schema.Boolean,
  /** The server chooses by its own preference order (true) or the client's (false); null: not known. */
  serverCipherOrder: Nullable(Schema.Boolean),
  keyExchanges: Schema.Array(KeyExchangeResult),
  keyExchangeRating: Nullable(Rating),
  /**
   * The server agreed to Extended Master Secret on TLS 1.2 (RFC 7627); null when TLS 1.2 is refused
   * or the probe got no answer. Optional: results stored before it was asked still read.
   */
  extendedMasterSecret: Schema.optional(Nullable(Schema.Boolean)),
  /** good when negotiated, insufficient when not (NCSC-NL 2025 chapter 4); null: not applicable. */
  extendedMasterSecretRating: Schema.optional(Nullable(Rating)),
  negotiatedProtocol: Nullable(Schema.String),
  negotiatedCipher: Nullable(Schema.String),
  certificate: Nullable(CertificateInfo),
  chain: Schema.Array(CertificateInfo),
  signatureAlgorithm: Nullable(Schema.String),
  certificateRating: Nullable(Rating),
  ...CertificateVerdictFields,
  /** An OCSP response was stapled to the handshake (RFC 6066 8); informational, not scored. */
  ocspStapled: Nullable(Schema.Boolean),
  /** The certificate names an OCSP responder (RFC 5280 4.2.2.1): only then can a response be stapled. */
  ocspResponder: Schema.optional(Nullable(Schema.Boolean)),
  /**
   * Stapling where the certificate names a responder: good stapled, sufficient not (NCSC-NL 2025);
   * null without a responder. Shown, never part of `rating` nor scored.
   */
  ocspStaplingRating: Schema.optional(Nullable(Rating)),
  handshakes: Schema.Int,
  elapsedMs: Schema.Int,
  /**
   * Set when a shallow scan (kernel/Depth.ts) asked for the certificate only: the versions, suites
   * and key exchange are empty for not being asked, not for want of an answer, and `rating` is null.
   */
  notChecked: Schema.optional(Schema.String),
  issues: Strings
}).annotations({ identifier: "WebTlsServer" })
export type WebTlsServer = typeof WebTlsServer.Type
