/**
 * A Resolver that answers as if some records were published: the "what if" preview of
 * `POST /scan/preview` (docs/preview.md). Given RRsets and removals are laid over the live
 * resolver; every other question is asked live, so a scan over it reads the domain as it will be
 * once the records are published, and no check can tell the difference.
 *
 * The DNS rules it keeps:
 * - An RRset given at a name replaces the whole RRset of that type there (RFC 2181 5: an RRset is
 *   the unit; a TXT record given replaces every TXT record at the name, not one of them).
 * - A CNAME given at a name makes it an alias: every other question there follows it (RFC 1034
 *   3.6.2), through the overlay again. Data of another type given at a name whose live answer is a
 *   CNAME replaces the alias (a CNAME has no other data beside it, RFC 2181 10.1).
 * - A removed RRset answers NODATA (RFC 2308 2.2); NXDOMAIN only when the live name does not exist.
 * - A name given records exists, and so does every name above it up to the domain (an empty
 *   non-terminal, RFC 8020): a live NXDOMAIN there becomes NODATA.
 *
 * DNSSEC: previewed records carry no signature (none exists yet). Their answer's AD bit is the
 * zone's as the validating resolver reports it live for the same question (signed data or signed
 * denial, RFC 4035 3.2.3), which is what the records will have once the zone's signer signs them;
 * each such RRset is reported through `judged` as a DNSSEC verdict the preview could not make
 * itself, instead of failing the checks that need a validated answer (DANE, RFC 7672 2.2).
 *
 * Nothing of the overlay enters the Resolver's cache: live questions are asked as any other.
 */
import { Cause, Effect, Exit, Option } from "effect"
import type { Upstream } from "../Config.ts"
import { normaliseName } from "../records/DomainName.ts"
import { type DnsAnswer, DnsError, type DnsRecord, type RecordType } from "./DnsTypes.ts"
import { formatData, parseData } from "./DnsWire.ts"
import { type Ask, type Query, type QueryOptions, queryOver, resolverOver } from "./ResolverShape.ts"

/** One record to lay over the live DNS, in presentation form (`value` is the zone file's rdata). */
export interface OverlayRecord {
  readonly name: string
  readonly type: RecordType
  readonly value: string
  readonly ttl?: number | undefined
}

/** An RRset to take away. */
export interface OverlayRemoval {
  readonly name: string
  readonly type: RecordType
}

export interface Overlay {
  readonly records: ReadonlyArray<OverlayRecord>
  readonly remove: ReadonlyArray<OverlayRemoval>
}

/** A verdict the preview could not make itself: the DNSSEC signature of an RRset given unsigned. */
export interface NotJudged {
  readonly name: string
  readonly type: string
  readonly reason: string
}

/** The TTL of a record given without one: an hour, a common zone default. */
export const DEFAULT_PREVIEW_TTL = 3600

/** Where the previewed answers say they came from (a DnsAnswer names its resolver). */
const PREVIEW = "preview"

/** CNAME hops followed before giving up, as the fake resolver does. */
const MAX_HOPS = 9

const key = (name: string, type: string) => `${name} ${type}`

/** The overlay as tables: RRsets by name and type, removals, and the names that exist because of it. */
const tablesOf = (overlay: Overlay) => {
  const sets = new Map<string, Array<DnsRecord>>()
  for (const r of overlay.records) {
    const name = normaliseName(r.name)
    const data = parseData(r.type, r.value)
    const record: DnsRecord = {
      name,
      type: r.type,
      ttl: r.ttl ?? DEFAULT_PREVIEW_TTL,
      data,
      text: formatData(r.type, data)
    }
    const k = key(name, r.type)
    sets.set(k, [...(sets.get(k) ?? []), record])
  }
  const removed = new Set(overlay.remove.map((r) => key(normaliseName(r.name), r.type)))
  const cnames = new Map<string, DnsRecord>()
  const owners = new Set<string>()
  for (const [k, records] of sets) {
    const [name = "", type = ""] = k.split(" ")
    if (type === "CNAME") cnames.set(name, records[0]!)
    else owners.add(name)
  }
  // Every name at or above a given one exists (the domain's own names; a name above the domain
  // exists anyway, so climbing past it changes no answer).
  const exists = new Set<string>()
  for (const k of sets.keys()) {
    const labels = k.split(" ")[0]!.split(".")
    for (let i = 0; i < labels.length - 1; i++) exists.add(labels.slice(i).join("."))
  }
  const touched = (name: string) =>
    exists.has(name) || cnames.has(name) || [...removed].some((r) => r.startsWith(`${name} `))
  return { sets, removed, cnames, owners, exists, touched }
}

const negative = (name: string, type: RecordType, live: DnsAnswer | undefined, nx: boolean): DnsAnswer => ({
  name,
  type,
  outcome: nx ? "nxdomain" : "nodata",
  rcode: nx ? "NXDOMAIN" : "NOERROR",
  flags: { aa: false, tc: false, ra: true, ad: live?.flags.ad ?? false, cd: live?.flags.cd ?? false },
  answers: [],
  authority: live?.authority ?? [],
  resolver: live?.resolver ?? PREVIEW,
  elapsedMs: live?.elapsedMs ?? 0,
  fromCache: false
})

