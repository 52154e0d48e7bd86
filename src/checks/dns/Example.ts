/**
 * What the DNS-records check gathers for the example domain: its answer to each type asked, from
 * the in-memory zone (kernel/examples/ExampleZone.ts). The types are the check's own
 * (`DEFAULT_TYPES`), handed in by Lookup.ts, which imports this module.
 */
import type { RecordType } from "../../net/DnsTypes.ts"
import { ask, DOMAIN } from "../../kernel/examples/ExampleZone.ts"

export const exampleGathered = (types: ReadonlyArray<RecordType>) => ({
  domain: DOMAIN,
  results: types.map((type) => ({ type, result: ask(DOMAIN, type) })),
  responseTime: 18
})
