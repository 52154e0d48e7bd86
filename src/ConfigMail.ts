/**
 * The mail settings of AppConfig (`Config.ts` spreads them into its settings): the SMTP probe of a
 * domain's MX hosts, the message debugger's limit, and the reports taken in (over HTTP and SMTP).
 */
import { Config } from "effect"
import { duration, int, list, ms } from "./ConfigValues.ts"

export const mailSettings = {
  // SMTP probe
  smtpPort: Config.port("SMTP_PORT").pipe(Config.withDefault(25)),
  smtpHeloName: Config.string("SMTP_HELO_NAME").pipe(Config.withDefault("domain-audit.invalid")),
  smtpConnectTimeoutMs: ms("SMTP_CONNECT_TIMEOUT_MS", 5_000),
  smtpBannerTimeoutMs: ms("SMTP_BANNER_TIMEOUT_MS", 10_000),
  smtpCommandTimeoutMs: ms("SMTP_COMMAND_TIMEOUT_MS", 5_000),
  smtpTlsTimeoutMs: ms("SMTP_TLS_TIMEOUT_MS", 5_000),
  smtpConcurrency: Config.integer("SMTP_CONCURRENCY").pipe(Config.withDefault(32)),
  // POST /debug-email: the largest raw message accepted (413 beyond), below MAX_BODY_BYTES
  debugEmailMaxBytes: int("DEBUG_EMAIL_MAX_BYTES", 524_288),
  // reports in (inbound/, docs/reports-in.md): limits on what strangers send, retention, SMTP receiver
  reportsMaxBytes: int("REPORTS_MAX_BYTES", 10_485_760),
  reportsMaxUnpackedBytes: int("REPORTS_MAX_UNPACKED_BYTES", 52_428_800),
  reportsMaxRatio: int("REPORTS_MAX_RATIO", 200),
  reportsMaxRecords: int("REPORTS_MAX_RECORDS", 100_000),
  reportsMaxZipEntries: int("REPORTS_MAX_ZIP_ENTRIES", 16),
  // worker threads reading reports posted over HTTP (inbound/ParsePool.ts); 0: read on the service's
  // thread. Off by default: measured on a shared 2-core machine they cost more CPU in all than they
  // took off the service's thread, and the rate did not rise (docs/bench.md "What keeps a report cheap")
  reportsParseWorkers: int("REPORTS_PARSE_WORKERS", 0),
  reportsRetentionS: duration("REPORTS_RETENTION", "P400D").pipe(Config.map((ms) => ms / 1000)),
  // reports mailed to a tenant for a domain it has not verified wait this long for it to (docs/access.md)
  reportsUnclaimedRetentionS: duration("REPORTS_UNCLAIMED_RETENTION", "P30D").pipe(
    Config.map((ms) => ms / 1000)
  ),
  // failure reports: keep the original's Subject and body (personal data) beside the reduced fields
  reportsKeepFailureBodies: Config.boolean("REPORTS_KEEP_FAILURE_BODIES").pipe(Config.withDefault(false)),
  // 0: no SMTP receiver
  reportsSmtpPort: int("REPORTS_SMTP_PORT", 0),
  reportsSmtpHost: Config.string("REPORTS_SMTP_HOST").pipe(Config.withDefault("0.0.0.0")),
  reportsSmtpName: Config.string("REPORTS_SMTP_NAME").pipe(Config.withDefault("domain-audit.invalid")),
  reportsDomains: list("REPORTS_DOMAINS", "").pipe(Config.map((ds) => ds.map((d) => d.toLowerCase())))
}
