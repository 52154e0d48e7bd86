/**
 * The SPF lookup graph as a result carries it: one node per term that costs a DNS lookup
 * (RFC 7208 4.6.4), its status, and what the walk hands the flattener.
 */
import { Schema } from "effect"
import type { Cidr } from "../../records/SpfIp.ts"
import type { ParsedSpf, Qualifier } from "../../records/SpfParse.ts"

export const NodeType = Schema.Literal("root", "include", "redirect", "a", "mx", "ptr", "exists")
export type NodeType = typeof NodeType.Type
export const NodeStatus = Schema.Literal(
  "ok",
  "missing",
  "multiple",
  "invalid",
  "unknown",
  "void",
  "loop",
  "depth",
  "macro",
  "budget",
  "not-evaluated"
)
export type NodeStatus = typeof NodeStatus.Type

/** One node of `lookupGraph`. `lookups` is this term's own cost; `totalLookups` adds its subtree. */
export interface SpfNode {
  readonly type: NodeType
  readonly term: string | null
  readonly domain: string | null
  readonly record: string | null
  readonly status: NodeStatus
  readonly lookups: number
  readonly totalLookups: number
  readonly voidLookups: number
  readonly totalVoidLookups: number
  /** For a / mx: the networks the term matches (addresses with the term's CIDR lengths). */
  readonly networks?: ReadonlyArray<string>
  /** For mx: the exchanges found. */
  readonly hosts?: ReadonlyArray<string>
  readonly errors: ReadonlyArray<string>
  readonly children: ReadonlyArray<SpfNode>
}

// A recursive schema needs its type spelled out once (Schema.suspend); the interface above is it.
export const SpfNode: Schema.Schema<SpfNode> = Schema.Struct({
  type: NodeType,
  term: Schema.NullOr(Schema.String),
  domain: Schema.NullOr(Schema.String),
  record: Schema.NullOr(Schema.String),
  status: NodeStatus,
  lookups: Schema.Int,
  totalLookups: Schema.Int,
  voidLookups: Schema.Int,
  totalVoidLookups: Schema.Int,
  networks: Schema.optionalWith(Schema.Array(Schema.String), { exact: true }),
  hosts: Schema.optionalWith(Schema.Array(Schema.String), { exact: true }),
  errors: Schema.Array(Schema.String),
  children: Schema.Array(Schema.suspend((): Schema.Schema<SpfNode> => SpfNode))
}).annotations({ identifier: "SpfNode" })

/** What the flattener gets: networks that yield pass, terms kept as written, and what was lost. */
export type FlatItem =
  | { readonly kind: "cidr"; readonly cidr: Cidr; readonly source: string }
  | { readonly kind: "kept"; readonly text: string; readonly source: string; readonly why: string }
  | { readonly kind: "lost"; readonly text: string; readonly source: string; readonly why: string }
  | { readonly kind: "incomplete"; readonly source: string; readonly why: string }

export interface WalkResult {
  readonly root: SpfNode
  /** The single SPF record at the root, if there is exactly one. */
  readonly parsed: ParsedSpf | undefined
  /** Problems of included / redirected records, each prefixed with the record's domain. */
  readonly nestedErrors: ReadonlyArray<string>
  /** Result of the root's `all` or, failing that, of the redirect chain; undefined: default neutral. */
  readonly finalAll: Qualifier | undefined
  readonly finalAllFrom: string | undefined
  /** True when the policy could not be determined (a redirect target was unknown). */
  readonly policyUnknown: boolean
  readonly flat: ReadonlyArray<FlatItem>
  readonly includeTargets: ReadonlyArray<string>
  /** Included records ending in '+all': the include then matches every sender. */
  readonly includePassAll: ReadonlyArray<string>
}
