/**
 * A monitor is a chain of durable workflows on the cluster (@effect/workflow on @effect/cluster,
 * docs/monitoring.md "Cluster behaviour"): `MonitorRun(monitor, due time)` sleeps durably until its
 * due time, scans, judges the scan with the alert rules, starts one `AlertDelivery` per alert, and
 * starts the run for the next due time. Never a timer in one process:
 *
 * - The execution id is a hash of (monitor, due time): starting a run that exists is a no-op, so a
 *   due time is run at most once by the cluster, and `monitor_runs` (MonitorStore.ts) is the second
 *   lock: a run re-delivered after it finished is not scanned again.
 * - The run lives on whichever runner owns its shard. When that runner dies, the cluster re-delivers
 *   the workflow to another one, which resumes it: the sleep (a `DurableClock` past 60 s, kept in the
 *   cluster's storage) or the scan, from the last journalled step.
 * - Due times are fixed: the first is spread at random over one interval after creation (monitors
 *   created together do not scan together), the next ones follow at the interval. A run that wakes
 *   late (the cluster was down) runs once and sets the next due time in the future: none is skipped
 *   for more than one interval, none run in a burst to catch up.
 * - A manual run (`POST /monitors/{id}/run`) is a run keyed by its request time that starts no
 *   successor.
 * - At most MONITOR_SCANS_IN_FLIGHT runs scan at once on a process; the others wait for a permit
 *   (docs/monitoring.md, "Memory").
 */
import { Activity, DurableClock, Workflow, WorkflowEngine } from "@effect/workflow"
import { createHash } from "node:crypto"
import { Cause, Clock, Context, Effect, Either, Layer, Schema } from "effect"
import { AppConfig, type Settings } from "../Config.ts"
import { ScanResult } from "../scan/ScanResult.ts"
import { readStoredScan } from "../scan/StoredScan.ts"
import { multiRunner } from "../jobs/Cluster.ts"
import * as M from "../observe/Metrics.ts"
import { formatEvery } from "../records/IsoDuration.ts"
import { ScanHistory } from "../scan/ScanHistory.ts"
import { scan } from "../scan/Scanner.ts"
import { unscannableReason } from "../score/Scannable.ts"
import { score } from "../score/Score.ts"
import { type AlertContent, emailMessage, summaries, webhookBody } from "./AlertMessage.ts"
import { evaluate } from "./AlertRules.ts"
import {
  claimRun,
  getMonitor,
  type MonitorRow,
  type RunOutcome,
  setNextDue,
  settleRun
} from "./MonitorStore.ts"

export const MonitorRun = Workflow.make({
  name: "MonitorRun",
  payload: {
    monitorId: Schema.String,
    /** ms since the epoch; for a manual run, the request time. */
    dueAt: Schema.Finite,
    manual: Schema.Boolean
  },
  idempotencyKey: ({ monitorId, dueAt, manual }) => `${manual ? "manual" : "due"}:${monitorId}:${dueAt}`
})

/** The first due time at or after `afterMs` in the series `dueAt + k * everyMs` (k >= 1). */
export const nextDueAfter = (dueAt: number, everyMs: number, afterMs: number): number => {
  const k = Math.max(1, Math.floor((afterMs - dueAt) / everyMs) + 1)
  return dueAt + k * everyMs
}

/** An alert's id: stable for (monitor, due time, channel), so a repeated run writes the same alerts. */
export const alertId = (monitorId: string, dueAt: number, channel: number) =>
  `msg_${createHash("sha256").update(`${monitorId}|${dueAt}|${channel}`).digest("hex").slice(0, 32)}`

// The last scan was stored by the registry of its time: read as StoredScan.ts reads stored scans.
const decodeScan = (text: string): ScanResult =>
  Either.getOrThrowWith(readStoredScan(JSON.parse(text)), (e) => e)
const encodeScan = Schema.encodeSync(Schema.parseJson(ScanResult))

/** Judge `result` against the monitor's state: the new state and one alert per channel, or nothing. */
const judge =
  (monitor: MonitorRow, dueAt: number, result: ScanResult, nowMs: number) =>
  (state: {
    readonly lastScan: string | null
    readonly warned: ReadonlyArray<string>
  }): RunOutcome | null => {
    if (unscannableReason(result) !== null) return null
    const before = state.lastScan === null ? null : decodeScan(state.lastScan)
    const evaluation = evaluate(before, result, state.warned, nowMs)
    const scored = score(result)
    const grade = scored.grade
    const content = (id: string): AlertContent => ({
      alertId: id,
      monitorId: monitor.id,
      domain: monitor.domain,
      every: formatEvery(monitor.everyMs),
      baseUrl: monitor.baseUrl,
      scannedAt: result.computedAt,
      createdAt: new Date(nowMs).toISOString(),
      grade: { before: before === null ? null : score(before).grade, after: grade },
      rules: evaluation.rules,
      changes: evaluation.changes,
      warnings: evaluation.warnings,
      fixes: scored.recommendations,
      lang: monitor.lang
    })
    const alerts =
      evaluation.rules.length === 0
        ? []
        : monitor.channels.map((channel, i) => {
            const id = alertId(monitor.id, dueAt, i)
            const c = content(id)
            return {
              id,
              monitorId: monitor.id,
              domain: monitor.domain,
              dueAt,
              createdAt: nowMs,
              channel: i,
              channelType: channel.type,
              target: channel.type === "webhook" ? channel.url : channel.to,
              rules: evaluation.rules,
              summaries: summaries(c),
              body: channel.type === "webhook" ? webhookBody(c) : JSON.stringify(emailMessage(c)),
              nextAttemptAt: nowMs
            }
          })
    return {
      scannedAt: Date.parse(result.computedAt),
      grade,
      scanJson: encodeScan(result),
      warned: evaluation.warned,
      alerts
    }
  }

