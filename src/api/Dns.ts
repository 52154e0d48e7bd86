/** The dns group: lookup, DNSSEC, propagation and TLSA (SPEC.md "DNS lookup result" and below). */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { TlsaResult } from "../checks/tlsa/Tlsa.ts"
import { TlsaGenerated } from "../generate/TlsaGenerator.ts"
import { LookupResult } from "../checks/dns/Lookup.ts"
import { PropagationResult } from "../checks/dns/Propagation.ts"
import { DnssecResult } from "../checks/dnssec/Dnssec.ts"
import { RecordTypes } from "../net/DnsTypes.ts"
import { Status, Strings } from "./Common.ts"
import { Domain, DomainQuery } from "./Domain.ts"
import { BadRequest } from "./Errors.ts"

/** The record types the Resolver speaks (SPEC lists A..PTR for `type`; the issue allows all of them). */
export const LookupType = Schema.Literal(...RecordTypes)

export const PropagationType = Schema.Literal("A", "AAAA", "MX", "TXT")

export const TlsaGenerateRequest = Schema.Struct({
  pem: Schema.String.pipe(Schema.maxLength(65_536)),
  usage: Schema.Int.pipe(Schema.between(0, 3)),
  selector: Schema.Int.pipe(Schema.between(0, 1)),
  matching: Schema.Int.pipe(Schema.between(0, 2)),
  host: Domain,
  port: Schema.Int.pipe(Schema.between(1, 65_535)),
  /** Usages 0 and 2 with a chain: the trust anchor's subject; default the last CA certificate. */
  anchor: Schema.optional(Schema.String.pipe(Schema.maxLength(1024)))
})

export class DnsApi extends HttpApiGroup.make("dns")
  .add(
    HttpApiEndpoint.get("lookup", "/dns/lookup")
      .setUrlParams(
        Schema.Struct({
          domain: Domain,
          type: Schema.optional(LookupType).annotations({
            description: "one record type; default all of A, AAAA, MX, TXT, NS, SOA, CAA, CNAME, PTR"
          }),
          types: Schema.optional(Schema.String).annotations({ description: "comma list such as A,MX,TXT" })
        })
      )
      .addSuccess(LookupResult)
      .addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.get("dnssec", "/dns/dnssec")
      .setUrlParams(DomainQuery)
      .addSuccess(DnssecResult)
      .addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.get("propagation", "/dns/propagation")
      .setUrlParams(Schema.Struct({ domain: Domain, type: Schema.optional(PropagationType) }))
      .addSuccess(PropagationResult)
      .addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.get("tlsa", "/dns/tlsa")
      .setUrlParams(DomainQuery)
      .addSuccess(TlsaResult)
      .addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.post("tlsaGenerate", "/dns/tlsa/generate")
      .setPayload(TlsaGenerateRequest)
      .addSuccess(TlsaGenerated)
      .addError(BadRequest)
  ) {}
