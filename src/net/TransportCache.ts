/**
 * The transport cache: what a server, a resolver or a registry said, learnt once and shared across
 * every scan of the process. The one mechanism under every such cache (DNS answers, DnsCache.ts;
 * probes of mail and web servers, ProbeCache.ts; RDAP, Rdap.ts), and under the results of the
 * service's own work shared across requests (scan/Shared.ts: whole scans, the e-mail check, the
 * CSP crawl, report summaries), so they keep and share alike:
 *
 * - concurrent askers of one key share one flight: one question, one outcome for all;
 * - an outcome is kept for as long as the cache's policy says for it (`keepMs`): per answer (a DNS
 *   TTL), shorter for a failure (an RDAP question that failed: a minute); 0 keeps it for nobody but
 *   the askers already waiting;
 * - a flight nobody waits for any more may be given up (`leave`, `onGiveUp`), so a crowd that went
 *   away does not leave its work running;
 * - at most `capacity` outcomes are kept, the least recently used dropped first (a Map keeps
 *   insertion order; a hit moves its entry to the end), so a batch of 1,000 scans in flight holds a
 *   fixed amount of memory. In a cluster each runner has its own.
 *
 * The core is callback style (`TransportCache`): no fiber or Effect per entry, as the resolver keeps
 * tens of thousands of questions in flight (`docs/bench.md`). `makeTransportCache` is its door for
 * Effect lookups, counting the wait of a scan that joins another's probe on its queue clock.
 */
import { Cause, Clock, Effect, Exit, FiberRef } from "effect"
import * as M from "../observe/Metrics.ts"
import { CurrentQueueClock, QueueClock } from "../bounds/QueueClock.ts"

/** One asker of a key, callback style. */
export interface Asker<A, E> {
  /** The asker's clock (ms; Effect's `Clock`, so tests can move it): ages count from it. */
  readonly now: number
  /** Whether the asker still waits; when nobody does, the flight may give up. */
  readonly wanted: () => boolean
  /** Called exactly once with the outcome (also when nobody waits any more). */
  readonly done: (exit: Exit.Exit<A, E>) => void
}

/** A flight as its starter sees it: `land` may give the time its outcome's age counts from. */
export interface Flight<A, E> extends Asker<A, E> {
  readonly land: (exit: Exit.Exit<A, E>, at: number) => void
  /** How to stop the work when every asker has left (`TransportCache.leave`); none by default. */
  readonly onGiveUp: (stop: () => void) => void
}

export interface TransportCachePolicy<A, E> {
  /** Outcomes kept at most (at least 1). */
  readonly capacity: number
  /** How long an outcome is kept, in ms from when it was asked or landed; 0 or less: not kept. */
  readonly keepMs: (exit: Exit.Exit<A, E>) => number
  /** A kept answer as served to an asker at `now` (DNS counts its TTLs down); default: as kept. */
  readonly served?: (value: A, at: number, now: number) => A
}

/** Where an asker's outcome came from: kept, a flight already under way, or a new flight. */
export type Source = "cache" | "shared" | "upstream"

interface Kept<A, E> {
  readonly exit: Exit.Exit<A, E>
  /** When it was asked (or landed), and until when it may be served (ms of the askers' clock). */
  readonly at: number
  readonly until: number
}

export class TransportCache<A, E> {
  private readonly kept = new Map<string, Kept<A, E>>()
  private readonly flights = new Map<string, OneFlight<A, E>>()
  private readonly capacity: number
  constructor(private readonly policy: TransportCachePolicy<A, E>) {
    this.capacity = Math.max(1, policy.capacity)
  }

