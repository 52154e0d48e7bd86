/**
 * What the DMARC check gathers for the example domain: its record and the external report
 * destinations' authorisations, by the check's own gather over the zone.
 */
import { dns, DOMAIN, runAtNow } from "../../kernel/examples/ExampleZone.ts"
import { gatherDmarc } from "./DmarcGather.ts"

export const exampleGathered = () => runAtNow(gatherDmarc(dns(), DOMAIN))
