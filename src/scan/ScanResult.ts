/**
 * The shape of a scan: what became of each registered check (`CheckOutcome`) and the whole
 * (`ScanResult`), one Schema each. The Scanner (src/scan) produces them; the score, NIS2, reports and
 * jobs read them, so they live here, below all of those, beside the registry they are made of.
 */
import { Schema } from "effect"
import { type AnyCheck, Categories, type Check, type ResultOf } from "../kernel/Check.ts"
import { registry, type Registry } from "../checks/index.ts"
import { ScanDepth } from "../kernel/Depth.ts"
import { DateTime, Nullable } from "../records/Schemas.ts"
import { NormalDomain } from "../records/DomainName.ts"

/**
 * What became of one check in one scan: `done` (`result` holds its verdict) or `unknown` (it could
 * not finish; `reason` says why), how long it took, and the checks whose results it waited for.
 */
export const CheckOutcome = <A, I>(result: Schema.Schema<A, I>) =>
  Schema.Struct({
    id: Schema.String,
    title: Schema.String,
    category: Schema.Literal(...Categories),
    status: Schema.Literal("done", "unknown"),
    reason: Nullable(Schema.String),
    durationMs: Schema.Int,
    needs: Schema.Array(Schema.String),
    result: Nullable(result)
  })
export type CheckOutcome<A> = ReturnType<typeof CheckOutcome<A, A>>["Type"]

/** The outcome Schema of each check of `Cs`, under its id. */
type OutcomeFields<Cs extends ReadonlyArray<AnyCheck>> = {
  readonly [C in Cs[number] as C["id"]]: ReturnType<typeof CheckOutcome<ResultOf<C>, EncodedOf<C>>>
}
type EncodedOf<C> = C extends Check<string, any, any, infer I> ? I : never

const outcomeFields = <Cs extends ReadonlyArray<AnyCheck>>(checks: Cs): OutcomeFields<Cs> =>
  // Object.fromEntries cannot say which key holds which check's outcome; the mapped type does.
  Object.fromEntries(checks.map((c) => [c.id, CheckOutcome(c.result)])) as OutcomeFields<Cs>

/** The Schema of a scan over `checks` (the registry's, by default): stored and sent as is. */
export const scanResultSchema = <Cs extends ReadonlyArray<AnyCheck>>(checks: Cs) =>
  Schema.Struct({
    /** The scanned domain as the edge decoded it; stored and sent as its plain text. */
    domain: NormalDomain,
    /** When the checks ran (a cached result keeps its original time). */
    computedAt: DateTime,
    /** Served from the scan cache (`SCAN_CACHE_TTL_MS`) rather than computed for this request. */
    cached: Schema.Boolean,
    durationMs: Schema.Int,
    deadlineMs: Schema.Int,
    /** The longest chain of dependent checks, by their own work (see `Timing.ts`). */
    criticalPathMs: Schema.Int,
    /**
     * A shallow scan's depth (kernel/Depth.ts, docs/batch.md "Depth"): what it left out is not
     * checked, and its score leaves those records out (`score.depth`). Absent: a full scan.
     */
    depth: Schema.optional(ScanDepth),
    checks: Schema.Struct(outcomeFields(checks))
  })

export type ScanResult<Cs extends ReadonlyArray<AnyCheck> = Registry> = ReturnType<
  typeof scanResultSchema<Cs>
>["Type"]
export type Outcomes<Cs extends ReadonlyArray<AnyCheck>> = ScanResult<Cs>["checks"]

export const ScanResult = scanResultSchema(registry)
