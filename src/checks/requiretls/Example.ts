/**
 * What the REQUIRETLS check gathers for the example domain: the SMTP TLS check's sessions with its
 * MX (a Postfix that, like most, does not advertise REQUIRETLS), read as `gather` reads them.
 */
import { DOMAIN } from "../../kernel/examples/ExampleZone.ts"
import { exampleProbes } from "../smtp-tls/Example.ts"
import { heardOf, type RequireTlsGathered } from "./RequireTlsGathered.ts"

export const exampleGathered = (): RequireTlsGathered => ({
  domain: DOMAIN,
  mxStatus: "answer",
  mxError: null,
  heard: exampleProbes().map(heardOf),
  implicitMxSilent: null
})
