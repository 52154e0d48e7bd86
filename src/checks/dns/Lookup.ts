/**
 * DNS lookup: the records of a domain for a set of types, as the resolver sees them
 * (SPEC "DNS lookup result", shape B, plus shape A's non-conflicting fields).
 * A type whose lookup failed is absent from `records` and listed in `errors`: unknown, not empty.
 */
import { Clock, Effect, Either } from "effect"
import {
  CommonRecordTypes,
  type DnsAnswer,
  type DnsError,
  type RecordType,
  RecordTypes
} from "../../net/DnsTypes.ts"
import { joinTxt } from "../../net/DnsWire.ts"
import { define } from "../../kernel/Check.ts"
import { Facts } from "../../kernel/Facts.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { LookupResult, LookupRecord } from "./LookupResult.ts"

export * from "./LookupResult.ts"

/** The types asked when the caller names none (SPEC: "default all types"). */
export const DEFAULT_TYPES: ReadonlyArray<RecordType> = CommonRecordTypes

/** `type` or a comma list in `types` (or both), upper-cased and de-duplicated; unknown names are an error. */
export const parseTypes = (
  type: string | undefined,
  types: string | undefined
): Either.Either<ReadonlyArray<RecordType>, string> => {
  const asked = [type ?? "", types ?? ""]
    .flatMap((s) => s.split(","))
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s.length > 0)
  if (asked.length === 0) return Either.right(DEFAULT_TYPES)
  const unknown = asked.filter((t) => !(RecordTypes as ReadonlyArray<string>).includes(t))
  if (unknown.length > 0)
    return Either.left(`unknown record type ${unknown.join(", ")}; allowed: ${RecordTypes.join(", ")}`)
  return Either.right([...new Set(asked)] as Array<RecordType>)
}

export interface LookupFacts {
  readonly domain: string
  readonly results: ReadonlyArray<{
    readonly type: RecordType
    readonly result: Either.Either<DnsAnswer, DnsError>
  }>
  readonly responseTime: number
}

/** The scanned domain's records of `types`, asked concurrently through Facts (failures kept). */
export const gatherTypes = (types: ReadonlyArray<RecordType>) =>
  Effect.gen(function* () {
    const facts = yield* Facts
    const start = yield* Clock.currentTimeMillis
    const answers = yield* facts.queryEach(
      types.map((type) => ({ name: facts.domain, type })),
      { concurrency: types.length }
    )
    const results = types.map((type, i) => ({ type, result: answers[i]! }))
    const end = yield* Clock.currentTimeMillis
    // The wall time of the concurrent batch; cache hits take ~0.
    const elapsed = Math.max(
      0,
      end - start,
      ...results.map((r) => (Either.isRight(r.result) ? r.result.right.elapsedMs : 0))
    )
    return { domain: facts.domain, results, responseTime: elapsed } satisfies LookupFacts
  }).pipe(Effect.withSpan("Lookup.gather"))

const toLookupRecord = (r: DnsAnswer["answers"][number]): LookupRecord => ({
  type: r.type,
  name: r.name,
  ttl: r.ttl,
  data: r.type === "TXT" ? joinTxt(r.data as ReadonlyArray<string>) : r.text
})

/** Pure and total; `success` is false when no question got an answer (the result rests on none). */
export const analyse = (facts: LookupFacts, now: Date): LookupResult => {
  const records: Record<string, ReadonlyArray<LookupRecord>> = {}
  const outcomes: Record<string, string> = {}
  const errors: Array<LookupResult["errors"][number]> = []
  const answers: Array<DnsAnswer> = []
  for (const { type, result } of facts.results) {
    if (Either.isLeft(result)) {
      outcomes[type] = result.left.reason
      errors.push({ type, reason: result.left.reason, message: result.left.message })
      continue
    }
    answers.push(result.right)
    outcomes[type] = result.right.outcome
    // RRSIGs ride along because of the DO bit; they are not what was asked.
    records[type] = result.right.answers.filter((r) => r.type !== "RRSIG").map(toLookupRecord)
  }
  return {
    success: answers.length > 0,
    domain: facts.domain,
    records,
    outcomes,
    errors,
    responseTime: Math.round(facts.responseTime),
    resolver: answers.find((a) => !a.fromCache)?.resolver ?? answers[0]?.resolver ?? "",
    cached: answers.length > 0 && answers.every((a) => a.fromCache),
    dnssecValidated: answers.length > 0 && answers.every((a) => a.flags.ad),
    timestamp: now.toISOString()
  }
}

/** The domain's records of the default types, as a full scan reports them. */
const gather = gatherTypes(DEFAULT_TYPES)

export const Lookup = define(about, {
  gather,
  analyse,
  exampleGathered: () => exampleGathered(DEFAULT_TYPES)
})
