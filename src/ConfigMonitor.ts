/**
 * The settings of what is kept and watched over time (`Config.ts` spreads them into AppConfig):
 * report snapshots, scan history, monitors and their alerts.
 */
import { Config, Redacted } from "effect"
import { duration, int, ms } from "./ConfigValues.ts"

export const monitorSettings = {
  // report snapshots (report/SnapshotStore.ts, docs/reports.md)
  snapshotRateBurst: int("SNAPSHOT_RATE_BURST", 5),
  snapshotRatePerMinute: int("SNAPSHOT_RATE_PER_MINUTE", 2),
  snapshotDedupeMs: ms("SNAPSHOT_DEDUPE_MS", 300_000),
  // the Ed25519 key that signs snapshots and evidence exports (report/SigningKey.ts): a PEM PKCS#8
  // file; empty: one generated on first start and kept in DATA_DIR
  signingKeyFile: Config.string("SIGNING_KEY_FILE").pipe(Config.withDefault("")),
  // scan history (monitor/Histories.ts, docs/monitoring.md): the domains someone owns (monitored or
  // verified), monitored domains' only, or every fresh full scan
  history: Config.literal("owned", "monitored", "all")("HISTORY").pipe(Config.withDefault("owned" as const)),
  // monitors and alerts (monitor/, docs/monitoring.md)
  monitorMinIntervalMs: duration("MONITOR_MIN_INTERVAL", "PT15M"),
  // who may manage monitors (api/Monitoring.ts MonitorsAccess): the bearer token; empty: this machine only
  monitorsToken: Config.redacted("MONITORS_TOKEN").pipe(Config.withDefault(Redacted.make(""))),
  alertSmtpUrl: Config.redacted("ALERT_SMTP_URL").pipe(Config.withDefault(Redacted.make(""))),
  alertMailFrom: Config.string("ALERT_MAIL_FROM").pipe(Config.withDefault("domain-audit@localhost")),
  alertRetryForMs: ms("ALERT_RETRY_FOR_MS", 86_400_000),
  alertRetryBaseMs: ms("ALERT_RETRY_BASE_MS", 30_000),
  alertRetryMaxMs: ms("ALERT_RETRY_MAX_MS", 3_600_000),
  // monitor runs scanning at once on this process (monitor/MonitorRun.ts); more due wait their turn
  monitorScansInFlight: int("MONITOR_SCANS_IN_FLIGHT", 32)
}
