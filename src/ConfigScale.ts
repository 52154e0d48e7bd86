/**
 * The settings of how much work runs and for how long (`Config.ts` spreads them into AppConfig):
 * scans and their caches, deep scans, the cluster, and politeness towards the servers probed.
 */
import { Config, Redacted } from "effect"
import { durationOrOff, int, ms } from "./ConfigValues.ts"

export const scaleSettings = {
  // scans
  scanDeadlineMs: ms("SCAN_DEADLINE_MS", 30_000),
  checkTimeoutMs: ms("CHECK_TIMEOUT_MS", 20_000),
  scanCacheTtlMs: ms("SCAN_CACHE_TTL_MS", 300_000),
  checkCacheTtlMs: ms("CHECK_CACHE_TTL_MS", 30_000),
  scanCacheSize: Config.integer("SCAN_CACHE_SIZE").pipe(Config.withDefault(1000)),
  // deep scans (jobs/DeepScans.ts)
  deepScanDeadlineMs: ms("DEEP_SCAN_DEADLINE_MS", 120_000),
  deepScanReuseMs: ms("DEEP_SCAN_REUSE_MS", 600_000),
  deepScanMaxAgeMs: ms("DEEP_SCAN_MAX_AGE_MS", 1_800_000),
  deepScanBurst: int("DEEP_SCAN_BURST", 5),
  deepScanPerHour: int("DEEP_SCAN_PER_HOUR", 30),
  // cluster (jobs/Cluster.ts): empty URL = one process, SQLite under DATA_DIR
  clusterDatabaseUrl: Config.redacted("CLUSTER_DATABASE_URL").pipe(Config.withDefault(Redacted.make(""))),
  runnerHost: Config.string("RUNNER_HOST").pipe(Config.withDefault("localhost")),
  runnerPort: Config.port("RUNNER_PORT").pipe(Config.withDefault(34431)),
  runnerListenHost: Config.string("RUNNER_LISTEN_HOST").pipe(Config.withDefault("")),
  clusterShards: int("CLUSTER_SHARDS", 300),
  clusterHealthCheckMs: ms("CLUSTER_HEALTH_CHECK_MS", 10_000),
  // politeness towards the servers probed (net/Destinations.ts, net/ProbeCache.ts, docs/batch.md)
  probeCacheTtlMs: durationOrOff("PROBE_CACHE_TTL", "PT10M"),
  // SMTP_PER_ADDRESS_CONCURRENCY is this setting's former name, still read when it is unset
  perDestinationConcurrency: Config.integer("PER_DESTINATION_CONCURRENCY").pipe(
    Config.orElse(() => Config.integer("SMTP_PER_ADDRESS_CONCURRENCY")),
    Config.withDefault(2)
  ),
  perDestinationHttp: int("PER_DESTINATION_HTTP", 4),
  perPrefixConcurrency: int("PER_PREFIX_CONCURRENCY", 8),
  perPrefixHttp: int("PER_PREFIX_HTTP", 16),
  destinationBackoffMs: durationOrOff("DESTINATION_BACKOFF", "PT30M")
}