const Outcome = Schema.Struct({
  /** The monitor is gone (deleted): the chain ends. */
  deleted: Schema.Boolean,
  everyMs: Schema.Finite,
  alertIds: Schema.Array(Schema.String)
})

const QUIET = M.labels({ outcome: "quiet" })
const ALERTED = M.labels({ outcome: "alerted" })
const FAILED = M.labels({ outcome: "failed" })

/**
 * Scan the monitor's domain (a fresh full scan, reported to `ScanHistory` as every fresh scan is)
 * and settle the run. A run found finished (re-delivered) is not scanned again.
 */
const runOnce = (monitorId: string, dueAt: number, scans: Effect.Semaphore) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const history = yield* ScanHistory
    const monitor = yield* getMonitor(monitorId)
    if (monitor === undefined) return { deleted: true, everyMs: 0, alertIds: [] }
    return yield* scans.withPermits(1)(claimAndScan(monitor, dueAt, config, history))
  })

/** The run proper, holding one of the process's monitor-scan permits. */
const claimAndScan = (monitor: MonitorRow, dueAt: number, config: Settings, history: ScanHistory["Type"]) =>
  Effect.gen(function* () {
    const monitorId = monitor.id
    const runner = multiRunner(config) ? `${config.runnerHost}:${config.runnerPort}` : "single"
    const claimed = yield* claimRun(monitorId, dueAt, yield* Clock.currentTimeMillis, runner)
    if (!claimed) return { deleted: false, everyMs: monitor.everyMs, alertIds: [] }
    const alertIds = yield* Effect.gen(function* () {
      // the row's domain was decoded when it was read back (MonitorStore.ts): a Domain already
      const result = yield* scan(monitor.domain).pipe(Effect.scoped)
      yield* history.record(result)
      const now = yield* Clock.currentTimeMillis
      const alertIds = yield* settleRun(monitorId, dueAt, now, judge(monitor, dueAt, result, now))
      M.monitorRuns.unsafeUpdate(1, alertIds.length > 0 ? ALERTED : QUIET)
      return alertIds
    }).pipe(
      // A run that breaks (a defect, the database) is logged and the chain goes on: the next due
      // time scans again, rather than the monitor silently stopping.
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.failCause(cause)
          : Effect.logError(
              `monitor ${monitorId}: the run due at ${new Date(dueAt).toISOString()} failed`,
              cause
            ).pipe(
              Effect.tap(() => M.monitorRuns.unsafeUpdate(1, FAILED)),
              Effect.as([] as ReadonlyArray<string>)
            )
      )
    )
    return { deleted: false, everyMs: monitor.everyMs, alertIds }
  })

/**
 * Start a workflow as a top-level one, not as a child of the running workflow: the next run and an
 * alert's delivery live on when this run completes (a child is tied to its parent's interruption).
 */
export const detached = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.mapInputContext(
    effect,
    (context: Context.Context<R>) =>
      Context.omit(WorkflowEngine.WorkflowInstance)(context) as Context.Context<R>
  )

/** The workflow; `deliver` starts an alert's delivery (AlertDelivery.ts). */
export const monitorRunLayer = <R>(deliver: (alertId: string) => Effect.Effect<void, never, R>) =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      // Runs due together wait for a permit rather than all scanning at once: a scan in flight holds
      // its memory (docs/bench.md), and 10,000 monitors woken by a restart would otherwise start
      // 10,000 scans. Only the scan queues: a run's durable sleep is as it was.
      const scans = yield* Effect.makeSemaphore(Math.max(1, (yield* AppConfig).monitorScansInFlight))
      return monitorRunWorkflow(deliver, scans)
    })
  )

const monitorRunWorkflow = <R>(
  deliver: (alertId: string) => Effect.Effect<void, never, R>,
  scans: Effect.Semaphore
) =>
  MonitorRun.toLayer(({ monitorId, dueAt, manual }) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      if (!manual && dueAt > now) yield* DurableClock.sleep({ name: "until-due", duration: dueAt - now })
      const outcome = yield* Activity.make({
        name: "scan-and-judge",
        success: Outcome,
        execute: runOnce(monitorId, dueAt, scans).pipe(Effect.orDie)
      })
      if (outcome.deleted) return
      for (const id of outcome.alertIds) yield* detached(deliver(id))
      if (manual) return
      const next = yield* Activity.make({
        name: "schedule-next",
        success: Schema.Finite,
        execute: Effect.gen(function* () {
          const next = nextDueAfter(dueAt, outcome.everyMs, yield* Clock.currentTimeMillis)
          yield* setNextDue(monitorId, next).pipe(Effect.orDie)
          return next
        })
      })
      yield* detached(MonitorRun.execute({ monitorId, dueAt: next, manual: false }, { discard: true }))
    })
  )
