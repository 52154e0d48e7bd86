/** What the SPF check gathers for the example domain: its record's graph, fetched from the zone. */
import { dns, DOMAIN, runAtNow } from "../../kernel/examples/ExampleZone.ts"
import { gather } from "./SpfGraph.ts"

export const exampleGathered = () => ({ domain: DOMAIN, fetch: runAtNow(gather(dns(), DOMAIN)) })
