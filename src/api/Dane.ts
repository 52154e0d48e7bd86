/** DANE verification inside the TLSA result (src/checks/tlsa/Dane.ts): per host and summarised. */
import { Schema } from "effect"
import { Status, Strings } from "./Common.ts"

export const DaneHost = Schema.Struct({
  host: Schema.String,
  tlsaDomain: Schema.String,
  exists: Schema.Boolean,
  dnssecValidated: Schema.Boolean,
  records: Schema.Array(
    Schema.Struct({
      usage: Schema.Int,
      selector: Schema.Int,
      matchingType: Schema.Int,
      data: Schema.String,
      usageDescription: Schema.String,
      selectorDescription: Schema.String,
      matchingTypeDescription: Schema.String,
      usable: Schema.Boolean,
      note: Schema.NullOr(Schema.String),
      matchedBy: Strings
    })
  ),
  servers: Schema.Array(
    Schema.Struct({
      address: Schema.String,
      status: Status,
      matched: Schema.Boolean,
      matchedCertificate: Schema.NullOr(Schema.Int),
      reason: Schema.String
    })
  ),
  daneValid: Schema.Boolean,
  status: Status,
  issues: Strings
}).annotations({ identifier: "DaneHost" })

export const DaneSummary = Schema.Struct({
  status: Status,
  valid: Schema.Boolean,
  hostsWithTlsa: Schema.Int,
  hostsVerified: Schema.Int
}).annotations({ identifier: "DaneSummary" })
