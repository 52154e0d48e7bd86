/**
 * Response and request schemas of the email-authentication endpoints: DKIM, DMARC, BIMI, MTA-STS
 * (with TLS-RPT) and the DMARC generator. The spec's fields are exact; the extras (status,
 * findings, positions, report destinations, certificate and policy details) are documented here.
 * Imported by api/Email.ts.
 */
import { Schema } from "effect"
import { Status, Strings } from "./Common.ts"

const Nullable = Schema.NullOr
const Policy = Schema.Literal("none", "quarantine", "reject")

// ---------------------------------------------------------------- DKIM

export const DkimSelector = Schema.Struct({
  selector: Schema.String,
  name: Schema.String,
  record: Schema.String,
  valid: Schema.Boolean,
  keyType: Schema.String,
  /** Bits measured from the key material; null when it does not decode (or is revoked). */
  keyLength: Nullable(Schema.Int),
  revoked: Schema.Boolean,
  testing: Schema.Boolean,
  status: Schema.Literal("pass", "warning", "fail", "revoked"),
  provider: Nullable(Schema.String),
  requested: Schema.Boolean,
  hashAlgorithms: Nullable(Strings),
  errors: Strings,
  warnings: Strings,
  otherRecords: Strings
})

/** The union of DKIM shapes A and B, plus discovery details. */
export const DkimResult = Schema.Struct({
  domain: Schema.String,
  status: Status,
  selectors_found: Strings,
  valid_keys: Schema.Int,
  selectorsChecked: Strings,
  selectorsFound: Schema.Array(DkimSelector),
  hasDkim: Schema.Boolean,
  issues: Strings,
  warnings: Strings,
  discovery: Schema.Literal("found", "not-found", "unknown"),
  failedSelectors: Schema.Array(Schema.Struct({ selector: Schema.String, error: Schema.String })),
  note: Schema.String
})

// ---------------------------------------------------------------- DMARC

export const DmarcResult = Schema.Struct({
  domain: Schema.String,
  status: Status,
  exists: Schema.Boolean,
  valid: Schema.Boolean,
  /** Absent when no record applies. */
  record: Schema.optional(Schema.String),
  policy: Schema.optional(Policy),
  subdomainPolicy: Schema.optional(Policy),
  nonExistentSubdomainPolicy: Schema.optional(Policy),
  effectivePolicy: Schema.optional(Policy),
  pct: Schema.optional(Schema.Int),
  percentage: Schema.optional(Schema.Int),
  reportingEnabled: Schema.Boolean,
  rua: Strings,
  ruf: Strings,
  adkim: Schema.optional(Schema.Literal("relaxed", "strict")),
  aspf: Schema.optional(Schema.Literal("relaxed", "strict")),
  failureOptions: Schema.optional(Strings),
  testing: Schema.optional(Schema.Boolean),
  issues: Strings,
  warnings: Strings,
  findings: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      severity: Schema.Literal("error", "warning", "info"),
      message: Schema.String
    })
  ),
  /** Syntax errors; `position` is the 0-based character offset in the record. */
  errors: Schema.Array(
    Schema.Struct({ position: Schema.Int, tag: Nullable(Schema.String), message: Schema.String })
  ),
  tags: Schema.Array(Schema.Struct({ name: Schema.String, value: Schema.String, position: Schema.Int })),
  source: Nullable(Schema.String),
  inherited: Schema.Boolean,
  organisationalDomain: Schema.String,
  reportDestinations: Schema.Array(
    Schema.Struct({
      kind: Schema.Literal("rua", "ruf"),
      uri: Schema.String,
      domain: Nullable(Schema.String),
      external: Schema.Boolean,
      authorised: Nullable(Schema.Boolean),
      verificationName: Nullable(Schema.String),
      maxBytes: Nullable(Schema.Number)
    })
  )
})

// ---------------------------------------------------------------- BIMI

const SvgCheck = Schema.Struct({
  isSvg: Schema.Boolean,
  baseProfile: Nullable(Schema.String),
  version: Nullable(Schema.String),
  title: Nullable(Schema.String),
  hasDescription: Schema.Boolean,
  viewBox: Nullable(Schema.String),
  square: Nullable(Schema.Boolean),
  scripts: Schema.Int,
  animations: Schema.Int,
  externalReferences: Strings,
  forbiddenElements: Strings,
  eventAttributes: Strings,
  tinyPs: Schema.Boolean,
  errors: Strings,
  warnings: Strings
})

const BimiLogo = Schema.Struct({
  url: Schema.String,
  reachable: Schema.Boolean,
  httpStatus: Nullable(Schema.Int),
  contentType: Nullable(Schema.String),
  contentTypeOk: Schema.Boolean,
  size: Nullable(Schema.Int),
  maxSize: Schema.Int,
  sizeOk: Schema.Boolean,
  svg: Nullable(SvgCheck),
  valid: Schema.Boolean,
  error: Nullable(Schema.String)
})

