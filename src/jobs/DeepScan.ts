/**
 * A scan as a durable workflow (@effect/workflow on @effect/cluster): the deep scans of
 * POST /scan/deep and the full scans of `scanOnCluster` (one domain as a durable job).
 *
 * - The execution id (a hash of the workflow name and the idempotency key) is the `scan_id`.
 * - Each part of a scan is an Activity: its result is journalled in the cluster's message storage,
 *   so a workflow resumed after a crash or restart replays finished parts instead of redoing them,
 *   and runs only what had not finished. The cluster re-delivers the unfinished workflow to
 *   whichever runner owns its shard (at-least-once delivery, `ClusterSchema.Persisted`).
 * - `mail`: every check of the registry that declares the `mail` deep scan, over one Facts (all
 *   known DKIM selectors, every address of every MX host within `MailServers`' bounds), each with the deep budget
 *   (`DEEP_SCAN_DEADLINE_MS`) instead of the quick scan's per-check timeout.
 * - `web`: the checks that declare the `web` deep scan (the `headers` check: HTTPS reachability,
 *   certificate, redirects, security headers and the home page's policy) and the CSP crawl
 *   (`composite/CspScanner.ts`'s `crawlAndAnalyse`).
 * - `full`: the whole registry, what `POST /scan` computes (the batch scanner sends chunks of
 *   domains instead: `batch/ClusterChunks.ts`).
 * A part that cannot finish is `unknown` with its reason inside the result (a timeout is never
 * "missing"); the job itself fails only on an unexpected defect, or when it was interrupted and not
 * resumed within `DEEP_SCAN_MAX_AGE_MS`.
 */
import { type Domain, DomainFromString, NormalDomain } from "../records/DomainName.ts"
import { Activity, Workflow } from "@effect/workflow"
import { Cause, Clock, Effect, Schema } from "effect"
import { AppConfig } from "../Config.ts"
import { type Registered } from "../kernel/Check.ts"
import { CspScanResult } from "../checks/csp/CspResult.ts"
import type { DeepScanType } from "../kernel/Declaration.ts"
import { registry } from "../checks/index.ts"
import { Nullable } from "../records/Schemas.ts"
import { crawlAndAnalyse } from "../composite/CspScanner.ts"
import { scan } from "../scan/Scanner.ts"
import { ScanResult, scanResultSchema } from "../scan/ScanResult.ts"
import { completeScan, StoredScanResult, storedScanSchema } from "../scan/StoredScan.ts"
import { multiRunner } from "./Cluster.ts"
import { finishJob, markStarted } from "./DeepScanStore.ts"

/** The checks of `checks` that a deep scan of `type` runs (`about.deepScans`), in registry order. */
export const deepScanChecks = (
  type: DeepScanType,
  checks: ReadonlyArray<Registered> = registry
): ReadonlyArray<Registered> => checks.filter((c) => c.about.deepScans.includes(type))

export const MAIL_CHECKS = deepScanChecks("mail")
export const WEB_CHECKS = deepScanChecks("web")

export const MailScan = scanResultSchema(MAIL_CHECKS)
export const WebScan = scanResultSchema(WEB_CHECKS)

/** The CSP crawl as a part of a deep web scan: `unknown` (with the reason) when no page was crawled. */
export const CspOutcome = Schema.Struct({
  status: Schema.Literal("done", "unknown"),
  reason: Nullable(Schema.String),
  result: Nullable(CspScanResult)
})

export const DeepScanResult = Schema.Union(
  Schema.Struct({ type: Schema.Literal("mail"), domain: NormalDomain, scan: MailScan }),
  Schema.Struct({ type: Schema.Literal("web"), domain: NormalDomain, scan: WebScan, csp: CspOutcome }),
  Schema.Struct({ type: Schema.Literal("full"), domain: NormalDomain, scan: ScanResult })
)
export type DeepScanResult = typeof DeepScanResult.Type

/**
 * A result as the jobs table keeps it, read by a registry that may have changed since it was
 * stored: each scan decoded as a stored scan (scan/StoredScan.ts), then completed to the checks
 * its type runs today, so a check added since reads "not checked" instead of failing the read.
 */
const StoredDeepScanResult = Schema.Union(
  Schema.Struct({ type: Schema.Literal("mail"), domain: NormalDomain, scan: storedScanSchema(MAIL_CHECKS) }),
  Schema.Struct({
    type: Schema.Literal("web"),
    domain: NormalDomain,
    scan: storedScanSchema(WEB_CHECKS),
    csp: CspOutcome
  }),
  Schema.Struct({ type: Schema.Literal("full"), domain: NormalDomain, scan: StoredScanResult })
)
const CHECKS_OF = { mail: MAIL_CHECKS, web: WEB_CHECKS, full: registry }
const decodeStored = Schema.decodeUnknown(Schema.parseJson(StoredDeepScanResult))

