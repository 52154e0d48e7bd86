/**
 * The shape of a scan: what became of each registered check (`CheckOutcome`) and the whole
 * (`ScanResult`), one Schema each. The Scanner (src/scan) produces them; the score, NIS2, reports and
 * jobs read them, so they live here, below all of those, beside the registry they are made of.
 */
import { Schema } from "effect"
import { type AnyCheck, type Category, Categories, type ResultOf } from "./Check.ts"
import { registry, type Registry } from "./index.ts"
import { DateTime, Nullable } from "../records/Schemas.ts"

/** What became of one check in one scan. */
export interface CheckOutcome<A> {
  readonly id: string
  readonly title: string
  readonly category: Category
  /** `done`: `result` holds its verdict; `unknown`: it could not finish (`reason` says why). */
  readonly status: "done" | "unknown"
  readonly reason: string | null
  readonly durationMs: number
  /** The checks whose results this one waited for. */
  readonly needs: ReadonlyArray<string>
  readonly result: A | null
}

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

export type Outcomes<Cs extends ReadonlyArray<AnyCheck>> = {
  readonly [C in Cs[number] as C["id"]]: CheckOutcome<ResultOf<C>>
}

export interface ScanResult<Cs extends ReadonlyArray<AnyCheck> = Registry> {
  readonly domain: string
  /** When the checks ran (a cached result keeps its original time). */
  readonly computedAt: string
  /** Served from the scan cache (`SCAN_CACHE_TTL_MS`) rather than computed for this request. */
  readonly cached: boolean
  readonly durationMs: number
  readonly deadlineMs: number
  /** The longest chain of dependent checks, by their own work (see `Timing.ts`). */
  readonly criticalPathMs: number
  readonly checks: Outcomes<Cs>
}

/** The Schema of a scan over `checks` (the registry's, by default): stored and sent as is. */
export const scanResultSchema = <Cs extends ReadonlyArray<AnyCheck>>(checks: Cs) =>
  Schema.Struct({
    domain: Schema.String,
    computedAt: DateTime,
    cached: Schema.Boolean,
    durationMs: Schema.Int,
    deadlineMs: Schema.Int,
    criticalPathMs: Schema.Int,
    checks: Schema.Struct(Object.fromEntries(checks.map((c) => [c.id, CheckOutcome(c.result)])))
  }) as unknown as Schema.Schema<ScanResult<Cs>, unknown>

export const ScanResult = scanResultSchema(registry)
