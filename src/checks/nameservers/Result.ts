/**
 * What the name-server check reports (its Schema): the delegation the parent publishes, every name
 * server with what each of its addresses answered, and one verdict per property Zonemaster tests
 * (docs/nameservers.md): count (DELEGATION01), network diversity (RFC 2182 3.1, CONNECTIVITY03),
 * authoritative answers (no lame delegation, RFC 1912 2.8, DELEGATION04), consistency (one SOA
 * serial and the parent's NS set, CONSISTENCY01/05), IPv6 (DELEGATION01), TCP (RFC 7766 / RFC 9210,
 * CONNECTIVITY02) and no open recursion (RFC 5358, NAMESERVER01).
 */
import { Schema } from "effect"
import { Nullable, Strings } from "../../records/Schemas.ts"
import { Status } from "../../kernel/Status.ts"
import { reportHead } from "../../kernel/ReportHead.ts"

/** One property's verdict over all the name servers. */
export const NsVerdict = Schema.Struct({ status: Status, message: Schema.String })
export type NsVerdict = typeof NsVerdict.Type

/** What one address of a name server answered; null where the question got no answer (unknown). */
export const NsAddressResult = Schema.Struct({
  address: Schema.String,
  family: Schema.Literal(4, 6),
  /** The SOA of the zone came back over UDP with the AA bit (RFC 1035 4.1.1); false is lame. */
  authoritative: Nullable(Schema.Boolean),
  /** The zone's SOA serial as this address serves it: an unsigned 32-bit number (RFC 1035 3.3.13). */
  serial: Nullable(Schema.Int.pipe(Schema.between(0, 4294967295))),
  /** The zone's NS set as this address serves it (lower case, no trailing dot, sorted). */
  nameServers: Nullable(Strings),
  /** The SOA question was answered over TCP (RFC 7766 5, RFC 9210 3). */
  tcp: Nullable(Schema.Boolean),
  /** A recursive question about a name outside the zone came back with RA set (RFC 5358). */
  openRecursion: Nullable(Schema.Boolean),
  status: Status,
  message: Schema.String
})
export type NsAddressResult = typeof NsAddressResult.Type

/** One name server: its host name, its addresses and what each answered. */
export const NsServerResult = Schema.Struct({
  host: Schema.String,
  /** Every address of the host (A and AAAA); those asked are in `results`. */
  addresses: Strings,
  /** Listed by the parent's delegation. */
  inDelegation: Schema.Boolean,
  /** Listed by the zone's own NS set. */
  inZone: Schema.Boolean,
  results: Schema.Array(NsAddressResult),
  status: Status,
  message: Schema.String
})
export type NsServerResult = typeof NsServerResult.Type

export const NameServersReport = Schema.Struct({
  ...reportHead,
  status: Status,
  /** The zone the parent's delegation lives in (the TLD for a registered domain); null if unknown. */
  parentZone: Nullable(Schema.String),
  /** The NS set the parent's servers hand out for the domain (the delegation). */
  delegation: Strings,
  /** The NS set the zone itself publishes (through the resolver). */
  zoneNameServers: Strings,
  servers: Schema.Array(NsServerResult),
  verdicts: Schema.Struct({
    count: NsVerdict,
    networks: NsVerdict,
    authoritative: NsVerdict,
    consistent: NsVerdict,
    ipv6: NsVerdict,
    tcp: NsVerdict,
    recursion: NsVerdict
  }),
  issues: Strings,
  citationUrl: Schema.String
}).annotations({ identifier: "NameServersReport" })
export type NameServersReport = typeof NameServersReport.Type