/** A stored result (its JSON text) as a result of today's registry. */
export const readStoredResult = (text: string) =>
  Effect.map(
    decodeStored(text),
    (stored) => ({ ...stored, scan: completeScan(stored.scan, CHECKS_OF[stored.type]) }) as DeepScanResult
  )

export class ScanJobFailed extends Schema.TaggedError<ScanJobFailed>()("ScanJobFailed", {
  reason: Schema.String
}) {}

export const ScanJob = Workflow.make({
  name: "ScanJob",
  payload: {
    domain: DomainFromString,
    kind: Schema.Literal("web", "mail", "full"),
    /** Distinguishes jobs of one domain and kind: the request time for the API, a batch id for batches. */
    key: Schema.String,
    /** When the job was asked for (ms since the epoch): the age limit counts from here. */
    requestedAt: Schema.Finite
  },
  success: DeepScanResult,
  error: ScanJobFailed,
  idempotencyKey: ({ domain, kind, key }) => `${kind}:${domain}:${key}`
})

/** Every check of `checks` gets the deep budget: the deadline and each check's own timeout. */
export const deepScan = <Cs extends ReadonlyArray<Registered>>(
  domain: Domain,
  checks: Cs,
  deadlineMs: number
) =>
  scan(domain, { checks, deadlineMs }).pipe(
    Effect.updateService(AppConfig, (config) => new AppConfig({ ...config, checkTimeoutMs: deadlineMs }))
  )

const work = (domain: Domain, kind: "web" | "mail" | "full") =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const deadlineMs = config.deepScanDeadlineMs
    if (kind === "mail") {
      const result = yield* Activity.make({
        name: "mail-checks",
        success: MailScan,
        execute: deepScan(domain, MAIL_CHECKS, deadlineMs)
      })
      return { type: "mail", domain, scan: result } as const
    }
    if (kind === "full") {
      const result = yield* Activity.make({ name: "full-scan", success: ScanResult, execute: scan(domain) })
      return { type: "full", domain, scan: result } as const
    }
    const headers = yield* Activity.make({
      name: "headers",
      success: WebScan,
      execute: deepScan(domain, WEB_CHECKS, deadlineMs)
    })
    const csp = yield* Activity.make({
      name: "csp-crawl",
      success: CspOutcome,
      execute: crawlAndAnalyse(new URL(`https://${domain}/`), false, {
        maxPages: config.cspMaxPages,
        budgetMs: config.cspBudgetMs
      }).pipe(
        Effect.map((result) => ({ status: "done" as const, reason: null, result })),
        Effect.catchTag("CspScanError", (e) =>
          Effect.succeed({ status: "unknown" as const, reason: e.message, result: null })
        )
      )
    })
    return { type: "web", domain, scan: headers, csp } as const
  })

/** This runner's name in the jobs table. */
const runnerName = (config: AppConfig) =>
  multiRunner(config) ? `${config.runnerHost}:${config.runnerPort}` : "single"

const encodeResult = Schema.encode(Schema.parseJson(DeepScanResult))

/** The workflow's implementation; needs the scan context and the cluster's SqlClient. */
export const ScanJobLive = ScanJob.toLayer(({ domain, kind, requestedAt }, scanId) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const started = yield* Clock.currentTimeMillis
    yield* markStarted(scanId, started, runnerName(config)).pipe(Effect.orDie)
    const fail = (reason: string) =>
      Activity.make({
        name: "record-failure",
        execute: Effect.flatMap(Clock.currentTimeMillis, (now) =>
          finishJob(scanId, { status: "failed", result: null, error: reason }, now).pipe(Effect.orDie)
        )
      }).pipe(Effect.zipRight(new ScanJobFailed({ reason })))
    // Resumed too late (the service was down, or kept restarting): say so rather than run stale work.
    if (started - requestedAt > config.deepScanMaxAgeMs)
      return yield* fail(
        `the job was interrupted (service restart) and not resumed within ${Math.round(config.deepScanMaxAgeMs / 1000)} s of its request`
      )
    return yield* work(domain, kind).pipe(
      Effect.tap((result) =>
        Activity.make({
          name: "record-result",
          execute: Effect.gen(function* () {
            const text = yield* Effect.orDie(encodeResult(result))
            yield* finishJob(
              scanId,
              { status: "completed", result: text, error: null },
              yield* Clock.currentTimeMillis
            )
          }).pipe(Effect.orDie)
        })
      ),
      // A defect fails the job with its reason; an interruption is the engine suspending it: let it through.
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.failCause(cause)
          : Effect.logError(`deep scan ${scanId} of ${domain} failed`, cause).pipe(
              Effect.zipRight(fail(`the scan failed unexpectedly: ${Cause.pretty(cause).split("\n")[0]}`))
            )
      )
    )
  })
)