  /** Answers `asker` from what is kept or a flight under way; else starts a flight with `start`. */
  ask(key: string, asker: Asker<A, E>, start: (flight: Flight<A, E>) => void): Source {
    const kept = this.kept.get(key)
    if (kept) {
      this.kept.delete(key)
      if (asker.now < kept.until) {
        this.kept.set(key, kept)
        const { served } = this.policy
        asker.done(
          served && Exit.isSuccess(kept.exit)
            ? Exit.succeed(served(kept.exit.value, kept.at, asker.now))
            : kept.exit
        )
        return "cache"
      }
    }
    const waiting = this.flights.get(key)
    if (waiting) {
      waiting.askers.push(asker)
      return "shared"
    }
    const flight = new OneFlight(this, key, asker)
    this.flights.set(key, flight)
    start(flight)
    return "upstream"
  }

  /** Whether an asker of `key` at `now` would be answered by what is kept or a flight under way. */
  answers(key: string, now: number): boolean {
    const kept = this.kept.get(key)
    return (kept !== undefined && now < kept.until) || this.flights.has(key)
  }

  /**
   * `asker` of `key` stopped waiting (its `wanted` is now false). When no asker of its flight wants
   * it any more, the flight is given up: the next asker starts a new one, and the starter's `stop`
   * (`onGiveUp`) ends the work, whose outcome then goes to nobody. Askers that are asked through
   * `wanted` (the resolver's) need not call it.
   */
  leave(key: string, asker: Asker<A, E>) {
    const flight = this.flights.get(key)
    if (flight === undefined || !flight.askers.includes(asker) || flight.wanted()) return
    this.flights.delete(key)
    flight.giveUp()
  }

  /** A flight's outcome: kept (if the policy keeps it), then told to every asker. */
  landed(key: string, flight: OneFlight<A, E>, exit: Exit.Exit<A, E>, at: number) {
    if (this.flights.get(key) === flight) this.flights.delete(key)
    const ms = this.policy.keepMs(exit)
    if (ms > 0) {
      this.kept.set(key, { exit, at, until: at + ms })
      while (this.kept.size > this.capacity) this.kept.delete(this.kept.keys().next().value!)
    }
    for (const a of flight.askers) a.done(exit)
  }

  /** Outcomes kept now (expired ones included until asked again or evicted). */
  get size() {
    return this.kept.size
  }
}

/**
 * One key on its way for all its askers. A class rather than closures: the resolver keeps tens of
 * thousands in flight, and two closures and their context cost more than this object.
 */
class OneFlight<A, E> implements Flight<A, E> {
  readonly now: number
  readonly askers: Array<Asker<A, E>>
  private landedYet = false
  private stop: (() => void) | undefined
  constructor(
    private readonly cache: TransportCache<A, E>,
    private readonly key: string,
    first: Asker<A, E>
  ) {
    this.now = first.now
    this.askers = [first]
  }

  wanted() {
    return this.askers.some((a) => a.wanted())
  }

  /** The outcome, its age counted from when the first asker asked (RFC 1035 3.2.1 for DNS). */
  done(exit: Exit.Exit<A, E>) {
    this.land(exit, this.now)
  }

  land(exit: Exit.Exit<A, E>, at: number) {
    if (this.landedYet) return
    this.landedYet = true
    this.cache.landed(this.key, this, exit, at)
  }

  onGiveUp(stop: () => void) {
    this.stop = stop
  }

  giveUp() {
    this.stop?.()
  }
}

/** An Effect caller's place among a key's askers: it hears the outcome at once or later. */
class Waiter<A> implements Asker<A, never> {
  exit: Exit.Exit<A> | undefined
  resume: ((exit: Exit.Exit<A>) => void) | undefined
  waiting = true
  constructor(readonly now: number) {}
  wanted() {
    return this.waiting
  }
  done(exit: Exit.Exit<A>) {
    this.exit = exit
    this.resume?.(exit)
  }
}

export interface TransportCacheOptions<A> {
  /**
   * How long an answer is kept after it landed: one figure, or one per answer (RDAP keeps a failed
   * question shorter). A TTL of 0 still shares a question in flight. Defects are never kept.
   */
  readonly ttlMs: number | ((answer: A) => number)
  readonly capacity: number
}

