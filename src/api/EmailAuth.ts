/**
 * Request and response schemas of the DMARC generator. The result schemas of the
 * email-authentication checks (DKIM, DMARC, BIMI, MTA-STS with TLS-RPT) live with the checks that
 * produce them and are imported by api/Email.ts. Imported by api/Email.ts.
 */
import { Schema } from "effect"
import { Strings } from "./Common.ts"
import { DmarcPolicy } from "../records/DmarcRecord.ts"

const Policy = DmarcPolicy

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
