/**
 * Propagation: what each configured public resolver answers right now for one name and type,
 * bypassing our cache, and whether they agree (SPEC "Propagation result", union of shapes A and B).
 * A resolver that times out or fails is reported as failed: it neither agrees nor disagrees.
 */
import { Clock, Effect, Either, Schema } from "effect"
import { AppConfig, type PropagationResolver } from "../../Config.ts"
import type { DnsAnswer, DnsError, RecordType } from "../../net/DnsTypes.ts"
import { joinTxt } from "../../net/DnsWire.ts"
import { DateTime, Strings } from "../../records/Schemas.ts"
import { define } from "../../kernel/Check.ts"
import { Facts } from "../../kernel/Facts.ts"

export interface PropagationFacts {
  readonly domain: string
  readonly type: RecordType
  readonly results: ReadonlyArray<{
    readonly resolver: PropagationResolver
    readonly result: Either.Either<DnsAnswer, DnsError>
    readonly elapsedMs: number
  }>
}

export const PropagationEntry = Schema.Struct({
  // shape A
  server: Schema.String,
  location: Schema.String,
  value: Strings,
  response_time: Schema.Int,
  // shape B
  resolver: Schema.Struct({ ip: Schema.String, name: Schema.String, country: Schema.String }),
  records: Schema.Array(Schema.Struct({ type: Schema.String, data: Schema.String })),
  responseTime: Schema.Int,
  success: Schema.Boolean,
  // ours
  /** "match" agrees with the consensus, "differs" does not, "failed" gave no usable answer. */
  status: Schema.Literal("match", "differs", "failed"),
  outcome: Schema.String,
  ttl: Schema.NullOr(Schema.Int),
  error: Schema.NullOr(Schema.String)
})
export type PropagationEntry = typeof PropagationEntry.Type

/** The union of propagation shapes A and B; each result item carries both item forms. */
export const PropagationResult = Schema.Struct({
  success: Schema.Boolean,
  domain: Schema.String,
  type: Schema.String,
  recordType: Schema.String,
  propagated: Schema.Boolean.annotations({
    description:
      "true when at least one resolver answered and all that answered agree (failed ones are ignored)"
  }),
  recordExists: Schema.Boolean.annotations({
    description:
      "whether the consensus holds records: 'every resolver agrees there is nothing' is propagated: true with recordExists: false"
  }),
  servers_checked: Schema.Int.annotations({ description: "resolvers that answered" }),
  servers_matching: Schema.Int,
  servers_failed: Schema.Int,
  servers_total: Schema.Int,
  /** The answer most resolvers gave (sorted values); [] for NODATA/NXDOMAIN. */
  consensus: Strings,
  results: Schema.Array(PropagationEntry),
  timestamp: DateTime
})
export type PropagationResult = typeof PropagationResult.Type

/** Asks every propagation resolver concurrently, each directly and fresh (`Facts.queryAt`). */
export const gatherType = (type: RecordType) =>
  Effect.gen(function* () {
    const facts = yield* Facts
    const config = yield* AppConfig
    const results = yield* Effect.forEach(
      config.propagationResolvers,
      (upstream) =>
        Effect.gen(function* () {
          const start = yield* Clock.currentTimeMillis
          const result = yield* Effect.either(facts.queryAt(upstream, facts.domain, type))
          const end = yield* Clock.currentTimeMillis
          const elapsedMs = Either.isRight(result) ? result.right.elapsedMs : end - start
          return { resolver: upstream, result, elapsedMs }
        }),
      { concurrency: "unbounded" }
    )
    return { domain: facts.domain, type, results } satisfies PropagationFacts
  }).pipe(Effect.withSpan("Propagation.gather"))

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
    recordExists: (best?.values ?? []).length > 0,
    results,
    timestamp: now.toISOString()
  }
}

/**
 * The A records as every propagation resolver sees them. Not in the registry: a full scan must not
 * ask eight public resolvers; `GET /dns/propagation` runs it (or another type) on demand.
 */
export const Propagation = define(
  { id: "propagation", title: "DNS propagation", category: "dns", result: PropagationResult },
  { gather: gatherType("A"), analyse }
)
