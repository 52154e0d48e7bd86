/**
 * The transport cache: what a server or registry said, learnt once and shared across every scan
 * of the process. Concurrent callers for one key share one question in flight; answers are kept
 * for a time-to-live that may depend on the answer (RDAP keeps a failure a minute, a registration
 * for RDAP_CACHE_TTL); bounded in entries, least recently used dropped first, so a batch of 1,000
 * scans in flight keeps a fixed amount of memory. In a cluster each runner has its own.
 *
 * Probes (`makeProbeCache`) are keyed by (address, port, SNI name). The SNI is part of the key
 * because a server may present another certificate for another name (RFC 6066 3), so a result
 * for one name never answers another. Only what the server said and presented belongs here
 * (banner, EHLO, STARTTLS, TLS version, chain); a domain's judgement of it (names, DANE, MTA-STS
 * coverage) runs per domain on top. `Smtp` and the TLS scans build theirs with `makeProbeCache`,
 * RDAP (keyed by domain) with `makeTransportCache`.
 *
 * DNS answers have their own cache (DnsCache.ts): per-record TTLs counted down as answers are
 * served (RFC 1035 3.2.1), callback style for the batch's tens of thousands of questions in flight.
 */
import { Cache, Cause, Duration, Effect, Exit, FiberRef } from "effect"
import * as M from "../observe/Metrics.ts"
import { CurrentQueueClock, QueueClock } from "../bounds/QueueClock.ts"

export interface ProbeKey {
  readonly address: string
  readonly port: number
  /** The name sent as SNI and expected in the certificate, lower case without a trailing dot. */
  readonly sni: string
}

export interface ProbeCacheOptions {
  readonly ttlMs: number
  readonly capacity: number
}

export interface TransportCacheOptions<A> {
  /** How long an answer is kept: one figure, or one per answer. A TTL of 0 still shares a question in flight. */
  readonly ttlMs: number | ((answer: A) => number)
  readonly capacity: number
}

/** The cache key's text form: the fields cannot contain NUL, so it is unambiguous. */
const keyText = (key: ProbeKey) => `${key.address}\u0000${key.port}\u0000${normalSni(key.sni)}`

const parseKey = (text: string): ProbeKey => {
  const [address = "", port = "0", sni = ""] = text.split("\u0000")
  return { address, port: Number(port), sni }
}

/** SNI names compare as DNS names do: case-insensitively, the root's trailing dot dropped. */
export const normalSni = (name: string) => name.toLowerCase().replace(/\.$/, "")

/** Transport probes keyed by (address, port, SNI name). */
export const makeProbeCache = <A>(
  kind: string,
  lookup: (key: ProbeKey) => Effect.Effect<A>,
  options: ProbeCacheOptions
) => makeTransportCache(kind, keyText, parseKey, lookup, options)

/**
 * Answers keyed by `K`, whose text form (`keyText`, read back by `parseKey`) is the cache key;
 * `kind` labels the metric `domain_audit_probe_cache_total`.
 */
export const makeTransportCache = <K, A>(
  kind: string,
  keyText: (key: K) => string,
  parseKey: (text: string) => K,
  lookup: (key: K) => Effect.Effect<A>,
  options: TransportCacheOptions<A>
) =>
  Effect.gen(function* () {
    const ttlOf = options.ttlMs
    const hit = M.labels({ kind, source: "hit" })
    const miss = M.labels({ kind, source: "miss" })
    /**
     * Keys probed now, with each probe's own queue clock: it counts the probe's waits for permits
     * on the prober's scan and on every scan that joined the probe (`QueueClock.ts`).
     */
    const probing = new Map<string, QueueClock>()
    const cache = yield* Cache.makeWith({
      capacity: Math.max(1, options.capacity),
      // A TTL of 0 still shares a question in flight; its answer is dropped at once.
      timeToLive: (exit: Exit.Exit<A>) =>
        Duration.millis(
          Math.max(0, Exit.isSuccess(exit) ? (typeof ttlOf === "number" ? ttlOf : ttlOf(exit.value)) : 0)
        ),
      lookup: (text: string) =>
        Effect.flatMap(FiberRef.get(CurrentQueueClock), (prober) => {
          const clock = new QueueClock()
          const unfollow = prober === undefined ? undefined : clock.forward(prober)
          probing.set(text, clock)
          return Effect.ensuring(
            Effect.locally(lookup(parseKey(text)), CurrentQueueClock, clock),
            Effect.sync(() => {
              probing.delete(text)
              unfollow?.()
            })
          )
        })
    })
    const once = (text: string) =>
      cache.getEither(text).pipe(
        Effect.tap((result) => M.probeCache.unsafeUpdate(1, result._tag === "Left" ? hit : miss)),
        Effect.map((result) => (result._tag === "Left" ? result.left : result.right))
      )
    /** `once`, counting on the caller's scan the time a probe under way that it joins queues. */
    const joined = (text: string) =>
      Effect.flatMap(FiberRef.get(CurrentQueueClock), (mine) => {
        const probe = probing.get(text)
        if (mine === undefined || probe === undefined) return once(text)
        return Effect.acquireUseRelease(
          Effect.sync(() => probe.forward(mine)),
          () => once(text),
          (unfollow) => Effect.sync(unfollow)
        )
      })
    /** The answer for `key`: remembered, shared with a question under way, or asked now. */
    const get = (key: K): Effect.Effect<A> => {
      const text = keyText(key)
      // Concurrent callers share the first caller's probe; when that caller is interrupted (its
      // client went away), the others see an interruption that is not theirs: ask again.
      return joined(text).pipe(
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause) ? joined(text) : Effect.failCause(cause)
        )
      )
    }
    return { get } as const
  })

export type ProbeCache<A> = Effect.Effect.Success<ReturnType<typeof makeProbeCache<A>>>
export type TransportCache<K, A> = Effect.Effect.Success<ReturnType<typeof makeTransportCache<K, A>>>
