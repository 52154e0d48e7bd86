/**
 * What the SPF section of the Everything Report adds to every section's fields: the include/redirect
 * graph, and what flattening would do (RFC 7208 4.6.4: 10 lookups).
 */
import { Schema } from "effect"
import type { SectionExtra } from "../../kernel/Declaration.ts"
import { Nullable } from "../../records/Schemas.ts"
import { SpfFlattened } from "./SpfFlatten.ts"
import type { SpfResult } from "./SpfResult.ts"
import { SpfNode } from "./SpfNode.ts"

const SpfSectionExtra = Schema.Struct({
  lookupGraph: Nullable(SpfNode),
  flattening: Nullable(
    Schema.Struct({
      lookups: Schema.Int,
      lookupLimit: Schema.Int,
      overLimit: Schema.Boolean,
      advice: Schema.Array(Schema.String),
      flattened: SpfFlattened
    })
  )
})

/** The SPF extras: the lookup graph and what flattening would change (RFC 7208 4.6.4). */
const extrasOf = (spf: SpfResult | null): typeof SpfSectionExtra.Type => {
  if (spf === null || !spf.exists) return { lookupGraph: spf?.lookupGraph ?? null, flattening: null }
  const overLimit = spf.lookups > spf.lookupLimit
  const advice = overLimit
    ? [
        `The record needs ${spf.lookups} DNS lookups; receivers stop at ${spf.lookupLimit} and answer permerror (RFC 7208 4.6.4).`,
        spf.flattened.complete
          ? `Publishing the flattened record brings it to ${spf.flattened.lookups} lookups; regenerate it whenever an included sender changes its networks.`
          : "Flattening cannot resolve every included network: remove unused includes first, or move senders to subdomains with their own SPF records."
      ]
    : spf.lookups >= spf.lookupLimit - 2
      ? [
          `The record needs ${spf.lookups} of ${spf.lookupLimit} DNS lookups: one more include from a provider breaks SPF. Prefer removing unused includes to flattening.`
        ]
      : [
          `The record needs ${spf.lookups} of ${spf.lookupLimit} DNS lookups: no flattening needed. A flattened record is a copy of today's DNS and goes stale when a provider changes its networks.`
        ]
  return {
    lookupGraph: spf.lookupGraph,
    flattening: {
      lookups: spf.lookups,
      lookupLimit: spf.lookupLimit,
      overLimit,
      advice,
      flattened: spf.flattened
    }
  }
}

export type SpfSectionExtra = typeof SpfSectionExtra.Type

export const spfSectionExtra: SectionExtra<SpfResult> = { fields: SpfSectionExtra.fields, of: extrasOf }
