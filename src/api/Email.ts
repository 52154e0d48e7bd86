/** The email group: SPF, DKIM, DMARC, BIMI, MTA-STS, transport checks and the record generators. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { DateTime, Open, Strings } from "./Common.ts"
import { Domain, DomainQuery } from "./Domain.ts"
import { BadRequest } from "./Errors.ts"

const Nullable = Schema.NullOr

export const SpfResult = Schema.Struct({
  exists: Schema.Boolean,
  record: Schema.String,
  valid: Schema.Boolean,
  policy: Schema.String,
  mechanisms: Strings,
  includes: Strings,
  lookups: Schema.Int,
  lookupGraph: Open,
  flattened: Open,
  warnings: Strings,
  issues: Strings
})

/** The union of DKIM shapes A and B. */
export const DkimResult = Schema.Struct({
  selectors_found: Strings,
  valid_keys: Schema.Int,
  selectorsChecked: Strings,
  selectorsFound: Schema.Array(
    Schema.Struct({
      selector: Schema.String,
      record: Schema.String,
      valid: Schema.Boolean,
      keyType: Schema.String,
      keyLength: Schema.Int
    })
  ),
  hasDkim: Schema.Boolean,
  issues: Schema.Array(Schema.Unknown)
})

export const DmarcResult = Schema.Struct({
  exists: Schema.Boolean,
  valid: Schema.Boolean,
  record: Schema.String,
  policy: Schema.Literal("none", "quarantine", "reject"),
  subdomainPolicy: Schema.String,
  pct: Schema.Int,
  percentage: Schema.Int,
  reportingEnabled: Schema.Boolean,
  rua: Strings,
  ruf: Strings,
  issues: Schema.Array(Schema.Unknown)
})

export const BimiResult = Schema.Struct({
  exists: Schema.Boolean,
  record: Nullable(Schema.String),
  valid: Schema.Boolean,
  logoUrl: Nullable(Schema.String),
  authorityUrl: Nullable(Schema.String),
  logo: Open,
  authority: Open,
  issues: Strings
})

export const MtaStsResult = Schema.Struct({
  exists: Schema.Boolean,
  record: Nullable(Schema.String),
  policyId: Nullable(Schema.String),
  policy: Nullable(Open),
  policyUrl: Schema.String,
  valid: Schema.Boolean,
  issues: Strings
})

export const EmailCheckResult = Schema.Struct({
  success: Schema.Boolean,
  domain: Schema.String,
  spf: SpfResult,
  dkim: DkimResult,
  dmarc: DmarcResult,
  mx: Schema.Struct({ records: Schema.Array(Schema.Struct({ priority: Schema.Int, host: Schema.String })) }),
  score: Schema.Int
})

export const SmtpTlsResult = Schema.Struct({
  domain: Schema.String,
  checkedAt: DateTime,
  mxRecords: Schema.Array(Open),
  servers: Schema.Array(Open),
  summary: Open,
  issues: Strings
})

export const FcrdnsResult = Schema.Struct({
  domain: Schema.String,
  timestamp: DateTime,
  check: Schema.String,
  description: Schema.String,
  result: Schema.Struct({ checked: Schema.Boolean, results: Schema.Array(Open), issues: Strings }),
  citationUrl: Schema.String,
  apiUrl: Schema.String
})

export const SenderRequirementsResult = Schema.Struct({
  domain: Schema.String,
  overallStatus: Schema.String,
  passedCount: Schema.Int,
  failedCount: Schema.Int,
  checks: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      name: Schema.String,
      status: Schema.String,
      googleRequired: Schema.Boolean,
      yahooRequired: Schema.Boolean
    })
  ),
  summary: Open
})

export const BlacklistResult = Schema.Struct({
  domain: Schema.String,
  mailServers: Schema.Array(
    Schema.Struct({
      hostname: Schema.String,
      ip: Schema.String,
      blacklistResult: Schema.Struct({
        listed: Schema.Boolean,
        blacklists: Schema.Array(
          Schema.Struct({ name: Schema.String, severity: Schema.String, listed: Schema.Boolean })
        )
      })
    })
  )
})

export const SpfGenerateRequest = Schema.Struct({
  mechanisms: Schema.Array(Schema.Struct({ type: Schema.String, value: Schema.String })).pipe(
    Schema.maxItems(100)
  ),
  useA: Schema.optional(Schema.Boolean),
  useMx: Schema.optional(Schema.Boolean),
  policy: Schema.optional(Schema.String)
})

export const DmarcGenerateRequest = Schema.Struct({
  policy: Schema.Literal("none", "quarantine", "reject"),
  rua: Schema.optional(Schema.String),
  subdomainPolicy: Schema.optional(Schema.Literal("none", "quarantine", "reject")),
  ruf: Schema.optional(Schema.String),
  pct: Schema.optional(Schema.Int),
  adkim: Schema.optional(Schema.Literal("r", "s")),
  aspf: Schema.optional(Schema.Literal("r", "s")),
  fo: Schema.optional(Schema.String),
  rf: Schema.optional(Schema.String),
  ri: Schema.optional(Schema.Int)
})

const get = <const Name extends string, A, I>(name: Name, path: `/${string}`, success: Schema.Schema<A, I>) =>
  HttpApiEndpoint.get(name, path).setUrlParams(DomainQuery).addSuccess(success).addError(BadRequest)

export class EmailApi extends HttpApiGroup.make("email")
  .add(get("check", "/email/check", EmailCheckResult))
  .add(get("spf", "/email/spf", SpfResult))
  .add(
    HttpApiEndpoint.get("dkim", "/email/dkim")
      .setUrlParams(Schema.Struct({ domain: Domain, selector: Schema.optional(Schema.Array(Schema.String)) }))
      .addSuccess(DkimResult)
      .addError(BadRequest)
  )
  .add(get("dmarc", "/email/dmarc", DmarcResult))
  .add(
    HttpApiEndpoint.get("bimi", "/email/bimi")
      .setUrlParams(
        Schema.Struct({ domain: Domain, format: Schema.optional(Schema.Literal("json", "html")) })
      )
      .addSuccess(BimiResult)
      .addError(BadRequest)
  )
  .add(get("mtaSts", "/email/mta-sts", MtaStsResult))
  .add(get("smtpTls", "/email/smtp-tls", SmtpTlsResult))
  .add(get("fcrdns", "/email/fcrdns", FcrdnsResult))
  .add(get("blacklist", "/email/blacklist", BlacklistResult))
  .add(get("senderRequirements", "/email/sender-requirements", SenderRequirementsResult))
  .add(
    HttpApiEndpoint.post("spfGenerate", "/email/spf/generate")
      .setPayload(SpfGenerateRequest)
      .addSuccess(Open)
      .addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.post("dmarcGenerate", "/email/dmarc/generate")
      .setPayload(DmarcGenerateRequest)
      .addSuccess(Open)
      .addError(BadRequest)
  ) {}
