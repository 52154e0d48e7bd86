/**
 * The result of the HTTPS transport check (`GET /web/tls`): per address of the domain and of its
 * `www.` host, the TLS versions accepted, the cipher suites accepted (in the server's order when it
 * keeps one), their key exchange, the certificate chain and OCSP stapling, each part rated by the
 * NCSC-NL TLS guidelines of May 2025 (records/TlsRating.ts), which `guideline` names.
 */
import { Schema } from "effect"
import { DateTime, Nullable, Strings } from "../../records/Schemas.ts"
import { Rating, WebTlsServer } from "../../kernel/TlsRatingSchemas.ts"
import { Status } from "../../kernel/Status.ts"

export {
  CipherResult,
  KeyExchangeResult,
  Rating,
  TlsVersionResult,
  VersionSupport,
  WebTlsServer
} from "../../kernel/TlsRatingSchemas.ts"

export const WebTlsHost = Schema.Struct({
  host: Schema.String,
  /** `answer`: addresses found; `none`: the name has no A/AAAA; `unknown`: the lookup failed. */
  lookup: Schema.Literal("answer", "none", "unknown"),
  addresses: Strings
}).annotations({ identifier: "WebTlsHost" })

export const WebTlsResult = Schema.Struct({
  domain: Schema.String,
  checkedAt: DateTime,
  /** The guideline the ratings follow (`NCSC-NL TLS 2025-05`); absent in results stored before it was named. */
  guideline: Schema.optional(Schema.String),
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
