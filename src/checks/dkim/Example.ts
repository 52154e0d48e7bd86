/**
 * What the DKIM check gathers for the example domain: selector1 found among the known selectors.
 * The gather is the check's own (`gatherDkim`, in Dkim.ts, which imports this module), run over
 * the zone; Dkim.ts hands it in.
 */
import type { Effect } from "effect"
import { dns, DOMAIN, runAtNow } from "../../kernel/examples/ExampleZone.ts"
import type { Domain } from "../../records/DomainName.ts"

export const exampleGathered =
  <G>(gather: (zone: ReturnType<typeof dns>, domain: Domain) => Effect.Effect<G>) =>
  (): G =>
    runAtNow(gather(dns(), DOMAIN))
