/**
 * Signatures that expire before the SOA expire time: a secondary that
 * loses its primary keeps serving the zone for up to the SOA expire (RFC 1035 3.3.13),
 * and its copy carries the signatures it last received. If they expire first, validators find the
 * zone bogus (RFC 4035 5.3.1) while the secondary still answers for it. RFC 6781 4.4.2 has the
 * signature validity outlast the expire for this reason.
 */
import type { Issue } from "./Nsec3.ts"

/** The apex sets whose signatures a secondary must keep valid: the SOA and the keys. */
const APEX = new Set(["SOA", "DNSKEY"])

export interface SignatureSpan {
  readonly typeCovered: string
  readonly keyTag: number
  /** Seconds since the epoch (RFC 4034 3.1.5). */
  readonly inception: number
  readonly expiration: number
}

const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10)

/**
 * Pure: a warning for each current SOA or DNSKEY signature that expires before now + the SOA expire.
 * Signatures already expired or not yet valid are errors elsewhere; no SOA expire, no finding.
 */
export const beforeSoaExpire = (
  signatures: ReadonlyArray<SignatureSpan>,
  soaExpire: number | undefined,
  nowSeconds: number
): Array<Issue> =>
  soaExpire === undefined
    ? []
    : signatures
        .filter(
          (s) =>
            APEX.has(s.typeCovered) &&
            s.inception <= nowSeconds &&
            s.expiration >= nowSeconds &&
            s.expiration < nowSeconds + soaExpire
        )
        .map((s) => ({
          severity: "warning" as const,
          code: "rrsig-before-soa-expire",
          message: `RRSIG over ${s.typeCovered} (key ${s.keyTag}) expires on ${day(s.expiration)}, within the SOA expire of ${Math.round(soaExpire / 86_400)} day(s): a secondary cut off from its primary would serve the zone with expired signatures (bogus); keep signatures valid longer than the SOA expire`
        }))
