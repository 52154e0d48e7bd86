/**
 * Handlers of the dns group: lookup, DNSSEC, propagation, TLSA and the TLSA generator.
 * A question the resolver could not answer at all is a 500 ("upstream resolver problem", SPEC
 * Errors), never an empty result; partial failures stay inside the result as `unknown`.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../../Api.ts"
import { BadRequest } from "../../api/Errors.ts"
import { tlsaPreviewed } from "../../composite/GeneratedPreview.ts"
import * as Dns from "../../composite/DnsLookups.ts"
import * as MailTransport from "../../composite/MailTransport.ts"
import { dependencies } from "../../composite/DependencyMapScan.ts"
import { previewedGenerated } from "./Generated.ts"

export const DnsHandlers = HttpApiBuilder.group(Api, "dns", (handlers) =>
  handlers
    .handle("lookup", ({ urlParams }) =>
      Dns.lookupAsked(urlParams.domain, urlParams.type, urlParams.types).pipe(
        Effect.catchTag("UnknownRecordType", (e) => Effect.fail(new BadRequest({ error: e.message })))
      )
    )
    .handle("dnssec", ({ urlParams }) => Dns.dnssec(urlParams.domain))
    .handle("propagation", ({ urlParams }) => Dns.propagation(urlParams.domain, urlParams.type ?? "A"))
    .handle("tlsa", ({ urlParams }) => MailTransport.tlsa(urlParams.domain))
    .handle("tlsaGenerate", ({ payload, urlParams }) =>
      previewedGenerated(tlsaPreviewed(payload, urlParams.domain))
    )
    .handle("dependencies", ({ urlParams }) => dependencies(urlParams.domain, urlParams.names))
)