/**
 * Answers keyed by `K` (its text form, `keyText`, is the cache key) from an Effect `lookup` run in
 * the fiber of the caller that starts it; `kind` labels the metric `domain_audit_probe_cache_total`
 * (`hit`: kept or under way, `miss`: asked). `lookup` gets the key parsed from its text and, second,
 * the key as that caller gave it: a text may leave out what only the flight needs (the name a TLS
 * enumeration shared per address is made under, ProbeCache.ts `makeAddressProbeCache`).
 */
export const makeTransportCache = <K, A>(
  kind: string,
  keyText: (key: K) => string,
  parseKey: (text: string) => K,
  lookup: (key: K, asked: K) => Effect.Effect<A>,
  options: TransportCacheOptions<A>
) =>
  Effect.sync(() => {
    const ttlOf = options.ttlMs
    const hit = M.labels({ kind, source: "hit" })
    const miss = M.labels({ kind, source: "miss" })
    const cache = new TransportCache<A, never>({
      capacity: options.capacity,
      keepMs: (exit) => (Exit.isSuccess(exit) ? (typeof ttlOf === "number" ? ttlOf : ttlOf(exit.value)) : 0)
    })
    /**
     * Keys probed now, with each probe's own queue clock: it counts the probe's waits for permits
     * on the prober's scan and on every scan that joined the probe (`QueueClock.ts`).
     */
    const probing = new Map<string, QueueClock>()

    /**
     * The starter runs the lookup in its own fiber, on a queue clock its joiners follow. Only the
     * lookup is interruptible (`restore`): once started, a flight always lands, or its joiners and
     * every later asker of the key would wait for it for ever.
     */
    const fly = (
      text: string,
      asked: K,
      flight: Flight<A, never>,
      restore: <X>(effect: Effect.Effect<X>) => Effect.Effect<X>
    ): Effect.Effect<A> =>
      Effect.flatMap(FiberRef.get(CurrentQueueClock), (prober) => {
        const clock = new QueueClock()
        const unfollow = prober === undefined ? undefined : clock.forward(prober)
        probing.set(text, clock)
        return restore(Effect.locally(lookup(parseKey(text), asked), CurrentQueueClock, clock)).pipe(
          Effect.onExit((exit) =>
            Effect.map(Clock.currentTimeMillis, (at) => {
              probing.delete(text)
              unfollow?.()
              flight.land(exit, at)
            })
          )
        )
      })

    /** A joiner waits for the flight, counting on its scan the time the probe queues meanwhile. */
    const join = (text: string, waiter: Waiter<A>): Effect.Effect<A> =>
      Effect.flatMap(FiberRef.get(CurrentQueueClock), (mine) => {
        const wait = Effect.async<A>((resume) => {
          if (waiter.exit !== undefined) return resume(waiter.exit)
          waiter.resume = resume
          return Effect.sync(() => {
            waiter.waiting = false
            waiter.resume = undefined
          })
        })
        const probe = probing.get(text)
        if (mine === undefined || probe === undefined) return wait
        return Effect.acquireUseRelease(
          Effect.sync(() => probe.forward(mine)),
          () => wait,
          (unfollow) => Effect.sync(unfollow)
        )
      })

    const once = (text: string, asked: K): Effect.Effect<A> =>
      Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const waiter = new Waiter<A>(now)
          let flight: Flight<A, never> | undefined
          const source = cache.ask(text, waiter, (f) => void (flight = f))
          M.probeCache.unsafeUpdate(1, source === "upstream" ? miss : hit)
          if (flight !== undefined) return fly(text, asked, flight, restore)
          return waiter.exit ?? restore(join(text, waiter))
        })
      )

    /** The answer for `key`: remembered, shared with a question under way, or asked now. */
    const get = (key: K): Effect.Effect<A> => {
      const text = keyText(key)
      // Concurrent callers share the first caller's probe; when that caller is interrupted (its
      // client went away), the others see an interruption that is not theirs: ask again.
      return once(text, key).pipe(
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause) ? once(text, key) : Effect.failCause(cause)
        )
      )
    }
    return { get } as const
  })
