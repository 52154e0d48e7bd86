/**
 * What DMARC asks of the DNS (RFC 7489): the policy record at `_dmarc.<domain>`, the organisational
 * domain's when that holds none (6.6.3), each external report destination's authorisation record
 * (7.1), and whether each rua domain takes mail. Which of the look-ups applies is decided here too,
 * so the judgement (Dmarc.ts) reads the same record the gathering followed.
 */
import { Effect } from "effect"
import type { Domain } from "../../records/DomainName.ts"
import type { FactsShape } from "../../kernel/Facts.ts"
import { isTxtError, lookupTxt, type TxtOutcome, type TxtSource } from "../../kernel/TxtOutcome.ts"
import {
  isDmarcRecord,
  organisationalDomainOf,
  parseDmarc,
  reportAuthorisationName,
  type DmarcUri,
  type ParsedDmarc
} from "../../records/DmarcRecord.ts"
import { forEachConcurrently } from "../../kernel/Each.ts"

export interface DmarcGathered {
  readonly domain: string
  /** `_dmarc.<domain>` */
  readonly direct: TxtOutcome
  /** The organisational domain when it differs from `domain` (public suffix list), else null. */
  readonly organisationalDomain: string | null
  /** `_dmarc.<organisational domain>`, asked only when `direct` held no DMARC record. */
  readonly organisational: TxtOutcome | null
  /** `<policy domain>._report._dmarc.<destination>` for every external report destination. */
  readonly authorisations: ReadonlyArray<TxtOutcome>
  /** Whether each mailto rua domain takes mail (MX, or implicit MX), asked when the source can. */
  readonly ruaMx?: ReadonlyArray<{ readonly domain: string; readonly mx: "some" | "none" | "unknown" }>
}

/** What gathering needs: TXT, and MX and addresses when available (a scan's Facts; plain TXT fakes lack them). */
export type DmarcSource = TxtSource & Partial<Pick<FactsShape, "mx" | "addresses">>

export const dmarcName = (domain: string) => `_dmarc.${domain}`

export const dmarcRecords = (o: TxtOutcome | null): ReadonlyArray<string> =>
  o === null || isTxtError(o) ? [] : o.records.filter(isDmarcRecord)

/** Which look-up's record applies (RFC 7489 6.6.3 steps 1-3). */
export const applicable = (g: DmarcGathered) =>
  dmarcRecords(g.direct).length > 0 || isTxtError(g.direct) || g.organisational === null
    ? { outcome: g.direct, policyDomain: g.domain, inherited: false }
    : { outcome: g.organisational, policyDomain: g.organisationalDomain ?? g.domain, inherited: true }

/** The external destinations of a parsed record, with the names to ask (RFC 7489 7.1). */
export const externalDestinations = (policyDomain: string, parsed: ParsedDmarc) =>
  [...parsed.rua, ...parsed.ruf]
    .filter((u): u is DmarcUri & { domain: string } => u.domain !== null && u.scheme === "mailto")
    .filter((u) => organisationalDomainOf(u.domain) !== organisationalDomainOf(policyDomain))
    .map((u) => ({ uri: u, name: reportAuthorisationName(policyDomain, u.domain) }))

export type Reach = NonNullable<DmarcGathered["ruaMx"]>[number]

/**
 * Can `domain` receive mail? An MX with a host says yes; a null MX ("0 .", RFC 7505) says no.
 * Without any MX, mail goes to the domain's own address (the implicit MX, RFC 5321 5.1), so it is
 * "none" only when the domain has no A or AAAA either. A failed lookup is "unknown".
 */
export const mailReach = (dns: DmarcSource, domain: string): Effect.Effect<Reach> =>
  Effect.gen(function* () {
    const records = yield* dns.mx!(domain)
    if (records.some((r) => r.exchange.replace(/\.$/, "") !== "")) return { domain, mx: "some" } as const
    if (records.length > 0 || dns.addresses === undefined) return { domain, mx: "none" } as const
    const { v4, v6 } = yield* dns.addresses(domain)
    return { domain, mx: v4.length + v6.length > 0 ? "some" : "none" } as const
  }).pipe(Effect.orElseSucceed((): Reach => ({ domain, mx: "unknown" })))

/** Gathers the DNS facts DMARC needs for `domain`: the record, the fallback, the authorisations. */
export const gatherDmarc = (dns: DmarcSource, domain: Domain): Effect.Effect<DmarcGathered> =>
  Effect.gen(function* () {
    const org = organisationalDomainOf(domain)
    const organisationalDomain = org !== domain ? org : null
    const direct = yield* lookupTxt(dns, dmarcName(domain))
    const needOrg = !isTxtError(direct) && dmarcRecords(direct).length === 0 && organisationalDomain !== null
    const organisational = needOrg ? yield* lookupTxt(dns, dmarcName(organisationalDomain)) : null
    const partial: DmarcGathered = {
      domain,
      direct,
      organisationalDomain,
      organisational,
      authorisations: []
    }
    const { outcome, policyDomain } = applicable(partial)
    const records = dmarcRecords(outcome)
    const names =
      records.length === 1
        ? [...new Set(externalDestinations(policyDomain, parseDmarc(records[0]!)).map((d) => d.name))]
        : []
    const authorisations = yield* forEachConcurrently(names, (name) => lookupTxt(dns, name), 4)
    const mx = dns.mx
    const ruaDomains =
      records.length === 1 && mx
        ? [
            ...new Set(
              parseDmarc(records[0]!).rua.flatMap((u) =>
                u.scheme === "mailto" && u.domain ? [u.domain] : []
              )
            )
          ].slice(0, 4)
        : []
    const ruaMx = yield* forEachConcurrently(ruaDomains, (d) => mailReach(dns, d), 4)
    return { ...partial, authorisations, ...(mx ? { ruaMx } : {}) }
  })
