/**
 * The Resolver's shape, whatever engine answers: the options of a question, the callback `ask`
 * and the Effect `query` over it, and the lookups every check uses (TXT, addresses, MX, PTR).
 */
import { Clock, Context, Effect, Fiber, Option } from "effect"
import type { Upstream } from "../Config.ts"
import type { MxData } from "../records/DnsRdata.ts"
import type { Asked } from "./DnsCache.ts"
import { type DnsAnswer, DnsError, type DnsRecord, type RecordType } from "./DnsTypes.ts"
import { reverseName, txtOf } from "./DnsWire.ts"

export interface QueryOptions {
  /** Bypass our cache and in-flight sharing (propagation checks want what the upstream says now). */
  readonly fresh?: boolean
  /** Set the CD bit (RFC 4035 3.2.2): the upstream skips validation, which tells bogus from broken. */
  readonly checkingDisabled?: boolean
  /** Ask exactly this server, no rotation to others. */
  readonly upstream?: Upstream
}

export type Query = (
  name: string,
  type: RecordType,
  options?: QueryOptions
) => Effect.Effect<DnsAnswer, DnsError>

/**
 * One question, callback style: `asked.done` hears its outcome exactly once. No fiber, no Effect:
 * the asker decides how to wait (`queryOver` resumes a fiber; a scan's Facts keeps a table).
 */
export type Ask = (name: string, type: RecordType, options: QueryOptions, asked: Asked) => void

/**
 * The asker behind `query`: its fiber and its `resume`. An object rather than closures: a query is
 * the hot path, and each closure per query costs an allocation.
 */
class FiberAsked implements Asked {
  constructor(
    private readonly fiber: Fiber.RuntimeFiber<DnsAnswer, DnsError>,
    readonly done: Asked["done"]
  ) {}

  /**
   * When it asked, by the fiber's own Clock (a TestClock in tests), read without a further Effect
   * layer. Read only by the cache, while the question is asked (a `fresh` one never reads it).
   */
  get now() {
    return Context.get(this.fiber.currentDefaultServices, Clock.Clock).unsafeCurrentTimeMillis()
  }

  wanted() {
    return this.fiber.unsafePoll() === null
  }
}

/** `ask` as an Effect: the asking fiber waits; once it is interrupted, nobody does (no further attempt). */
export const queryOver =
  (ask: Ask): Query =>
  (name, type, options = {}) =>
    // No interruption handler: Effect wraps an `async` that returns a canceller in an
    // `onInterrupt`, which tripled the Effect cost of a query (5-7 µs of ~15); an interrupted
    // fiber ignores a late resume, and `wanted` tells the question that nobody waits.
    Effect.async<DnsAnswer, DnsError>((resume) => {
      // The asking fiber runs this (Effect calls it from the fiber's run loop): taken here rather
      // than through `withFiberRuntime`, one Effect step and its allocations fewer per query.
      const fiber = Option.getOrThrow(Fiber.getCurrentFiber()) as Fiber.RuntimeFiber<DnsAnswer, DnsError>
      ask(name, type, options, new FiberAsked(fiber, resume))
    })

const ofType = (answer: DnsAnswer, type: string): ReadonlyArray<DnsRecord> =>
  answer.answers.filter((r) => r.type === type)

/** The addresses of a host from its A and AAAA answers. */
export const addressesOf = (a: DnsAnswer, aaaa: DnsAnswer) => ({
  v4: ofType(a, "A").map((r) => String(r.data)),
  v6: ofType(aaaa, "AAAA").map((r) => String(r.data))
})

/**
 * The convenience lookups every check uses, built on `query` (a scan's Facts build them on its
 * memoised one). No span each: a span captures a stack trace and costs ~6 KB while it waits and
 * more CPU than the DNS exchange (scripts/bench/scanMemory.ts); a DKIM sweep made ~160 per scan.
 */
export const lookupsOver = (query: Query, upstreams: ReadonlyArray<Upstream>) => ({
  query,
  upstreams,
  /** TXT strings of each record, joined per RFC 7208 3.3; NODATA / NXDOMAIN give []. */
  txt: (name: string) => Effect.map(query(name, "TXT"), txtOf),
  /** A and AAAA concurrently; a failure of either fails the whole (unknown is not "no address"). */
  addresses: (host: string) =>
    Effect.zipWith(query(host, "A"), query(host, "AAAA"), addressesOf, { concurrent: true }),
  /** MX records by priority (RFC 5321 5.1); a null MX (RFC 7505) appears as exchange "". */
  mx: (domain: string) =>
    Effect.map(query(domain, "MX"), (answer) =>
      ofType(answer, "MX")
        .map((r) => r.data as MxData)
        .map((d) => ({ priority: d.priority, exchange: d.exchange }))
        .sort((x, y) => x.priority - y.priority || x.exchange.localeCompare(y.exchange))
    ),
  /** PTR names of an address (RFC 1035 3.5, RFC 3596 2.5). */
  ptr: (ip: string) => {
    const name = reverseName(ip)
    if (!name)
      return Effect.fail(
        new DnsError({ name: ip, type: "PTR", reason: "other", message: `${ip} is not an IP address` })
      )
    return Effect.map(query(name, "PTR"), (answer) => ofType(answer, "PTR").map((r) => String(r.data)))
  }
})

/** The Resolver's shape over an `ask`: `query` and the lookups derive from it. */
export const resolverOver = (ask: Ask, upstreams: ReadonlyArray<Upstream>) => ({
  ask,
  ...lookupsOver(queryOver(ask), upstreams)
})
