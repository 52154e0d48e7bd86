/**
 * The chain of trust in the resolver's terms (RFC 4035 4.3): what `state` folds into "insecure"
 * told apart. An unsigned zone (no DNSKEY, no DS) is a choice; a signed zone whose parent publishes
 * no DS is an island the chain never reaches; a DS that matches no key, or signatures that do not
 * validate, is a broken chain; a zone signed with a matching DS that validators still do not vouch
 * for (an algorithm or digest they do not accept, such as SHA-1 under RFC 9905 2) is "unvalidated".
 */
import { Schema } from "effect"
import type { ChainEntry } from "./Chain.ts"

export const Trust = Schema.Literal(
  "secure",
  "unsigned",
  "no-ds",
  "broken",
  "unvalidated",
  "unknown"
).annotations({
  description:
    "the chain of trust: secure; unsigned (no DNSKEY, no DS); no-ds (signed, the parent publishes no DS); broken (a DS that matches no key, or signatures that do not validate: bogus); unvalidated (signed with a matching DS, yet validators do not vouch for it: insecure to them); unknown"
})
export type Trust = typeof Trust.Type

export interface TrustFacts {
  /** The zone's DNSKEY lookup failed: nothing can be said. */
  readonly unreachable: boolean
  /** The validating resolver answered SERVFAIL and the data came only with CD (RFC 4035 3.2.2). */
  readonly bogus: boolean
  /** AD on the DNSKEY answer. */
  readonly validated: boolean
  /** The resolver validates at all (AD on the root); undefined when not known. */
  readonly resolverValidates: boolean | undefined
  readonly keys: number
  /** The DS lookup was answered (possibly empty); false when it failed. */
  readonly dsAnswered: boolean
  readonly ds: ReadonlyArray<Pick<ChainEntry, "dsCheck">>
}

/** Pure: the chain of trust from what was gathered (RFC 4035 4.3, RFC 4035 5.2). */
export const trustOf = (f: TrustFacts): Trust => {
  if (f.unreachable) return "unknown"
  if (f.bogus) return "broken"
  if (f.validated && f.keys > 0) return "secure"
  if (f.keys === 0) return f.ds.length > 0 ? "broken" : "unsigned"
  if (f.resolverValidates === false) return "unknown"
  if (f.dsAnswered && f.ds.length === 0) return "no-ds"
  if (f.ds.length > 0 && f.ds.every((d) => d.dsCheck === "mismatch")) return "broken"
  return "unvalidated"
}
