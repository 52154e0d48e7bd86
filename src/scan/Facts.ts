/**
 * The memoised per-domain facts of one scan (DESIGN.md principle 5): the MX set, the MX hosts'
 * addresses, TXT sets by name, the SPF graph, and typed room for further facts (policy fetches, ...).
 * Every check reads DNS through the scan's `Facts`, so a full scan asks each question once, however
 * many checks need it and however concurrently they run; failures are memoised too (a SERVFAIL stays
 * unknown for the whole scan instead of being retried by each check).
 *
 * Extend it with `Fact.define`: a keyed, typed computation memoised per scan.
 *
 *   const MtaStsPolicy = Fact.define("mta-sts/policy", (facts) => fetchPolicy(facts.domain))
 *   const policy = yield* facts.get(MtaStsPolicy)
 */
import { Context, Effect, Layer } from "effect"
import { type DnsError } from "../net/Dns.ts"
import { normalizeName, Resolver } from "../net/Resolver.ts"
import { analyse as analyseSpf, type SpfResult } from "../checks/spf/Spf.ts"
import {
  gather as gatherSpfGraph,
  type Addresses,
  type Outcome,
  type SpfDns,
  type SpfFetch
} from "../checks/spf/SpfGraph.ts"

export interface MxRecord {
  readonly priority: number
  readonly host: string
}

/** The domain's MX set as RFC 5321 5.1 and RFC 7505 read it. */
export interface MxSet {
  /** The MX records by priority; a null MX appears as host "" (RFC 7505 3: "0 ."). */
  readonly records: ReadonlyArray<MxRecord>
  /** The domain declares it accepts no mail: a single MX "0 ." (RFC 7505). */
  readonly nullMx: boolean
  /** A null MX mixed with other MX records: RFC 7505 3 says it MUST be the only one. */
  readonly nullMxMixed: boolean
  /** No MX records at all: senders fall back to the domain's own A/AAAA (RFC 5321 5.1). */
  readonly implicit: boolean
}

export interface MxHost extends MxRecord {
  readonly addresses: Outcome<Addresses>
}

/** A fact other checks can add: `key` must be unique (prefix it with the check's name). */
export interface Fact<A, E, R> {
  readonly key: string
  readonly compute: (facts: FactsShape) => Effect.Effect<A, E, R>
}

export const Fact = {
  define: <A, E = never, R = never>(
    key: string,
    compute: (facts: FactsShape) => Effect.Effect<A, E, R>
  ): Fact<A, E, R> => ({ key, compute })
}

export interface FactsShape {
  readonly domain: string
  /** TXT strings at a name (joined per RFC 7208 3.3), memoised per name. */
  readonly txt: SpfDns["txt"]
  /** A and AAAA of a host, memoised per host. */
  readonly addresses: SpfDns["addresses"]
  /** The three lookups above as one value, for modules written against `SpfDns`. */
  readonly dns: SpfDns
  readonly mxRecords: (
    domain: string
  ) => Effect.Effect<ReadonlyArray<{ readonly priority: number; readonly exchange: string }>, DnsError>
  /** The scanned domain's MX set. */
  readonly mx: Effect.Effect<MxSet, DnsError>
  /** Each real MX host with its addresses (a failed address lookup is kept per host as unknown). */
  readonly mxHosts: Effect.Effect<ReadonlyArray<MxHost>, DnsError>
  /** The gathered SPF graph of the domain (never fails: DNS failures are inside, as unknown). */
  readonly spfGraph: Effect.Effect<SpfFetch>
  readonly spf: Effect.Effect<SpfResult>
  /** A custom fact, computed at most once per scan. */
  readonly get: <A, E, R>(fact: Fact<A, E, R>) => Effect.Effect<A, E, R>
}

/** Memoises `f` per string key; concurrent first calls share one run (Effect.cached). */
const memoByKey = <A, E, R>(f: (key: string) => Effect.Effect<A, E, R>) => {
  const cache = new Map<string, Effect.Effect<A, E, R>>()
  return (key: string): Effect.Effect<A, E, R> =>
    Effect.suspend(() => {
      let cached = cache.get(key)
      if (cached === undefined) {
        // Effect.cached only allocates a deferred: running it synchronously is safe
        cached = Effect.runSync(Effect.cached(f(key)))
        cache.set(key, cached)
      }
      return cached
    })
}

