/** The dns group: lookup, DNSSEC, propagation and TLSA (SPEC.md "DNS lookup result" and below). */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Open, Strings } from "./Common.ts"
import { Domain, DomainQuery } from "./Domain.ts"
import { BadRequest } from "./Errors.ts"

export const LookupType = Schema.Literal("A", "AAAA", "MX", "TXT", "NS", "SOA", "CAA", "CNAME", "PTR")

/** Shape B of the DNS lookup result. */
export const LookupResult = Schema.Struct({
  domain: Schema.String,
  records: Schema.Record({
    key: Schema.String,
    value: Schema.Array(
      Schema.Struct({ type: Schema.String, name: Schema.String, ttl: Schema.Int, data: Schema.String })
    )
  }),
  responseTime: Schema.Int,
  resolver: Schema.String
})

const Flags = Schema.Union(
  Schema.Int,
  Schema.Struct({ value: Schema.Int, zoneKey: Schema.Boolean, secureEntryPoint: Schema.Boolean })
)

export const DnssecResult = Schema.Struct({
  domain: Schema.String,
  signed: Schema.Boolean,
  valid: Schema.Boolean,
  chain: Schema.Array(
    Schema.Struct({
      domain: Schema.String,
      algorithm: Schema.Int,
      digestType: Schema.Int,
      digest: Schema.String,
      flags: Flags,
      protocol: Schema.Int,
      publicKey: Schema.String,
      algorithmName: Schema.String
    })
  ),
  nsec3param: Schema.Struct({
    exists: Schema.Boolean,
    hashAlgorithm: Schema.Int,
    flags: Schema.Int,
    iterations: Schema.Int,
    salt: Schema.String,
    rfc9276Compliant: Schema.Boolean,
    issues: Schema.Array(Open)
  }),
  rrsig: Schema.Struct({
    exists: Schema.Boolean,
    records: Schema.Array(
      Schema.Struct({
        typeCovered: Schema.String,
        algorithm: Schema.Int,
        originalTTL: Schema.Int,
        daysUntilExpiry: Schema.Int,
        isExpired: Schema.Boolean
      })
    ),
    algorithmSecurity: Schema.Literal("modern", "acceptable", "deprecated", "insecure", "unknown"),
    issues: Schema.Array(Open)
  }),
  errors: Strings
})

/** The union of propagation shapes A and B; each result item carries both item forms. */
export const PropagationResult = Schema.Struct({
  success: Schema.Boolean,
  domain: Schema.String,
  type: Schema.String,
  recordType: Schema.String,
  propagated: Schema.Boolean,
  servers_checked: Schema.Int,
  servers_matching: Schema.Int,
  results: Schema.Array(
    Schema.Struct({
      server: Schema.String,
      location: Schema.String,
      value: Strings,
      response_time: Schema.Int,
      resolver: Schema.Struct({ ip: Schema.String, name: Schema.String, country: Schema.String }),
      records: Schema.Array(Schema.Struct({ type: Schema.String, data: Schema.String })),
      responseTime: Schema.Int,
      success: Schema.Boolean
    })
  )
})

export const TlsaResult = Schema.Struct({
  domain: Schema.String,
  port: Schema.Int,
  protocol: Schema.String,
  tlsaDomain: Schema.String,
  exists: Schema.Boolean,
  records: Schema.Array(
    Schema.Struct({
      usage: Schema.Int,
      usageDescription: Schema.String,
      selectorDescription: Schema.String,
      matchingTypeDescription: Schema.String
    })
  )
})

export const TlsaGenerateRequest = Schema.Struct({
  pem: Schema.String.pipe(Schema.maxLength(65_536)),
  usage: Schema.Int.pipe(Schema.between(0, 3)),
  selector: Schema.Int.pipe(Schema.between(0, 1)),
  matching: Schema.Int.pipe(Schema.between(0, 2)),
  host: Domain,
  port: Schema.Int.pipe(Schema.between(1, 65_535))
})

export const TlsaGenerateResult = Open

export class DnsApi extends HttpApiGroup.make("dns")
  .add(
    HttpApiEndpoint.get("lookup", "/dns/lookup")
      .setUrlParams(
        Schema.Struct({
          domain: Domain,
          type: Schema.optional(LookupType),
          types: Schema.optional(Schema.String)
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
      .setUrlParams(
        Schema.Struct({ domain: Domain, type: Schema.optional(Schema.Literal("A", "AAAA", "MX", "TXT")) })
      )
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
      .addSuccess(TlsaGenerateResult)
      .addError(BadRequest)
  ) {}
