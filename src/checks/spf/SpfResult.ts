/**
 * The result of the SPF check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { Finding, Status } from "../../kernel/Status.ts"
import { SpfFlattened } from "./SpfFlatten.ts"
import { SpfNode } from "./SpfNode.ts"
import { SpfProblem } from "../../records/SpfParse.ts"

export const SpfPolicy = Schema.Literal("fail", "softfail", "neutral", "pass", "none", "unknown")
export type SpfPolicy = typeof SpfPolicy.Type

const Strings = Schema.Array(Schema.String)

export const SpfResult = Schema.Struct({
  domain: Schema.String,
  /**
   * `unknown` when the record or the redirect deciding the policy could not be looked up; `valid`
   * then means "no permerror found in what could be read".
   */
  status: Status,
  exists: Schema.Boolean,
  /** The SPF record ("" when there is none; the first one when there are several). */
  record: Schema.String,
  /** Every `v=spf1` record at the domain (more than one is a permerror). */
  records: Strings,
  valid: Schema.Boolean,
  policy: SpfPolicy,
  /** The domain whose `all` decided the policy (the domain itself or a redirect target). */
  policySource: Schema.NullOr(Schema.String),
  mechanisms: Strings,
  modifiers: Strings,
  redirect: Schema.NullOr(Schema.String),
  includes: Strings,
  lookups: Schema.Int,
  lookupLimit: Schema.Int,
  voidLookups: Schema.Int,
  voidLookupLimit: Schema.Int,
  lookupGraph: SpfNode,
  flattened: SpfFlattened,
  /** Syntax problems of the record, with character positions. */
  errors: Schema.Array(SpfProblem),
  findings: Schema.Array(Finding),
  warnings: Strings,
  issues: Strings
}).annotations({ identifier: "SpfResult" })
export type SpfResult = typeof SpfResult.Type