const BimiAuthority = Schema.Struct({
  url: Schema.String,
  reachable: Schema.Boolean,
  httpStatus: Nullable(Schema.Int),
  contentType: Nullable(Schema.String),
  size: Nullable(Schema.Int),
  valid: Schema.Boolean,
  error: Nullable(Schema.String),
  parsed: Schema.optional(Schema.Boolean),
  certificates: Schema.optional(
    Schema.Array(
      Schema.Struct({
        subject: Schema.String,
        issuer: Schema.String,
        serialNumber: Schema.String,
        notBefore: Schema.String,
        notAfter: Schema.String
      })
    )
  ),
  type: Schema.optional(Schema.Literal("VMC", "CMC", "unknown")),
  markType: Schema.optional(Nullable(Schema.String)),
  san: Schema.optional(Strings),
  sanCoversDomain: Schema.optional(Schema.Boolean),
  validNow: Schema.optional(Schema.Boolean),
  notAfter: Schema.optional(Nullable(Schema.String)),
  daysUntilExpiry: Schema.optional(Nullable(Schema.Int)),
  bimiExtendedKeyUsage: Schema.optional(Schema.Boolean),
  logotypePresent: Schema.optional(Schema.Boolean),
  logotypeMatchesLogo: Schema.optional(Nullable(Schema.Boolean)),
  chainLinked: Schema.optional(Schema.Boolean),
  chainLength: Schema.optional(Schema.Int),
  /** Always false: trademark ownership is not judged. */
  trademarkVerified: Schema.optional(Schema.Literal(false)),
  errors: Schema.optional(Strings),
  warnings: Schema.optional(Strings)
})

export const BimiResult = Schema.Struct({
  domain: Schema.String,
  status: Status,
  exists: Schema.Boolean,
  record: Nullable(Schema.String),
  valid: Schema.Boolean,
  logoUrl: Nullable(Schema.String),
  authorityUrl: Nullable(Schema.String),
  logo: Nullable(BimiLogo),
  authority: Nullable(BimiAuthority),
  issues: Strings,
  warnings: Strings,
  declined: Schema.Boolean,
  source: Nullable(Schema.String),
  inherited: Schema.Boolean,
  dmarc: Nullable(
    Schema.Struct({
      policy: Nullable(Schema.String),
      pct: Nullable(Schema.Int),
      eligible: Nullable(Schema.Boolean)
    })
  ),
  trademarkNote: Schema.String
})

// ---------------------------------------------------------------- MTA-STS and TLS-RPT

export const TlsRptResult = Schema.Struct({
  status: Status,
  exists: Schema.Boolean,
  record: Nullable(Schema.String),
  valid: Schema.Boolean,
  rua: Strings,
  issues: Strings
})

export const MtaStsResult = Schema.Struct({
  domain: Schema.String,
  status: Status,
  exists: Schema.Boolean,
  record: Nullable(Schema.String),
  policyId: Nullable(Schema.String),
  policy: Nullable(
    Schema.Struct({
      version: Nullable(Schema.String),
      mode: Nullable(Schema.Literal("enforce", "testing", "none")),
      maxAge: Nullable(Schema.Int),
      mx: Strings,
      errors: Strings,
      warnings: Strings,
      raw: Schema.String
    })
  ),
  policyUrl: Schema.String,
  valid: Schema.Boolean,
  issues: Strings,
  warnings: Strings,
  fetch: Nullable(
    Schema.Struct({
      reachable: Schema.Boolean,
      httpStatus: Nullable(Schema.Int),
      contentType: Nullable(Schema.String),
      size: Nullable(Schema.Int),
      tlsAuthorized: Nullable(Schema.Boolean),
      tlsError: Nullable(Schema.String),
      error: Nullable(Schema.String)
    })
  ),
  mx: Schema.Struct({
    hosts: Strings,
    nullMx: Schema.Boolean,
    coverage: Schema.Array(Schema.Struct({ host: Schema.String, matchedBy: Nullable(Schema.String) })),
    allCovered: Nullable(Schema.Boolean),
    error: Nullable(Schema.String)
  }),
  tlsRpt: TlsRptResult
})

// ---------------------------------------------------------------- DMARC generator

/**
 * Loose on purpose: the generator validates and answers 400 with a precise reason. The spec's
 * inputs only (no domain: the generator's `domain` option, which names the DNS entry and the
 * RFC 7489 7.1 authorisations external destinations need, is for library callers).
 */
export const DmarcGenerateFields = {
  policy: Schema.String,
  rua: Schema.optional(Schema.Union(Schema.String, Strings)),
  ruf: Schema.optional(Schema.Union(Schema.String, Strings)),
  sp: Schema.optional(Schema.String),
  subdomainPolicy: Schema.optional(Schema.String),
  np: Schema.optional(Schema.String),
  pct: Schema.optional(Schema.Number),
  percentage: Schema.optional(Schema.Number),
  adkim: Schema.optional(Schema.String),
  aspf: Schema.optional(Schema.String),
  fo: Schema.optional(Schema.String),
  rf: Schema.optional(Schema.String),
  ri: Schema.optional(Schema.Number)
}

const Step = Schema.Struct({ step: Schema.Int, policy: Policy, record: Schema.String, advice: Schema.String })

export const DmarcGenerateResponse = Schema.Struct({
  record: Schema.String,
  config: Schema.Struct({
    p: Policy,
    sp: Schema.optional(Policy),
    np: Schema.optional(Policy),
    pct: Schema.optional(Schema.Int),
    rua: Strings,
    ruf: Strings,
    adkim: Schema.optional(Schema.Literal("r", "s")),
    aspf: Schema.optional(Schema.Literal("r", "s")),
    fo: Schema.optional(Strings),
    rf: Schema.optional(Strings),
    ri: Schema.optional(Schema.Int)
  }),
  dnsEntry: Schema.Struct({
    name: Schema.String,
    type: Schema.Literal("TXT"),
    ttl: Schema.Int,
    value: Schema.String,
    strings: Strings,
    zoneLine: Schema.String
  }),
  warnings: Strings,
  rollout: Schema.Array(Step),
  requiredAuthorisations: Schema.Array(
    Schema.Struct({ name: Schema.String, type: Schema.Literal("TXT"), value: Schema.String })
  )
})
