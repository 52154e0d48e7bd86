/**
 * The fields a check's report of the spec's shape opens with (CAA, RPKI, FCrDNS, the name
 * servers): the domain, when, the check's name and what it checks. One set, spread into each
 * report's Schema in the same order, so the reports cannot drift apart.
 */
import { Schema } from "effect"
import { DateTime } from "../records/Schemas.ts"

export const reportHead = {
  domain: Schema.String,
  timestamp: DateTime,
  check: Schema.String,
  description: Schema.String
}
