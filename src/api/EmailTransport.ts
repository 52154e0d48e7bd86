/**
 * Response schemas of the mail-transport endpoints (SMTP TLS, FCrDNS, blocklists, sender
 * requirements): the spec's fields plus the inner details it leaves open, exactly as the checks
 * in src/checks/{SmtpTls,Fcrdns,Blocklist,SenderRequirements}.ts produce them.
 */
import { Schema } from "effect"
import { DateTime, Status, Strings } from "./Common.ts"

const Nullable = Schema.NullOr

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

export const SmtpServer = Schema.Struct({
  host: Schema.String,
  ip: Schema.String,
  family: Schema.Literal(4, 6),
  priority: Nullable(Schema.Int),
  status: Status,
  reachable: Nullable(Schema.Boolean),
  stalledStage: Nullable(Schema.String),
  error: Nullable(Schema.String),
  banner: Nullable(Schema.String),
  extensions: Strings,
  starttls: Nullable(Schema.Boolean),
  tlsVersion: Nullable(Schema.String),
  cipher: Nullable(Schema.String),
  certificate: Nullable(CertificateInfo),
  chain: Schema.Array(CertificateInfo),
  trusted: Nullable(Schema.Boolean),
  trustError: Nullable(Schema.String),
  hostnameMatch: Nullable(Schema.Boolean),
  hostnameError: Nullable(Schema.String),
  expired: Nullable(Schema.Boolean),
  expiresAt: Nullable(DateTime),
  daysUntilExpiry: Nullable(Schema.Int),
  certificateValid: Nullable(Schema.Boolean),
  fcrdns: Nullable(Schema.Struct({ ptr: Strings, confirmed: Nullable(Schema.Boolean) })),
  elapsedMs: Schema.Int,
  issues: Strings
}).annotations({ identifier: "SmtpServer" })

export const SmtpTlsResult = Schema.Struct({
  domain: Schema.String,
  checkedAt: DateTime,
  mxRecords: Schema.Array(Schema.Struct({ priority: Schema.Int, host: Schema.String })),
  servers: Schema.Array(SmtpServer),
  summary: Schema.Struct({
    status: Status,
    starttls: Schema.Literal("all", "some", "none", "unknown"),
    allSupportStarttls: Schema.Boolean,
    serversChecked: Schema.Int,
    serversReachable: Schema.Int,
    serversWithStarttls: Schema.Int,
    allCertificatesValid: Nullable(Schema.Boolean),
    earliestExpiry: Nullable(DateTime),
    earliestExpiryDays: Nullable(Schema.Int)
  }),
  issues: Strings
})

export const FcrdnsResult = Schema.Struct({
  domain: Schema.String,
  timestamp: DateTime,
  check: Schema.String,
  description: Schema.String,
  result: Schema.Struct({
    checked: Schema.Boolean,
    status: Status,
    results: Schema.Array(
      Schema.Struct({
        hostname: Schema.String,
        ip: Schema.String,
        ptrRecords: Strings,
        confirmedName: Nullable(Schema.String),
        forwardConfirmed: Nullable(Schema.Boolean),
        matchesMxHost: Schema.Boolean,
        genericName: Schema.Boolean,
        status: Status,
        message: Schema.String
      })
    ),
    issues: Strings
  }),
  citationUrl: Schema.String,
  apiUrl: Schema.String
})

const Requirement = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  status: Status,
  googleRequired: Schema.Boolean,
  yahooRequired: Schema.Boolean,
  microsoftRequired: Schema.Boolean,
  description: Schema.String,
  detail: Schema.String,
  reference: Schema.String
})

const ProviderSummary = Schema.Struct({
  status: Schema.Literal("compliant", "non-compliant", "partial", "unknown"),
  required: Schema.Int,
  passed: Schema.Int,
  failed: Schema.Int
})

export const SenderRequirementsResult = Schema.Struct({
  domain: Schema.String,
  overallStatus: Schema.Literal("compliant", "non-compliant", "partial", "unknown", "not-applicable"),
  passedCount: Schema.Int,
  failedCount: Schema.Int,
  checks: Schema.Array(Requirement),
  summary: Schema.Struct({
    google: ProviderSummary,
    yahoo: ProviderSummary,
    microsoft: ProviderSummary,
    warningCount: Schema.Int,
    unknownCount: Schema.Int,
    notApplicableCount: Schema.Int,
    note: Schema.String
  })
})

export const BlacklistResult = Schema.Struct({
  domain: Schema.String,
  checkedAt: DateTime,
  status: Status,
  mailServers: Schema.Array(
    Schema.Struct({
      hostname: Schema.String,
      ip: Schema.String,
      status: Status,
      blacklistResult: Schema.Struct({
        listed: Schema.Boolean,
        status: Schema.Literal("listed", "clean", "unknown"),
        blacklists: Schema.Array(
          Schema.Struct({
            name: Schema.String,
            zone: Schema.String,
            severity: Schema.Literal("high", "medium", "low"),
            listed: Schema.Boolean,
            status: Schema.Literal("listed", "clean", "unknown"),
            codes: Strings,
            meaning: Nullable(Schema.String),
            query: Nullable(Schema.String)
          })
        )
      })
    })
  ),
  summary: Schema.Struct({
    serversChecked: Schema.Int,
    listedServers: Schema.Int,
    unknownLookups: Schema.Int,
    zones: Strings
  }),
  issues: Strings
})
