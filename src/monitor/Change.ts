/**
 * A change between two stored scans of a domain, as `diffScans` (Diff.ts) reports it and the history
 * API, the evidence, alerts and `batch --compare` pass it on (docs/monitoring.md "Changes").
 *
 * `id` is stable across scans (`grade`, `check/<record>`, `issue/<catalogue id>`, `record/<name>`,
 * `certificate/<host>/<field>`, `blocklist/<address>/<zone>`), so one fact changing twice has one id,
 * and `before`/`after` are JSON values (null: absent on that side). `severity` says how much it matters
 * to the domain's owner in this direction: a DMARC policy weakened is high, strengthened info.
 */
import { Schema } from "effect"
import { Severity } from "../kernel/Status.ts"

export const ChangeKinds = [
  "grade",
  "check",
  "issue-opened",
  "issue-closed",
  "record",
  "certificate",
  "blocklist"
] as const
export const ChangeKind = Schema.Literal(...ChangeKinds)
export type ChangeKind = typeof ChangeKind.Type

/** A JSON value (null, boolean, number, string, array, object): what `before` and `after` hold. */
export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

const JsonValue = Schema.Unknown.annotations({
  description: "a JSON value; null when the fact is absent on that side"
}) as Schema.Schema<Json>

export const Change = Schema.Struct({
  kind: ChangeKind.annotations({
    description:
      "grade, check (a score record's status), issue-opened, issue-closed, record (SPF, DMARC, MX, DKIM, MTA-STS, TLSA, CAA, NS), certificate (a mail server's issuer or expiry), blocklist (a listing)"
  }),
  id: Schema.String.annotations({
    description:
      "stable across scans: grade, check/<record id>, issue/<issue id>, record/<name>, certificate/<host>/<field>, blocklist/<address>/<zone>"
  }),
  before: JsonValue,
  after: JsonValue,
  severity: Severity,
  summary: Schema.String.annotations({ description: "one sentence for the domain's owner" })
}).annotations({ identifier: "Change" })
export type Change = typeof Change.Type

/** The kind a change has when its two scans are swapped: an issue opened is then closed. */
export const inverseKind = (kind: ChangeKind): ChangeKind =>
  kind === "issue-opened" ? "issue-closed" : kind === "issue-closed" ? "issue-opened" : kind
