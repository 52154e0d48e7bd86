/**
 * Monitors as the API offers them: create, list, read, delete, run now, and the alerts of one.
 * The work is the workflows' (MonitorRun.ts, AlertDelivery.ts); this service validates, records and
 * starts them, over the cluster's database and workflow engine, which it captures when built.
 *
 * On start, every runner makes sure each active monitor has its next run under way (starting the
 * run for its `next_due` is a no-op when it exists): a chain broken by a lost message resumes.
 */
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { WorkflowEngine } from "@effect/workflow"
import { Clock, Effect, Layer, Random, Schema } from "effect"
import { AppConfig } from "../Config.ts"
import { Resolver } from "../net/Resolver.ts"
import { Mailer } from "../net/Mailer.ts"
import type { Domain } from "../records/DomainName.ts"
import { formatEvery, parseEvery } from "../records/IsoDuration.ts"
import { parseAllowList } from "../records/IpAddress.ts"
import { ClusterLive } from "../jobs/Cluster.ts"
import { AlertDeliveryLive, startDelivery } from "./AlertDelivery.ts"
import type { Alert, AlertLanguage, Channel, Monitor } from "./MonitorModel.ts"
import { MonitoredDomains } from "./MonitoredDomains.ts"
import { ensureClaimTables, isVerifiedByAnyone } from "./access/DomainClaimStore.ts"
import { MonitorRun, monitorRunLayer } from "./MonitorRun.ts"
import {
  type AlertRow,
  deleteMonitor,
  ensureMonitorTables,
  getMonitor,
  insertMonitor,
  isMonitored,
  listAlerts,
  listMonitors,
  type MonitorRow
} from "./MonitorStore.ts"
import { countMonitors, pageMonitors } from "./MonitorPages.ts"
import { secretProblem, webhookUrlProblem } from "./WebhookTarget.ts"

/** The request is not a monitor we accept: the message says why (400). */
export class MonitorRefused extends Schema.TaggedError<MonitorRefused>()("MonitorRefused", {
  message: Schema.String
}) {}

/** A page's cursor: the last monitor's creation time and id, opaque to clients (base64url). */
const writeCursor = (m: Pick<MonitorRow, "createdAt" | "id">) =>
  Buffer.from(`${m.createdAt}.${m.id}`, "utf8").toString("base64url")