const toOutcome = <A>(effect: Effect.Effect<A, DnsError>): Effect.Effect<Outcome<A>> =>
  effect.pipe(
    Effect.map((value): Outcome<A> => ({ ok: true, value })),
    Effect.catchAll((e) => Effect.succeed<Outcome<A>>({ ok: false, reason: e.reason, message: e.message }))
  )

/** RFC 7505 3 / RFC 5321 5.1 reading of an MX answer. */
export const mxSet = (
  answer: ReadonlyArray<{ readonly priority: number; readonly exchange: string }>
): MxSet => {
  const records = answer.map((r) => ({
    priority: r.priority,
    host: normalizeName(r.exchange) === "." ? "" : r.exchange
  }))
  const nulls = records.filter((r) => r.host === "")
  return {
    records,
    nullMx: nulls.length > 0 && records.length === 1,
    nullMxMixed: nulls.length > 0 && records.length > 1,
    implicit: records.length === 0
  }
}

/** Builds the facts of one domain over the given DNS lookups (memoising each question). */
export const makeWith = (dns: Pick<Resolver, "txt" | "addresses" | "mx">, rawDomain: string): FactsShape => {
  const domain = normalizeName(rawDomain)
  const txt = memoByKey((name) => dns.txt(name))
  const addresses = memoByKey((host) => dns.addresses(host))
  const mxRecords = memoByKey((name) => dns.mx(name))
  const lookups: SpfDns = {
    txt: (name) => txt(normalizeName(name)),
    addresses: (host) => addresses(normalizeName(host)),
    mx: (name) => mxRecords(normalizeName(name))
  }
  const mx = lookups.mx(domain).pipe(Effect.map(mxSet))
  const mxHosts = mx.pipe(
    Effect.flatMap((set) =>
      Effect.forEach(
        set.records.filter((r) => r.host !== ""),
        (r) => toOutcome(lookups.addresses(r.host)).pipe(Effect.map((a): MxHost => ({ ...r, addresses: a }))),
        { concurrency: 4 }
      )
    )
  )
  const spfGraph = gatherSpfGraph(lookups, domain)
  const custom = new Map<string, Effect.Effect<unknown, unknown, unknown>>()
  const self: FactsShape = {
    domain,
    txt: lookups.txt,
    addresses: lookups.addresses,
    dns: lookups,
    mxRecords: lookups.mx,
    mx: Effect.runSync(Effect.cached(mx)),
    mxHosts: Effect.runSync(Effect.cached(mxHosts)),
    spfGraph: Effect.runSync(Effect.cached(spfGraph)),
    spf: Effect.runSync(
      Effect.cached(Effect.suspend(() => self.spfGraph).pipe(Effect.map((g) => analyseSpf(domain, g))))
    ),
    get: <A, E, R>(fact: Fact<A, E, R>) =>
      Effect.suspend(() => {
        let cached = custom.get(fact.key)
        if (cached === undefined) {
          cached = Effect.runSync(Effect.cached(fact.compute(self))) as Effect.Effect<
            unknown,
            unknown,
            unknown
          >
          custom.set(fact.key, cached)
        }
        return cached as Effect.Effect<A, E, R>
      })
  }
  return self
}

/** The scan's facts, provided per scanned domain (`Facts.layer(domain)`). */
export class Facts extends Context.Tag("Facts")<Facts, FactsShape>() {
  /** Facts for `domain` over the Resolver (its cache and in-flight sharing still apply underneath). */
  static make = (domain: string): Effect.Effect<FactsShape, never, Resolver> =>
    Effect.map(Resolver, (resolver) => makeWith(resolver, domain))

  static layer = (domain: string): Layer.Layer<Facts, never, Resolver> =>
    Layer.effect(Facts, Facts.make(domain))
}
