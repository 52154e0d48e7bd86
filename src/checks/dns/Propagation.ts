/**
 * Propagation: what each configured public resolver answers right now for one name and type,
 * bypassing our cache, and whether they agree (SPEC "Propagation result", union of shapes A and B).
 * A resolver that times out or fails is reported as failed: it neither agrees nor disagrees.
 */
import { Clock, Effect, Either } from "effect"
import { AppConfig, type PropagationResolver } from "../../Config.ts"
import type { DnsAnswer, DnsError, RecordType } from "../../net/Dns.ts"
import { joinTxt } from "../../net/DnsWire.ts"
import { normalizeName, Resolver } from "../../net/Resolver.ts"

export interface PropagationFacts {
  readonly domain: string
  readonly type: RecordType
  readonly results: ReadonlyArray<{
    readonly resolver: PropagationResolver
    readonly result: Either.Either<DnsAnswer, DnsError>
    readonly elapsedMs: number
  }>
}

export interface PropagationEntry {
  // shape A
  readonly server: string
  readonly location: string
  readonly value: ReadonlyArray<string>
  readonly response_time: number
  // shape B
  readonly resolver: { readonly ip: string; readonly name: string; readonly country: string }
  readonly records: ReadonlyArray<{ readonly type: string; readonly data: string }>
  readonly responseTime: number
  readonly success: boolean
  // ours
  /** "match" agrees with the consensus, "differs" does not, "failed" gave no usable answer. */
  readonly status: "match" | "differs" | "failed"
  readonly outcome: string
  readonly ttl: number | null
  readonly error: string | null
}

export interface PropagationResult {
  readonly success: boolean
  readonly domain: string
  readonly type: string
  readonly recordType: string
  readonly propagated: boolean
  /** Resolvers that answered (NOERROR, NODATA or NXDOMAIN); failed ones are in `servers_failed`. */
  readonly servers_checked: number
  readonly servers_matching: number
  readonly servers_failed: number
  readonly servers_total: number
  /** The answer most resolvers gave (sorted values); [] for NODATA/NXDOMAIN. */
  readonly consensus: ReadonlyArray<string>
  readonly results: ReadonlyArray<PropagationEntry>
  readonly timestamp: string
}

/** Asks every propagation resolver concurrently, each directly and fresh. */
export const gather = Effect.fn("Propagation.gather")(function* (name: string, type: RecordType) {
  const resolver = yield* Resolver
  const config = yield* AppConfig
  const domain = normalizeName(name)
  const results = yield* Effect.forEach(
    config.propagationResolvers,
    (upstream) =>
      Effect.gen(function* () {
        const start = yield* Clock.currentTimeMillis
        const result = yield* Effect.either(resolver.query(domain, type, { upstream, fresh: true }))
        const end = yield* Clock.currentTimeMillis
        const elapsedMs = Either.isRight(result) ? result.right.elapsedMs : end - start
        return { resolver: upstream, result, elapsedMs }
      }),
    { concurrency: "unbounded" }
  )
  return { domain, type, results } satisfies PropagationFacts
})

/** The comparable value of a record: TXT joined, names lower-cased, presentation otherwise. */
const valueOf = (r: DnsAnswer["answers"][number]): string =>
  r.type === "TXT" ? joinTxt(r.data as ReadonlyArray<string>) : r.text.toLowerCase()

const keyOf = (values: ReadonlyArray<string>) => JSON.stringify(values)

/** Pure and total. `propagated` is true when at least one resolver answered and all that answered agree. */
export const analyse = (facts: PropagationFacts, now: Date): PropagationResult => {
  const answered = facts.results.map(({ resolver, result, elapsedMs }) => {
    if (Either.isLeft(result))
      return { resolver, elapsedMs, answer: undefined, error: result.left, values: [] }
    const relevant = result.right.answers.filter((r) => r.type === facts.type)
    const values = [...new Set(relevant.map(valueOf))].sort()
    return { resolver, elapsedMs, answer: result.right, error: undefined, values, relevant }
  })
  // Consensus: the most common answer among resolvers that answered (ties: the first seen).
  const counts = new Map<string, { values: ReadonlyArray<string>; n: number }>()
  for (const a of answered)
    if (a.answer) {
      const k = keyOf(a.values)
      counts.set(k, { values: a.values, n: (counts.get(k)?.n ?? 0) + 1 })
    }
  const best = [...counts.values()].reduce<{ values: ReadonlyArray<string>; n: number } | undefined>(
    (acc, c) => (acc === undefined || c.n > acc.n ? c : acc),
    undefined
  )
  const consensusKey = best ? keyOf(best.values) : undefined
  const results: Array<PropagationEntry> = answered.map((a) => {
    const ok = a.answer !== undefined
    const relevant = a.answer ? a.answer.answers.filter((r) => r.type === facts.type) : []
    return {
      server: a.resolver.name,
      location: a.resolver.location,
      value: a.values,
      response_time: Math.round(a.elapsedMs),
      resolver: { ip: a.resolver.address, name: a.resolver.name, country: a.resolver.country },
      records: relevant.map((r) => ({ type: r.type, data: valueOf(r) })),
      responseTime: Math.round(a.elapsedMs),
      success: ok,
      status: !ok ? "failed" : keyOf(a.values) === consensusKey ? "match" : "differs",
      outcome: a.answer ? a.answer.outcome : (a.error?.reason ?? "failed"),
      ttl: relevant.length > 0 ? Math.min(...relevant.map((r) => r.ttl)) : null,
      error: a.error ? a.error.message : null
    }
  })
  const checked = results.filter((r) => r.success).length
  const matching = results.filter((r) => r.status === "match").length
  return {
    success: checked > 0,
    domain: facts.domain,
    type: facts.type,
    recordType: facts.type,
    propagated: checked > 0 && matching === checked,
    servers_checked: checked,
    servers_matching: matching,
    servers_failed: results.length - checked,
    servers_total: results.length,
    consensus: best?.values ?? [],
    results,
    timestamp: now.toISOString()
  }
}