/** The cursor's position, or null when it is not one `writeCursor` made. */
const readCursor = (cursor: string): { readonly createdAt: number; readonly id: string } | null => {
  const m = /^(\d{1,15})\.(mon_[0-9a-f]{32})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"))
  return m ? { createdAt: Number(m[1]), id: m[2]! } : null
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

const channelView = (c: Channel) =>
  c.type === "webhook" ? { type: c.type, url: c.url } : { type: c.type, to: c.to }

export const monitorView = (m: MonitorRow): Monitor => ({
  id: m.id,
  domain: m.domain,
  every: formatEvery(m.everyMs),
  alerts: m.channels.map(channelView),
  lang: m.lang,
  createdAt: iso(m.createdAt)!,
  nextRunAt: iso(m.nextDue)!,
  lastRunAt: iso(m.lastRunAt),
  lastGrade: m.lastGrade,
  runs: m.runs
})

export const alertView = (a: AlertRow): Alert => ({
  id: a.id,
  monitorId: a.monitorId,
  domain: a.domain,
  createdAt: iso(a.createdAt)!,
  channel: a.channelType === "webhook" ? { type: "webhook", url: a.target } : { type: "email", to: a.target },
  rules: a.rules,
  summaries: a.summaries,
  status: a.status,
  attempts: a.attempts,
  lastAttemptAt: iso(a.lastAttemptAt),
  nextAttemptAt: a.status === "pending" ? iso(a.nextAttemptAt) : null,
  deliveredAt: iso(a.deliveredAt),
  lastError: a.lastError
})

export class Monitors extends Effect.Service<Monitors>()("Monitors", {
  scoped: Effect.gen(function* () {
    const config = yield* AppConfig
    const resolver = yield* Resolver
    const mailer = yield* Mailer
    const context = yield* Effect.context<SqlClient.SqlClient | WorkflowEngine.WorkflowEngine>()
    const allow = parseAllowList(config.allowTargets)
    const allowed = allow.ok ? allow.cidrs : []
    const provide = <A, E>(
      effect: Effect.Effect<A, E, SqlClient.SqlClient | WorkflowEngine.WorkflowEngine>
    ) => Effect.provide(effect, context).pipe(Effect.orDie)

    const checkChannels = (channels: ReadonlyArray<Channel>) =>
      Effect.gen(function* () {
        for (const c of channels) {
          if (c.type === "email") {
            if (!mailer.configured)
              return yield* new MonitorRefused({
                message: "e-mail alerts are not available: this service has no SMTP relay (ALERT_SMTP_URL)"
              })
            continue
          }
          const problem =
            secretProblem(c.secret) ?? (yield* webhookUrlProblem(c.url, allowed, resolver.addresses))
          if (problem !== null) return yield* new MonitorRefused({ message: problem })
        }
      })

    const create = (request: {
      readonly domain: Domain
      readonly every: string
      readonly alerts: ReadonlyArray<Channel>
      /** The language of its alerts; English when not given. */
      readonly lang?: AlertLanguage | undefined
      readonly baseUrl: string
      /** The creator's tenant; undefined: the operator's. */
      readonly tenant: string | undefined
    }) =>
      Effect.gen(function* () {
        const tenant = request.tenant ?? null
        if ((yield* provide(countMonitors(tenant))) >= config.monitorsPerTenant)
          return yield* new MonitorRefused({
            message: `${tenant === null ? "the operator has" : "this tenant has"} ${config.monitorsPerTenant} monitors already (MONITORS_PER_TENANT); delete one first`
          })
        const every = parseEvery(request.every)
        if ("error" in every) return yield* new MonitorRefused({ message: `every: ${every.error}` })
        if (every.ms < config.monitorMinIntervalMs)
          return yield* new MonitorRefused({
            message: `every must be at least ${formatEvery(config.monitorMinIntervalMs)} (MONITOR_MIN_INTERVAL); got ${request.every}`
          })
        yield* checkChannels(request.alerts)
        const now = yield* Clock.currentTimeMillis
        // Spread over one interval: monitors created together do not scan together. The first run
        // is the baseline later runs are compared with (POST /monitors/{id}/run for one now).
        const firstDue = now + Math.floor((yield* Random.next) * every.ms)
        const id = `mon_${randomUUID().replaceAll("-", "")}`
        const row = {
          id,
          domain: request.domain,
          everyMs: every.ms,
          channels: request.alerts,
          createdAt: now,
          nextDue: firstDue,
          baseUrl: request.baseUrl,
          tenant,
          lang: request.lang ?? "en"
        }
        yield* provide(insertMonitor(row))
        yield* provide(
          MonitorRun.execute({ monitorId: id, dueAt: firstDue, manual: false }, { discard: true })
        )
        return monitorView({ ...row, deletedAt: null, lastRunAt: null, lastGrade: null, runs: 0 })
      })

    /**
     * The monitor `id` if `viewer` may see it: a tenant sees its own monitors only (another's is as
     * absent as one that never was), the operator (undefined) every monitor.
     */
    const owned = (id: string, viewer: string | undefined) =>
      provide(getMonitor(id)).pipe(
        Effect.map((m) => (m !== undefined && (viewer === undefined || m.tenant === viewer) ? m : undefined))
      )

    const get = (id: string, viewer: string | undefined) =>
      owned(id, viewer).pipe(Effect.map((m) => (m ? monitorView(m) : undefined)))

    /** One page of `viewer`'s monitors after `cursor` (`nextCursor`: the next page's, null at the end). */
    const list = (
      viewer: string | undefined,
      page: { readonly cursor?: string | undefined; readonly limit: number }
    ) =>
      Effect.gen(function* () {
        const after = page.cursor === undefined ? undefined : readCursor(page.cursor)
        if (after === null)
          return yield* new MonitorRefused({ message: "cursor is not one this service gave" })
        const rows = yield* provide(pageMonitors(viewer, after, page.limit + 1))
        const shown = rows.slice(0, page.limit)
        const last = shown[shown.length - 1]
        return {
          monitors: shown.map(monitorView),
          nextCursor: rows.length > page.limit && last !== undefined ? writeCursor(last) : null
        }
      })

    /** true when it existed; its sleeping run wakes, finds it gone and ends the chain. */
    const remove = (id: string, viewer: string | undefined) =>
      Effect.gen(function* () {
        if ((yield* owned(id, viewer)) === undefined) return false
        return yield* Effect.flatMap(Clock.currentTimeMillis, (now) => provide(deleteMonitor(id, now)))
      })

    /** Scan now (202): undefined when there is no such monitor. */
    const runNow = (id: string, viewer: string | undefined) =>
      Effect.gen(function* () {
        const monitor = yield* owned(id, viewer)
        if (monitor === undefined) return undefined
        const now = yield* Clock.currentTimeMillis
        yield* provide(MonitorRun.execute({ monitorId: id, dueAt: now, manual: true }, { discard: true }))
        return { success: true, id, status: "queued" as const, dueAt: iso(now)! }
      })

    const alerts = (id: string, viewer: string | undefined) =>
      Effect.gen(function* () {
        const monitor = yield* owned(id, viewer)
        if (monitor === undefined) return undefined
        return { alerts: (yield* provide(listAlerts(id))).map(alertView) }
      })

    // Every active monitor's chain under way (no-op for each that is).
    yield* Effect.forkScoped(
      provide(
        Effect.gen(function* () {
          for (const m of yield* listMonitors)
            yield* MonitorRun.execute({ monitorId: m.id, dueAt: m.nextDue, manual: false }, { discard: true })
        })
      ).pipe(Effect.catchAllCause((cause) => Effect.logError("the monitors could not be resumed", cause)))
    )

    return { create, get, list, remove, runNow, alerts } as const
  })
}) {}

/**
 * The workflows of monitors and alerts registered on this runner, over the cluster's database
 * (its tables created) and engine. Needs the scan's net services, `ScanHistory`, `Mailer` and
 * `AppConfig`.
 */
export const MonitorWorkflowsLive = Layer.mergeAll(monitorRunLayer(startDelivery), AlertDeliveryLive).pipe(
  Layer.provideMerge(Layer.effectDiscard(ensureMonitorTables))
)

/**
 * The workflows alone, on this process's cluster: for a process that joins the cluster as a runner
 * without serving the API (the batch scanner's `--cluster`). Every runner must register them: the
 * cluster may give any runner the shards that hold monitor runs, and a runner without the workflow
 * fails their messages.
 */
export const MonitorWorkflowsOnCluster = MonitorWorkflowsLive.pipe(
  Layer.provide(ClusterLive),
  Layer.provide(Mailer.Default)
)

/**
 * Which domains have a monitor (`HISTORY=monitored`), and which are owned: monitored, or verified
 * by a tenant (`HISTORY=owned`): read from the monitors' and the claims' tables in the cluster's
 * database, so every runner answers alike. A failed read answers false (logged): the scan is then
 * not kept, never the scan failed.
 */
export const MonitoredDomainsLive = Layer.effect(
  MonitoredDomains,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const ask = (
      what: string,
      domain: string,
      question: Effect.Effect<boolean, unknown, SqlClient.SqlClient>
    ) =>
      question.pipe(
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.catchAllCause((cause) =>
          Effect.as(Effect.logError(`could not tell whether ${domain} is ${what}`, cause), false)
        )
      )
    return {
      isMonitored: (domain: string) => ask("monitored", domain, isMonitored(domain)),
      isOwned: (domain: string) =>
        ask(
          "monitored or verified",
          domain,
          Effect.flatMap(isMonitored(domain), (monitored) =>
            monitored ? Effect.succeed(true) : isVerifiedByAnyone(domain)
          )
        )
    }
  })
).pipe(
  Layer.provide(Layer.effectDiscard(Effect.zipRight(ensureMonitorTables, ensureClaimTables))),
  Layer.provide(ClusterLive)
)

/** The Monitors service with its workflows, on this process's cluster (the one deep scans use). */
export const MonitorsLive = Monitors.Default.pipe(
  Layer.provideMerge(MonitorWorkflowsLive),
  Layer.provide(ClusterLive),
  Layer.provide(Mailer.Default)
)
