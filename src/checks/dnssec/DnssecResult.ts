/**
 * The result of the DNSSEC check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { AlgorithmSecurity } from "../../records/DnssecKeys.ts"
import { DateTime, Nullable, Strings } from "../../records/Schemas.ts"
import { Status } from "../../kernel/Status.ts"
import { ChainEntry } from "./Chain.ts"
import { Issue, Nsec3Param } from "./Nsec3.ts"
import { Trust } from "./Trust.ts"

export const RrsigEntry = Schema.Struct({
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
export type RrsigEntry = typeof RrsigEntry.Type

export const DnssecResult = Schema.Struct({
  domain: Schema.String,
  /** The zone whose keys were examined (differs from `domain` for names below an apex). */
  zone: Schema.String.annotations({ description: "the zone apex whose keys were examined" }),
  status: Status,
  signed: Schema.Boolean,
  valid: Schema.Boolean,
  /** "secure", "insecure" (unsigned or no DS), "bogus", or "unknown" (resolver unreachable). */
  state: Schema.Literal("secure", "insecure", "bogus", "unknown"),
  /**
   * The chain of trust, telling apart what `state` folds together (`Trust.ts`, docs/dnssec.md):
   * `unsigned` and `no-ds` and `unvalidated` are all "insecure" there, `broken` is "bogus" (or a
   * DS matching no key). Results stored before it existed lack it, hence optional.
   */
  trust: Schema.optionalWith(Trust, { exact: true }),
  /**
   * Whether the parent zone is signed, read from the DS answer (RFC 4035 3.1.4: a signed parent
   * signs its DS set, or proves its absence with signed NSEC/NSEC3): false under an unsigned TLD,
   * where the domain cannot deploy DNSSEC at all; null when the DS lookup failed.
   */
  parentSigned: Nullable(Schema.Boolean),
  chain: Schema.Array(ChainEntry),
  /** Findings on the DS set and the keys (digest types, key sizes, what we could not verify). */
  issues: Schema.Array(Issue),
  nsec3param: Nsec3Param,
  rrsig: Schema.Struct({
    exists: Schema.Boolean,
    records: Schema.Array(RrsigEntry),
    algorithmSecurity: AlgorithmSecurity,
    /** The zone's SOA expire in seconds (RFC 1035 3.3.13), which the SOA and DNSKEY signatures should outlive. */
    soaExpire: Schema.optionalWith(Schema.Int, { exact: true }),
    issues: Schema.Array(Issue)
  }),
  errors: Strings,
  resolver: Schema.String
})
export type DnssecResult = typeof DnssecResult.Type
