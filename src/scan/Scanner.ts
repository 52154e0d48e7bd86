/**
 * The Scanner: `scan(domain)` runs every registered check of a domain once, as one fiber graph
 * over one Facts, within the scan's deadline (DESIGN.md "A check", principles 5 and 6).
 *
 * - Every check starts at once; a check that needs another's result waits for it (`need`), so the
 *   graph's edges are the data dependencies and nothing else.
 * - Each check has its own timeout (its `timeoutMs`, else `CHECK_TIMEOUT_MS`), bounded by
 *   `SCAN_DEADLINE_MS`. A check that misses it, or fails unexpectedly, is `unknown` with the reason;
 *   the scan returns everything else. Both count from the scan's start, less the time the scan
 *   waited on our own politeness (`bounds/QueueClock.ts`): a queue of ours is not the server's delay.
 * - The scan's work lives in the scan's scope: when the scan returns, or its caller is interrupted
 *   (the client went away), every fiber still running is interrupted.
 * - Each check's duration is recorded (and exported as a span), with the edges it waited on, so
 *   the critical path of the graph can be compared with the wall time.
 */
import type { Domain } from "../records/DomainName.ts"
import { Cause, Clock, Effect, Exit, Fiber, Option } from "effect"
import { AppConfig } from "../Config.ts"
import type { ScanDepth } from "../kernel/Depth.ts"
import { type AnyCheck, CurrentTrace, resultFact, type ResultOf, type ScanTrace } from "../kernel/Check.ts"
import { type FactContext, Facts, type Pending } from "../kernel/Facts.ts"
import { registry, type Registry } from "../checks/index.ts"
import type { CheckOutcome, ScanResult } from "./ScanResult.ts"
import { CurrentQueueClock, QueueClock } from "../bounds/QueueClock.ts"
import { makeFacts, type ScanContext } from "./FactsLive.ts"
import { criticalPath } from "./Timing.ts"
import * as M from "../observe/Metrics.ts"

export interface ScanOptions<Cs extends ReadonlyArray<AnyCheck>> {
  /** The checks to run (default: the whole registry). */
  readonly checks?: Cs
  /** Override `SCAN_DEADLINE_MS` for this scan. */
  readonly deadlineMs?: number
  /** Names of the domain its owner lists for the takeover check (records/ListedNames.ts). */
  readonly names?: ReadonlyArray<string>
  /** How much of each server's TLS to ask (kernel/Depth.ts); `full` by default. */
  readonly depth?: ScanDepth
}

/** One scan, computed now: every check of `options.checks` over one Facts for `domain`. */
export const scan = <Cs extends ReadonlyArray<AnyCheck> = Registry>(
  domain: Domain,
  options: ScanOptions<Cs> = {}
) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const checks: ReadonlyArray<AnyCheck> = options.checks ?? registry
    const deadlineMs = options.deadlineMs ?? config.scanDeadlineMs
    const trace: ScanTrace = new Map()
    const startMs = yield* Clock.currentTimeMillis
    M.scansStarted.unsafeUpdate(1, [])
    const depth = options.depth ?? "full"
    const facts = yield* makeFacts(domain, yield* Effect.scope, options.names, depth)
    // Every check starts now, each in a fiber of the scan's scope; then this fiber awaits them all,
    // each until its own budget from the scan's start (`awaitChecks`).
    const queue = new QueueClock()
    const started = yield* Effect.forEach(checks, (check) => facts.start(resultFact(check))).pipe(
      Effect.locally(CurrentTrace, trace),
      Effect.locally(CurrentQueueClock, queue)
    )
    const budgets = checks.map((check) => Math.min(check.timeoutMs ?? config.checkTimeoutMs, deadlineMs))
    const exits = yield* awaitChecks(started, budgets, startMs, queue)
    const runs = checks.map((check, i) => ({ check, exit: exits[i]!, budgetMs: budgets[i]! }))
    for (const { check, exit } of runs)
      if (Exit.isFailure(exit) && Option.isNone(Cause.failureOption(exit.cause)))
        yield* Effect.logError(`check ${check.id} of ${domain} failed`, exit.cause)
    const queuedMs = Math.round(queue.ms())
    const endMs = yield* Clock.currentTimeMillis
    const outcome = ({ check, exit, budgetMs }: (typeof runs)[number]): CheckOutcome<unknown> => {
      const timing = trace.get(check.id)
      const base = {
        id: check.id,
        title: check.title,
        category: check.category,
        durationMs: Math.round(
          (timing && timing.endMs > 0 ? timing.endMs : endMs) - (timing?.startMs ?? startMs)
        ),
        needs: [...(timing?.needs ?? [])]
      }
      return Exit.isSuccess(exit)
        ? { ...base, status: "done", reason: null, result: exit.value }
        : {
            ...base,
            status: "unknown",
            reason: Option.isSome(Cause.failureOption(exit.cause))
              ? `did not finish within ${budgetMs} ms${queuedMs > 0 ? ` (and ${queuedMs} ms queued for busy destinations)` : ""}`
              : "the check failed unexpectedly (logged); its result is unknown",
            result: null
          }
    }
    const outcomes = runs.map(outcome)
    const criticalPathMs = Math.round(criticalPath(trace, endMs))
    const unknown = recordScan(outcomes, endMs - startMs, criticalPathMs)
    // The critical path on the scan's span: an exported trace shows what bounded the wall time.
    yield* Effect.annotateCurrentSpan({
      "scan.duration_ms": endMs - startMs,
      "scan.critical_path_ms": criticalPathMs,
      "scan.checks": outcomes.length,
      "scan.unknown_checks": unknown
    })
    return {
      domain,
      computedAt: new Date(startMs).toISOString(),
      cached: false,
      durationMs: endMs - startMs,
      deadlineMs,
      criticalPathMs,
      // Only a shallow scan says its depth: a full one reads as every scan stored before depths.
      ...(depth === "full" ? {} : { depth }),
      checks: Object.fromEntries(outcomes.map((o) => [o.id, o]))
    } as ScanResult<Cs>
  }).pipe(
    Effect.scoped,
    Effect.withSpan("Scanner.scan", { attributes: { domain } }),
    Effect.annotateLogs("domain", domain)
  )

