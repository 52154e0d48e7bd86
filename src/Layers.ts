/**
 * The application's wiring, in one place: which live layer provides each service the handlers,
 * the jobs and the edge need, and how they share one database and one set of net services.
 * `http/Server.ts` declares the routes and the node server; this file gives them their services.
 */
import { Effect, Layer } from "effect"
import { AppConfig } from "./Config.ts"
import { CspScanner } from "./composite/CspScanner.ts"
import { EmailChecks } from "./composite/EmailCheck.ts"
import { AdmissionGate } from "./http/edge/Admission.ts"
import { Health } from "./http/edge/Health.ts"
import { HealthPortLive } from "./http/edge/HealthPort.ts"
import { KeyClients } from "./http/edge/KeyClients.ts"
import { Limits } from "./http/edge/Limits.ts"
import { Traffic } from "./http/edge/Traffic.ts"

/** The server's traffic (requests in flight, the drain on shutdown), for the command that runs it. */
export { Traffic }
import * as Server from "./http/Server.ts"
import { JobsLive } from "./jobs/DeepScans.ts"
import { BatchChunksLive } from "./batch/ClusterChunks.ts"
import { MonitoredDomainsLive, MonitorsLive } from "./monitor/Monitors.ts"
import { ReportRecipientsLive, VerifiedDomainsLive } from "./monitor/access/VerifiedDomains.ts"
import { AiModel } from "./net/AiModel.ts"
import { Resolver } from "./net/Resolver.ts"
import { FailureReportsIn } from "./inbound/FailureReportsIn.ts"
import { ReportedSelectorsLive, ReportsIn } from "./inbound/ReportsIn.ts"
import { ReportsSmtpLive } from "./inbound/SmtpReceiver.ts"
import { UnclaimedReportsIn } from "./inbound/UnclaimedReportsIn.ts"
import { ReportSummaries } from "./inbound/Summaries.ts"
import { SnapshotStore } from "./report/SnapshotStore.ts"
import { SigningKey } from "./report/SigningKey.ts"
import { Snapshots } from "./report/Snapshots.ts"
import { ScanNetLive } from "./scan/ScanLive.ts"
import { Scans } from "./scan/Scans.ts"
import { HallOfFameStore } from "./store/HallOfFame.ts"
import { Histories } from "./monitor/Histories.ts"
import { ScanHistoryWithChain } from "./monitor/HistoryHook.ts"
import { HistoryStore } from "./monitor/HistoryStore.ts"
import { SqlLive } from "./store/Sql.ts"

/**
 * Each domain's history of fresh full scans (docs/monitoring.md). `MonitoredDomains` says which
 * domains `HISTORY=monitored` keeps: the monitors' lookup where they run, none otherwise.
 */
export const HistoriesLive = Histories.Default.pipe(
  Layer.provide([HistoryStore.Default, MonitoredDomainsLive])
)

/** Where every fresh full scan is reported: the hall of fame and the domain's history. */
export const ScanHistoryLive = ScanHistoryWithChain.pipe(Layer.provide(HistoriesLive))

/**
 * The outside world as services (DESIGN.md "one door to the network"), built once for all groups,
 * and what scans over it. Full scans report to the real ScanHistory (the hall of fame's record and
 * the domain's history), which needs the database; DKIM discovery in them asks the selectors stored
 * reports name first.
 */
export const ScanServicesLive = Layer.mergeAll(
  CspScanner.Default,
  Scans.Default.pipe(Layer.provide(ScanHistoryLive)),
  EmailChecks.Default
).pipe(
  Layer.provideMerge(Layer.merge(ScanNetLive, ReportedSelectorsLive.pipe(Layer.provide(ReportsIn.Default))))
)

/** The /health state, one per server: the gatekeeper and the handler share it (same layer value). */
export const HealthLive = Health.Default.pipe(
  Layer.provide([SqlLive, AdmissionGate.Default, Limits.Default, Resolver.Default])
)

/**
 * Every service the handlers call, and what this process takes on as a runner of the cluster. Deep
 * scans, monitors and the batch's chunks (`batch --cluster`) need the net services for their work;
 * monitors report their scans to the history as every fresh full scan does.
 */
export const ServicesLive = Layer.mergeAll(
  JobsLive,
  MonitorsLive,
  BatchChunksLive,
  VerifiedDomainsLive,
  // reports kept apart until their tenant verifies the domain (docs/access.md "Unclaimed reports")
  UnclaimedReportsIn.Default.pipe(Layer.provideMerge(ReportRecipientsLive))
).pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      ScanServicesLive,
      ScanHistoryLive,
      HallOfFameStore.Default,
      HistoriesLive,
      AiModel.Default,
      Snapshots.Default.pipe(Layer.provideMerge(SnapshotStore.Default)),
      HealthLive,
      // the per-client limits the handlers charge and advertise, shared with the gatekeeper
      Limits.Default,
      KeyClients.Default,
      // reports in (docs/reports-in.md): the store and the summaries over the scan's net services
      ReportsIn.Default,
      FailureReportsIn.Default,
      ReportSummaries.Default.pipe(Layer.provide(ScanNetLive))
    ).pipe(Layer.provideMerge(SigningKey.Default))
  ),
  Layer.provide(SqlLive)
)

/**
 * The routes with their services, waiting for an HttpServer (a real port, or a test server), and
 * the reports SMTP receiver when REPORTS_SMTP_PORT is set.
 */
export const AppLive = Layer.merge(Server.AppLive, ReportsSmtpLive).pipe(Layer.provide(ServicesLive))

/** The node server on `listen` (port 0: a free one), sharing the app's /health state. */
export const nodeServerLayer = (listen: { readonly host?: string; readonly port: number }) =>
  Server.nodeServerLayer(listen).pipe(Layer.provide([HealthLive, KeyClients.Default]))

/**
 * Serve on AppConfig's HOST:PORT, and /health and /metrics on HEALTH_PORT when set; Traffic (one
 * instance, shared with both listeners) is kept for the shutdown's drain.
 */
export const ServerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, ({ host, port }) =>
    Layer.merge(
      AppLive.pipe(Layer.provide(nodeServerLayer({ host, port }))),
      HealthPortLive.pipe(Layer.provide(HealthLive))
    )
  )
).pipe(Layer.provideMerge(Traffic.Default))