/**
 * `live` with `overlay` laid over it; `judged` hears each RRset whose DNSSEC signature the
 * preview assumed (once per name and type).
 */
export const overlayQuery = (live: Query, overlay: Overlay, judged: (n: NotJudged) => void): Query => {
  const { sets, removed, cnames, owners, exists, touched } = tablesOf(overlay)
  const reported = new Set<string>()
  const report = (name: string, type: string) => {
    const k = key(name, type)
    if (reported.has(k)) return
    reported.add(k)
    judged({
      name,
      type,
      reason:
        "the zone is signed: the previewed records are taken as signed by its signer once published; their signatures are not checked"
    })
  }
  /** The live answer, or undefined when it failed: only its flags and authority are read. */
  const liveOf = (name: string, type: RecordType, options: QueryOptions | undefined) =>
    Effect.option(live(name, type, options))

  const ask = (
    rawName: string,
    type: RecordType,
    options: QueryOptions | undefined,
    hop: number
  ): Effect.Effect<DnsAnswer, DnsError> =>
    Effect.suspend(() => {
      const name = normaliseName(rawName)
      if (hop > MAX_HOPS)
        return Effect.fail(
          new DnsError({ name, type, reason: "servfail", message: "CNAME chain too long (preview)" })
        )
      const given = sets.get(key(name, type))
      if (given !== undefined)
        return Effect.map(liveOf(name, type, options), (was) => {
          const ad = was._tag === "Some" && was.value.flags.ad
          if (ad) report(name, type)
          return {
            name,
            type,
            outcome: "answer" as const,
            rcode: "NOERROR",
            flags: { aa: false, tc: false, ra: true, ad, cd: options?.checkingDisabled === true },
            answers: given,
            authority: [],
            resolver: PREVIEW,
            elapsedMs: 0,
            fromCache: false
          }
        })
      const alias = type === "CNAME" ? undefined : cnames.get(name)
      if (alias !== undefined)
        return Effect.flatMap(ask(String(alias.data), type, options, hop + 1), (rest) =>
          Effect.map(liveOf(name, "CNAME", options), (was) => {
            const signed = was._tag === "Some" && was.value.flags.ad
            if (signed) report(name, "CNAME")
            return {
              ...rest,
              name,
              type,
              flags: { ...rest.flags, ad: signed && rest.flags.ad },
              answers: [alias, ...rest.answers]
            }
          })
        )
      const gone = removed.has(key(name, type)) || (type === "CNAME" && owners.has(name))
      return Effect.flatMap(live(name, type, options), (answer): Effect.Effect<DnsAnswer, DnsError> => {
        const nx = answer.outcome === "nxdomain" && !exists.has(name)
        if (gone) return Effect.succeed(negative(name, type, answer, nx))
        if (answer.outcome === "nxdomain" && exists.has(name))
          return Effect.succeed(negative(name, type, answer, false))
        const first = answer.answers[0]
        if (type === "CNAME" || first?.type !== "CNAME" || normaliseName(first.name) !== name)
          return Effect.succeed(answer)
        // The live name is an alias: data given beside it replaced it; else the chain is followed
        // through the overlay when it reaches a name the overlay changed.
        if (owners.has(name) || removed.has(key(name, "CNAME")))
          return Effect.succeed(negative(name, type, answer, false))
        const chain = answer.answers.filter((r) => r.type === "CNAME")
        if (!chain.some((r) => touched(normaliseName(String(r.data))))) return Effect.succeed(answer)
        return Effect.map(ask(String(first.data), type, options, hop + 1), (rest) => ({
          ...rest,
          name,
          type,
          flags: { ...rest.flags, ad: answer.flags.ad && rest.flags.ad },
          answers: [...answer.answers.filter((r) => normaliseName(r.name) === name), ...rest.answers]
        }))
      })
    })
  return (name, type, options) => ask(name, type, options, 0)
}

/** `query` as the Resolver's callback `ask` (the overlay is no hot path: one fiber per question). */
const askOf =
  (query: Query): Ask =>
  (name, type, options, asked) =>
    Effect.runCallback(query(name, type, options), {
      onExit: (exit) =>
        asked.done(
          Exit.isSuccess(exit)
            ? exit
            : Exit.fail(
                Option.getOrElse(
                  Cause.failureOption(exit.cause),
                  () =>
                    new DnsError({ name, type, reason: "other", message: "the previewed question failed" })
                )
              )
        )
    })

/** The Resolver's shape over `live` with `overlay` laid over it. */
export const overlayResolver = (
  live: { readonly ask: Ask; readonly upstreams: ReadonlyArray<Upstream> },
  overlay: Overlay,
  judged: (n: NotJudged) => void
) => resolverOver(askOf(overlayQuery(queryOver(live.ask), overlay, judged)), live.upstreams)