/**
 * Each check's exit, or "timeout" once its budget from the scan's start has passed. The budget does
 * not count the scan's time queued for our own permits (bounds/QueueClock.ts): a budget that ran
 * out while the scan queued is extended by what it queued meanwhile. Each outcome is heard by a
 * callback and one sleeper wakes at the earliest budget still open: a wait per check raced two
 * fibers (`timeoutFail`) for each check not yet finished, ~9 a scan (docs/bench.md, the batch).
 */
const awaitChecks = (
  outcomes: ReadonlyArray<Pending<unknown, never>>,
  budgets: ReadonlyArray<number>,
  startMs: number,
  queue: QueueClock
) =>
  Effect.gen(function* () {
    const exits = new Array<Exit.Exit<unknown, "timeout"> | undefined>(outcomes.length)
    let open = outcomes.length
    let allDecided: (() => void) | undefined
    const decide = (i: number, exit: Exit.Exit<unknown, "timeout">) => {
      if (exits[i] !== undefined) return
      exits[i] = exit
      if (--open === 0) allDecided?.()
    }
    const stops = outcomes.map((outcome, i) => outcome.listen((exit) => decide(i, exit)))
    if (open === 0) return exits
    const sleeper = yield* Effect.fork(
      Effect.gen(function* () {
        while (open > 0) {
          const now = yield* Clock.currentTimeMillis
          let nextMs = Infinity
          for (let i = 0; i < outcomes.length; i++) {
            if (exits[i] !== undefined) continue
            const leftMs = startMs + budgets[i]! + queue.ms() - now
            if (leftMs <= 0) decide(i, Exit.fail("timeout"))
            else nextMs = Math.min(nextMs, leftMs)
          }
          if (open > 0) yield* Effect.sleep(nextMs)
        }
      })
    )
    yield* Effect.async<void>((resume) => {
      if (open === 0) resume(Effect.void)
      else allDecided = () => resume(Effect.void)
    }).pipe(
      Effect.ensuring(
        Effect.sync(() => {
          for (const stop of stops) stop()
        })
      )
    )
    yield* Fiber.interruptFork(sleeper)
    return exits
  })

/** The scan's metrics: each check's status and duration, the scan's outcome; the unknown count. */
const recordScan = (
  outcomes: ReadonlyArray<CheckOutcome<unknown>>,
  durationMs: number,
  criticalPathMs: number
): number => {
  let unknown = 0
  for (const o of outcomes) {
    if (o.status === "unknown") unknown++
    M.checks.unsafeUpdate(1, M.labelsOf(`check ${o.id} ${o.status}`, { check: o.id, status: o.status }))
    M.checkDuration.unsafeUpdate(o.durationMs / 1000, M.labelsOf(`check ${o.id}`, { check: o.id }))
  }
  M.scansFinished.unsafeUpdate(1, unknown === 0 ? COMPLETE : PARTIAL)
  M.scanDuration.unsafeUpdate(durationMs / 1000, [])
  M.scanCriticalPath.unsafeUpdate(criticalPathMs / 1000, [])
  return unknown
}

const COMPLETE = M.labels({ outcome: "complete" })
const PARTIAL = M.labels({ outcome: "partial" })

/**
 * One check (and whatever it needs) for one domain, over fresh Facts: what a single-check
 * endpoint serves.
 */
export const runCheck = <C extends AnyCheck>(
  check: C,
  domain: Domain
): Effect.Effect<ResultOf<C>, never, ScanContext> =>
  withFacts(
    domain,
    Effect.flatMap(Facts, (facts) => facts.get(resultFact(check)))
  )

/** Runs `effect` with Facts for `domain` (scoped to it): composites and parameterised gathers. */
export const withFacts = <A, E>(domain: Domain, effect: Effect.Effect<A, E, FactContext>) =>
  Effect.gen(function* () {
    const facts = yield* makeFacts(domain, yield* Effect.scope)
    return yield* effect.pipe(Effect.provideService(Facts, facts))
  }).pipe(Effect.scoped)
