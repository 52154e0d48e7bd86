/**
 * The result of the HTTPS transport check (`GET /web/tls`): per address of the domain and of its
 * `www.` host, the TLS versions accepted, the cipher suites accepted (in the server's order when it
 * keeps one), their key exchange, the certificate chain and OCSP stapling, each part rated by the
 * NCSC-NL TLS guidelines (records/TlsRating.ts).
 */
import { Schema } from "effect"
import { DateTime, Nullable, Strings } from "../../records/Schemas.ts"
import { CertificateInfo } from "../smtp-tls/SmtpTls.ts"
import { CipherResult, KeyExchangeResult, Rating, TlsVersionResult } from "../../kernel/TlsRatingSchemas.ts"
import { Status } from "../../kernel/Status.ts"

export {
  CipherResult,
  KeyExchangeResult,
  Rating,
  TlsVersionResult,
  VersionSupport
} from "../../kernel/TlsRatingSchemas.ts"

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
  negotiatedProtocol: Nullable(Schema.String),
  negotiatedCipher: Nullable(Schema.String),
  certificate: Nullable(CertificateInfo),
  chain: Schema.Array(CertificateInfo),
  signatureAlgorithm: Nullable(Schema.String),
  certificateRating: Nullable(Rating),
  trusted: Nullable(Schema.Boolean),
  trustError: Nullable(Schema.String),
  hostnameMatch: Nullable(Schema.Boolean),
  hostnameError: Nullable(Schema.String),
  expired: Nullable(Schema.Boolean),
  expiresAt: Nullable(DateTime),
  daysUntilExpiry: Nullable(Schema.Int),
  /** An OCSP response was stapled to the handshake (RFC 6066 8); informational, not scored. */
  ocspStapled: Nullable(Schema.Boolean),
  handshakes: Schema.Int,
  elapsedMs: Schema.Int,
  issues: Strings
}).annotations({ identifier: "WebTlsServer" })
export type WebTlsServer = typeof WebTlsServer.Type

export const WebTlsHost = Schema.Struct({
  host: Schema.String,
  /** `answer`: addresses found; `none`: the name has no A/AAAA; `unknown`: the lookup failed. */
  lookup: Schema.Literal("answer", "none", "unknown"),
  addresses: Strings
}).annotations({ identifier: "WebTlsHost" })

export const WebTlsResult = Schema.Struct({
  domain: Schema.String,
  checkedAt: DateTime,
  hosts: Schema.Array(WebTlsHost),
  servers: Schema.Array(WebTlsServer),
  summary: Schema.Struct({
    status: Status,
    /** The worst rating among the servers that answered; null when none did. */
    rating: Nullable(Rating),
    serversChecked: Schema.Int,
    serversReachable: Schema.Int,
    /** Versions some server accepts, oldest first. */
    versionsAccepted: Strings,
    /** Every reachable server's certificate is trusted, names the host and is within its dates. */
    allCertificatesValid: Nullable(Schema.Boolean)
  }),
  issues: Strings
}).annotations({ identifier: "WebTlsResult" })
export type WebTlsResult = typeof WebTlsResult.Type
