/**
 * The result of the SMTP TLS check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { DateTime, Nullable, Strings } from "../../records/Schemas.ts"
import { IMPLICIT_DESCRIPTION, MX_STATUSES } from "../../kernel/MailServers.ts"
import { Status } from "../../kernel/Status.ts"
import { CertificateInfo, CertificateVerdictFields } from "../../kernel/TlsRatingSchemas.ts"

export { CertificateInfo } from "../../kernel/TlsRatingSchemas.ts"
import { TlsScanFields } from "./SmtpTlsRating.ts"

export const MxRecord = Schema.Struct({ priority: Schema.Int, host: Schema.String })
export type MxRecord = typeof MxRecord.Type

export const ReverseDns = Schema.Struct({ ptr: Strings, confirmed: Nullable(Schema.Boolean) })

export const SmtpServer = Schema.Struct({
  host: Schema.String,
  ip: Schema.String,
  family: Schema.Literal(4, 6),
  priority: Nullable(Schema.Int),
  /**
   * No MX record names this host: the domain has none, so mail goes to the domain's own A/AAAA
   * (RFC 5321 5.1, the implicit MX at preference 0).
   */
  implicit: Schema.Boolean.annotations({ description: IMPLICIT_DESCRIPTION }),
  status: Status,
  reachable: Nullable(Schema.Boolean),
  stalledStage: Nullable(Schema.String),
  error: Nullable(Schema.String),
  banner: Nullable(Schema.String),
  extensions: Strings,
  /** Offered STARTTLS; null when the session never got that far. */
  starttls: Nullable(Schema.Boolean),
  tlsVersion: Nullable(Schema.String),
  cipher: Nullable(Schema.String),
  certificate: Nullable(CertificateInfo),
  chain: Schema.Array(CertificateInfo),
  ...CertificateVerdictFields,
  /** Trusted, name matches, within its validity period. */
  certificateValid: Nullable(Schema.Boolean),
  fcrdns: Nullable(ReverseDns),
  elapsedMs: Schema.Int,
  /** The TLS scan (versions each probed, sampled suites), NCSC-NL rated: SmtpTlsRating.ts. */
  ...TlsScanFields,
  issues: Strings
}).annotations({ identifier: "SmtpServer" })

export type ServerResult = typeof SmtpServer.Type

export const SmtpTlsResult = Schema.Struct({
  domain: Schema.String,
  checkedAt: DateTime,
  /**
   * The guideline the MX TLS ratings follow (`NCSC-NL TLS 2025-05`, records/TlsRating.ts); absent
   * in results stored before it was named.
   */
  guideline: Schema.optional(Schema.String),
  /**
   * `answer`: MX records; `implicit`: no MX, the domain's own A/AAAA receives mail (RFC 5321 5.1);
   * `none`: no MX and no address; `null-mx`: RFC 7505; `unknown`: the MX lookup failed.
   */
  mxStatus: Schema.Literal(...MX_STATUSES).annotations({
    description:
      "answer: MX records; implicit: no MX, the domain's own A/AAAA receives mail (RFC 5321 5.1); none: no MX and no address; null-mx: RFC 7505; unknown: the MX lookup failed"
  }),
  mxRecords: Schema.Array(MxRecord),
  servers: Schema.Array(SmtpServer),
  summary: Schema.Struct({
    status: Status,
    /** all / some / none of the reachable servers offer STARTTLS; unknown when none answered. */
    starttls: Schema.Literal("all", "some", "none", "unknown"),
    allSupportStarttls: Schema.Boolean,
    serversChecked: Schema.Int,
    serversReachable: Schema.Int,
    serversWithStarttls: Schema.Int,
    allCertificatesValid: Nullable(Schema.Boolean),
    earliestExpiry: Nullable(DateTime),
    earliestExpiryDays: Nullable(Schema.Int),
    /**
     * With no MX, the implicit MX could not be connected to on any address: `refused` (nothing
     * accepts port 25, or no public address: the domain receives no mail), `unreachable` (timeout or
     * network error);
     * null otherwise. The score treats both as "no mail server", not as a broken one.
     */
    implicitMxSilent: Nullable(Schema.Literal("refused", "unreachable")).annotations({
      description:
        "with no MX: the implicit MX refused port 25 or is not a public address on every address (refused), or could not be connected to (unreachable); null otherwise"
    })
  }),
  issues: Strings
})
export type SmtpTlsResult = typeof SmtpTlsResult.Type
