/**
 * The result of the CAA check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { Nullable, Strings } from "../../records/Schemas.ts"
import { Status } from "../../kernel/Status.ts"
import { reportHead } from "../../kernel/ReportHead.ts"

export const CaaVerdicts = ["permitted", "forbidden", "no-caa", "unknown", "not-applicable"] as const

/**
 * One `issue`, `issuewild` or `issuemail` property of the set that governs a host, with its
 * parameters read (RFC 8659 §4.2; RFC 8657 `accounturi`, `validationmethods`; RFC 9495 `issuemail`,
 * which governs S/MIME certificates and is shown, not judged against TLS certificates).
 */
export const CaaProperty = Schema.Struct({
  tag: Schema.Literal("issue", "issuewild", "issuemail"),
  flags: Schema.Int,
  /** The issuer domain name; null when the value names none (`;`) or a malformed one. */
  issuer: Nullable(Schema.String),
  parameters: Schema.Array(Schema.Struct({ key: Schema.String, value: Schema.String })),
  /** RFC 8657 §3: issuance only for these ACME accounts (none listed: every one). */
  accountUris: Strings,
  /** RFC 8657 §4: issuance only after these validation methods (none listed: every one). */
  validationMethods: Strings,
  /** Syntax errors (RFC 8659 §4.2) and RFC 8657 errors; a CA reads a malformed value as naming no CA. */
  problems: Strings
}).annotations({ identifier: "CaaProperty" })
export type CaaProperty = typeof CaaProperty.Type

export const CaaCertificate = Schema.Struct({
  /** Where the certificate was served: the web site (https://<domain>/) or an MX address (STARTTLS). */
  service: Schema.Literal("web", "mx"),
  /** The name the certificate was asked for (the web host after redirects, or the MX host). */
  host: Schema.String,
  address: Nullable(Schema.String),
  issuer: Nullable(Schema.String),
  /** The CAA identifiers the issuer answers to (checks/caa/Issuers.ts, CAA_ISSUERS); [] when unknown. */
  caaIdentifiers: Strings,
  /** The certificate's name that covers `host`: the host itself or a wildcard (`*.example.com`). */
  coveredBy: Nullable(Schema.String),
  wildcard: Schema.Boolean,
  /** The name whose CAA records govern `host` (RFC 8659 §3); null when none up to the root. */
  caaAt: Nullable(Schema.String),
  caaRecords: Strings,
  /** The property that decided: `issue`, or `issuewild` for a wildcard certificate (RFC 8659 §4.3). */
  tag: Nullable(Schema.Literal("issue", "issuewild")),
  /** The issuer domain names that property permits. */
  permitted: Strings,
  /** The issuer properties of the governing set, parameters read (absent in scans stored before). */
  properties: Schema.optional(Schema.Array(CaaProperty)),
  verdict: Schema.Literal(...CaaVerdicts),
  status: Status,
  message: Schema.String
}).annotations({ identifier: "CaaCertificate" })
export type CaaCertificate = typeof CaaCertificate.Type

export const CaaReport = Schema.Struct({
  ...reportHead,
  result: Schema.Struct({
    status: Status,
    certificates: Schema.Array(CaaCertificate),
    issues: Strings,
    /** Each syntax error in a governing set's issuer properties, once, with where it is. */
    parameterProblems: Schema.optional(Strings)
  }),
  citationUrl: Schema.String
}).annotations({ identifier: "CaaReport" })
export type CaaReport = typeof CaaReport.Type
