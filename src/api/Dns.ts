/** The dns group: lookup, DNSSEC, propagation and TLSA (SPEC.md "DNS lookup result" and below). */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { TlsaResult } from "../checks/tlsa/Tlsa.ts"
import { RecordTypes } from "../net/Dns.ts"
import { DateTime, Status, Strings } from "./Common.ts"
import { Domain, DomainQuery } from "./Domain.ts"
import { BadRequest } from "./Errors.ts"

/** The record types the Resolver speaks (SPEC lists A..PTR for `type`; the issue allows all of them). */
export const LookupType = Schema.Literal(...RecordTypes)

/** Shape B of the DNS lookup result, plus shape A's non-conflicting fields (success, cached, timestamp). */
export const LookupResult = Schema.Struct({
  success: Schema.Boolean,
  domain: Schema.String,
  records: Schema.Record({
    key: Schema.String,
    value: Schema.Array(
      Schema.Struct({ type: Schema.String, name: Schema.String, ttl: Schema.Int, data: Schema.String })
    )
  }).annotations({
    description:
      "type -> records of the answer (a CNAME chain included, each item names its own type); a type whose lookup failed is absent and listed in errors"
  }),
  outcomes: Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
    description: "type -> answer, nodata, nxdomain, or the failure reason (timeout, servfail, refused ...)"
  }),
  errors: Schema.Array(Schema.Struct({ type: Schema.String, reason: Schema.String, message: Schema.String })),
  responseTime: Schema.Int,
  resolver: Schema.String,
  cached: Schema.Boolean,
  dnssecValidated: Schema.Boolean,
  timestamp: DateTime
})

const Flags = Schema.Union(
  Schema.Int,
  Schema.Struct({ value: Schema.Int, zoneKey: Schema.Boolean, secureEntryPoint: Schema.Boolean })
)

const AlgorithmSecurity = Schema.Literal("modern", "acceptable", "deprecated", "insecure", "unknown")

const Issue = Schema.Struct({
  severity: Schema.Literal("error", "warning", "info"),
  code: Schema.String,
  message: Schema.String
})

export const DnssecResult = Schema.Struct({
  domain: Schema.String,
  zone: Schema.String.annotations({ description: "the zone apex whose keys were examined" }),
  status: Status,
  signed: Schema.Boolean,
  valid: Schema.Boolean,
  state: Schema.Literal("secure", "insecure", "bogus", "unknown"),
  chain: Schema.Array(
    Schema.Struct({
      type: Schema.Literal("DNSKEY", "DS"),
      domain: Schema.String,
      keyTag: Schema.Int,
      algorithm: Schema.Int,
      algorithmName: Schema.String,
      algorithmSecurity: AlgorithmSecurity,
      digestType: Schema.Int,
      digestTypeName: Schema.String,
      digest: Schema.String,
      flags: Flags,
      role: Schema.Literal("KSK", "ZSK", "other", "DS"),
      protocol: Schema.Int,
      publicKey: Schema.String,
      matched: Schema.Boolean,
      dsRecord: Schema.optional(Schema.String)
    })
  ),
  nsec3param: Schema.Struct({
    exists: Schema.Boolean,
    hashAlgorithm: Schema.Int,
    flags: Schema.Int,
    iterations: Schema.Int,
    salt: Schema.String,
    optOut: Schema.Boolean,
    rfc9276Compliant: Schema.Boolean,
    issues: Schema.Array(Issue)
  }),
  rrsig: Schema.Struct({
    exists: Schema.Boolean,
    records: Schema.Array(
      Schema.Struct({
        typeCovered: Schema.String,
        algorithm: Schema.Int,
        algorithmName: Schema.String,
        originalTTL: Schema.Int,
        keyTag: Schema.Int,
        signerName: Schema.String,
        inception: DateTime,
        expiration: DateTime,
        daysUntilExpiry: Schema.Int,
        isExpired: Schema.Boolean,
        notYetValid: Schema.Boolean
      })
    ),
    algorithmSecurity: AlgorithmSecurity,
    issues: Schema.Array(Issue)
  }),
  errors: Strings,
  resolver: Schema.String
})

export const PropagationType = Schema.Literal("A", "AAAA", "MX", "TXT")

/** The union of propagation shapes A and B; each result item carries both item forms. */
export const PropagationResult = Schema.Struct({
  success: Schema.Boolean,
  domain: Schema.String,
  type: Schema.String,
  recordType: Schema.String,
  propagated: Schema.Boolean.annotations({
    description:
      "true when at least one resolver answered and all that answered agree (failed ones are ignored)"
  }),
  servers_checked: Schema.Int.annotations({ description: "resolvers that answered" }),
  servers_matching: Schema.Int,
  servers_failed: Schema.Int,
  servers_total: Schema.Int,
  consensus: Strings,
  results: Schema.Array(
    Schema.Struct({
      server: Schema.String,
      location: Schema.String,
      value: Strings,
      response_time: Schema.Int,
      resolver: Schema.Struct({ ip: Schema.String, name: Schema.String, country: Schema.String }),
      records: Schema.Array(Schema.Struct({ type: Schema.String, data: Schema.String })),
      responseTime: Schema.Int,
      success: Schema.Boolean,
      status: Schema.Literal("match", "differs", "failed"),
      outcome: Schema.String,
      ttl: Schema.NullOr(Schema.Int),
      error: Schema.NullOr(Schema.String)
    })
  ),
  timestamp: DateTime
})

export const TlsaGenerateRequest = Schema.Struct({
  pem: Schema.String.pipe(Schema.maxLength(65_536)),
  usage: Schema.Int.pipe(Schema.between(0, 3)),
  selector: Schema.Int.pipe(Schema.between(0, 1)),
  matching: Schema.Int.pipe(Schema.between(0, 2)),
  host: Domain,
  port: Schema.Int.pipe(Schema.between(1, 65_535))
})

export const TlsaGenerateResult = Schema.Struct({
  name: Schema.String,
  value: Schema.String,
  record: Schema.String,
  zoneFileLine: Schema.String,
  usage: Schema.Int,
  selector: Schema.Int,
  matching: Schema.Int,
  usageDescription: Schema.String,
  selectorDescription: Schema.String,
  matchingTypeDescription: Schema.String,
  certificateAssociationData: Schema.String,
  input: Schema.Literal("CERTIFICATE", "PUBLIC KEY"),
  warnings: Strings,
  recommendation: Schema.NullOr(Schema.String)
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
      .addSuccess(TlsaGenerateResult)
      .addError(BadRequest)
  ) {}
