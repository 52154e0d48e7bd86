/**
 * What the BIMI check gathers for the example domain: no BIMI record (the logo is optional, and
 * needs a mark certificate to show in most inboxes), beside the domain's DMARC verdict.
 */
import { Dmarc } from "../dmarc/Dmarc.ts"
import { DOMAIN } from "../../kernel/examples/ExampleZone.ts"

export const exampleGathered = () => ({
  domain: DOMAIN,
  organisationalDomain: DOMAIN,
  direct: { name: `default._bimi.${DOMAIN}`, records: [] },
  organisational: null,
  logo: null,
  authority: null,
  dmarc: Dmarc.example()
})
