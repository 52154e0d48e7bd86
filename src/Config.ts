/**
 * AppConfig: every setting of the service, its environment name and its default, in one place.
 * Nothing else reads the environment. The README's "Configuration" table mirrors this file.
 */
import { isIP } from "node:net"
import { Config, ConfigError, Effect, Either, LogLevel, Redacted } from "effect"
import { parseEvery } from "./records/IsoDuration.ts"

/** A DNS server to ask: `address` is an IP literal, `port` usually 53. */
export interface Upstream {
  readonly address: string
  readonly port: number
}

/** A resolver asked by the propagation check, with the labels shown to the user. */
export interface PropagationResolver extends Upstream {
  readonly name: string
  readonly location: string
  readonly country: string
}

/** A DNS blocklist zone with the label and severity shown when an address is listed. */
export interface DnsblZone {
  readonly zone: string
  readonly name: string
  readonly severity: "high" | "medium" | "low"
}

const list = (name: string, fallback: string) =>
  Config.string(name).pipe(
    Config.withDefault(fallback),
    Config.map((raw) =>
      raw
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item.length > 0)
    )
  )

/** `1.1.1.1`, `1.1.1.1:5353`, `2606:4700::1111` or `[2606:4700::1111]:53`. */
export const parseUpstream = (text: string): Upstream | undefined => {
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(text)
  if (bracketed) return { address: bracketed[1]!, port: Number(bracketed[2] ?? 53) }
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?$/.exec(text)
  if (v4) return { address: v4[1]!, port: Number(v4[2] ?? 53) }
  if (/^[0-9a-fA-F:]+$/.test(text) && text.includes(":")) return { address: text, port: 53 }
  return undefined
}

const upstreams = (name: string, fallback: string) =>
  list(name, fallback).pipe(
    Config.mapOrFail((items) => {
      const parsed = items.map(parseUpstream)
      const bad = items.find((_, i) => parsed[i] === undefined)
      return bad === undefined
        ? Either.right(parsed as Array<Upstream>)
        : Either.left(ConfigError.InvalidData([name], `'${bad}' is not an IP address with an optional :port`))
    })
  )

/** Entries `address|name|location|country` separated by commas (address may carry :port). */
const DEFAULT_PROPAGATION = [
  "1.1.1.1|Cloudflare|San Francisco|US",
  "8.8.8.8|Google Public DNS|Mountain View|US",
  "9.9.9.9|Quad9|Zurich|CH",
  "208.67.222.222|OpenDNS|San Francisco|US",
  "94.140.14.14|AdGuard DNS|Limassol|CY",
  "77.88.8.8|Yandex DNS|Moscow|RU",
  "185.228.168.9|CleanBrowsing|London|GB",
  "64.6.64.6|UltraDNS|Reston|US"
].join(",")

const propagationResolvers = list("PROPAGATION_RESOLVERS", DEFAULT_PROPAGATION).pipe(
  Config.mapOrFail((items) => {
    const out: Array<PropagationResolver> = []
    for (const item of items) {
      const [addr = "", name, location = "unknown", country = "??"] = item.split("|").map((s) => s.trim())
      const upstream = parseUpstream(addr)
      if (!upstream)
        return Either.left(
          ConfigError.InvalidData(
            ["PROPAGATION_RESOLVERS"],
            `'${item}' must be address|name|location|country`
          )
        )
      out.push({ ...upstream, name: name || addr, location, country })
    }
    return Either.right(out)
  })
)

const KNOWN_DNSBLS: Record<string, Omit<DnsblZone, "zone">> = {
  "zen.spamhaus.org": { name: "Spamhaus ZEN", severity: "high" },
  "bl.spamcop.net": { name: "SpamCop", severity: "medium" },
  "b.barracudacentral.org": { name: "Barracuda", severity: "medium" },
  "psbl.surriel.com": { name: "PSBL", severity: "low" },
  "dnsbl.sorbs.net": { name: "SORBS", severity: "low" }
}

/** Entries `zone` or `zone|name|severity`; known zones get their usual name and severity. */
const dnsblZones = list("DNSBL_ZONES", Object.keys(KNOWN_DNSBLS).slice(0, 3).join(",")).pipe(
  Config.map((items) =>
    items.map((item): DnsblZone => {
      const [zone = "", name, severity] = item.split("|").map((s) => s.trim())
      const known = KNOWN_DNSBLS[zone.toLowerCase()]
      const sev = severity === "high" || severity === "medium" || severity === "low" ? severity : undefined
      return {
        zone: zone.toLowerCase(),
        name: name || known?.name || zone,
        severity: sev ?? known?.severity ?? "medium"
      }
    })
  )
)

/** `10.0.0.0/8`, `2001:db8::/32` or a bare address: the shape only (users of the list parse it). */
export const isCidrText = (text: string): boolean => {
  const [address = "", prefix, ...rest] = text.split("/")
  const family = isIP(address)
  if (family === 0 || rest.length > 0) return false
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128))
}

/** Comma-separated CIDRs or addresses (`10.0.0.0/8,::1`), refused at start-up when malformed. */
const cidrs = (name: string) =>
  list(name, "").pipe(
    Config.mapOrFail((items) => {
      const bad = items.find((item) => !isCidrText(item))
      return bad === undefined
        ? Either.right(items as ReadonlyArray<string>)
        : Either.left(ConfigError.InvalidData([name], `'${bad}' is not a CIDR or address`))
    })
  )

/** Ports and ranges, `443,8443,1024-65535`, as a membership test. */
export const parsePorts = (items: ReadonlyArray<string>): ((port: number) => boolean) | string => {
  const ranges: Array<readonly [number, number]> = []
  for (const item of items) {
    const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(item)
    const lo = Number(m?.[1]),
      hi = Number(m?.[2] ?? m?.[1])
    if (!m || lo < 1 || hi > 65535 || lo > hi) return item
    ranges.push([lo, hi])
  }
  return (port) => ranges.some(([lo, hi]) => port >= lo && port <= hi)
}

const ports = (name: string, fallback: string) =>
  list(name, fallback).pipe(
    Config.mapOrFail((items) => {
      const parsed = parsePorts(items)
      return typeof parsed === "string"
        ? Either.left(ConfigError.InvalidData([name], `'${parsed}' is not a port or a range lo-hi`))
        : Either.right(parsed)
    })
  )

/** An empty setting, or an absolute http(s) URL (without query or fragment), kept without its last `/`. */
const baseUrl = (name: string, example: string) =>
  Config.string(name).pipe(
    Config.withDefault(""),
    Config.mapOrFail((raw) => {
      if (raw === "") return Either.right("")
      try {
        const url = new URL(raw)
        if ((url.protocol === "http:" || url.protocol === "https:") && url.search === "" && url.hash === "")
          return Either.right(url.href.replace(/\/$/, ""))
      } catch {
        // fall through to the error below
      }
      return Either.left(
        ConfigError.InvalidData([name], `'${raw}' must be an http(s) URL such as ${example}`)
      )
    })
  )

/**
 * `ALLOWED_HOSTS`: the names (`audit.example.net`, any port) or `name:port`s a client's `Host` may
 * carry into an answer's URLs when `PUBLIC_BASE_URL` is unset (http/PublicUrl.ts).
 */
const allowedHosts = list("ALLOWED_HOSTS", "").pipe(
  Config.mapOrFail((items) => {
    const bad = items.find((item) => !/^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(:\d{1,5})?$/i.test(item))
    return bad === undefined
      ? Either.right(items.map((item) => item.toLowerCase()) as ReadonlyArray<string>)
      : Either.left(ConfigError.InvalidData(["ALLOWED_HOSTS"], `'${bad}' is not a host or host:port`))
  })
)

/**
 * The optional model (docs/ai.md): AI_BASE_URL, AI_MODEL and AI_API_KEY all set, or none. Some but
 * not all is refused at start-up rather than silently running without the model. The base URL is
 * the operator's own choice, so it is not held to the outbound address policy of user-supplied
 * targets (a model on a private network is normal); it must be https, or plain http only to a
 * loopback host, so the key never crosses a network in clear.
 */
const aiModel = Config.all({
  baseUrl: Config.string("AI_BASE_URL").pipe(Config.withDefault("")),
  model: Config.string("AI_MODEL").pipe(Config.withDefault("")),
  apiKey: Config.redacted("AI_API_KEY").pipe(Config.withDefault(Redacted.make(""))),
  timeoutMs: Config.integer("AI_TIMEOUT_MS").pipe(Config.withDefault(10_000))
}).pipe(
  Config.mapOrFail((ai) => {
    const set = [ai.baseUrl !== "", ai.model !== "", Redacted.value(ai.apiKey) !== ""]
    if (set.every((x) => !x)) return Either.right(null)
    if (!set.every((x) => x))
      return Either.left(
        ConfigError.InvalidData(["AI_BASE_URL"], "set AI_BASE_URL, AI_MODEL and AI_API_KEY together, or none")
      )
    let url: URL
    try {
      url = new URL(ai.baseUrl)
    } catch {
      return Either.left(ConfigError.InvalidData(["AI_BASE_URL"], `'${ai.baseUrl}' is not a URL`))
    }
    const loopback = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(url.hostname)
    if (!(url.protocol === "https:" || (url.protocol === "http:" && loopback)) || url.search || url.hash)
      return Either.left(
        ConfigError.InvalidData(
          ["AI_BASE_URL"],
          `'${ai.baseUrl}' must be an https URL (plain http only on loopback) without query, such as https://api.openai.com/v1`
        )
      )
    return Either.right({ ...ai, baseUrl: url.href.replace(/\/$/, "") })
  })
)

/** An ISO 8601 duration of fixed length (`PT15M`, `P400D`, `P57W`: records/IsoDuration.ts), in ms. */
const duration = (name: string, fallback: string) =>
  Config.string(name).pipe(
    Config.withDefault(fallback),
    Config.mapOrFail((text) => {
      const parsed = parseEvery(text)
      return "ms" in parsed
        ? Either.right(parsed.ms)
        : Either.left(ConfigError.InvalidData([name], parsed.error))
    })
  )

/** A `duration`, or 0 (spelt `0` or `PT0S`): the feature it times is off. */
const durationOrOff = (name: string, fallback: string) =>
  Config.string(name).pipe(
    Config.withDefault(fallback),
    Config.mapOrFail((text) => {
      if (/^\s*(0|PT0S)\s*$/i.test(text)) return Either.right(0)
      const parsed = parseEvery(text)
      return "ms" in parsed
        ? Either.right(parsed.ms)
        : Either.left(ConfigError.InvalidData([name], parsed.error))
    })
  )

const int = (name: string, fallback: number) => Config.integer(name).pipe(Config.withDefault(fallback))

const ms = (name: string, fallback: number) => Config.integer(name).pipe(Config.withDefault(fallback))

/** Every setting, read from the environment (or a test's ConfigProvider). */
export const settings = Config.all({
  // HTTP server
  port: Config.port("PORT").pipe(Config.withDefault(8080)),
  host: Config.string("HOST").pipe(Config.withDefault("0.0.0.0")),
  publicBaseUrl: baseUrl("PUBLIC_BASE_URL", "https://audit.example.net/api"),
  allowedHosts,
  maxBodyBytes: Config.integer("MAX_BODY_BYTES").pipe(Config.withDefault(1_048_576)),
  maxHeaderBytes: int("MAX_HEADER_BYTES", 16_384),
  // a request's line, headers and body arrive within this of its first byte, or 408 (http/Server.ts)
  requestTimeoutMs: ms("REQUEST_TIMEOUT_MS", 30_000),
  maxJsonDepth: int("MAX_JSON_DEPTH", 64),
  trustedProxies: cidrs("TRUSTED_PROXIES"),
  // admission control (http/edge/Admission.ts, http/edge/Gatekeeper.ts)
  admissionConcurrency: int("ADMISSION_CONCURRENCY", 8),
  admissionQueue: int("ADMISSION_QUEUE", 64),
  admissionQueueMs: ms("ADMISSION_QUEUE_MS", 2_000),
  // new costly work is refused while the event loop's thread had work for more than this share of
  // the last half second, once a gate's worth of requests is in flight or of clients was just served
  // (http/edge/Saturation.ts, http/edge/Gatekeeper.ts; 100: never)
  admissionMaxCpuPercent: int("ADMISSION_MAX_CPU_PERCENT", 90),
  // a request back on its connection before the Retry-After it got there waits for it (Admission.ts)
  earlyRetryHoldMs: ms("EARLY_RETRY_HOLD_MS", 2_000),
  healthRefreshMs: ms("HEALTH_REFRESH_MS", 1_000),
  // a listener of its own for GET /health (http/edge/HealthPort.ts); 0: none
  healthPort: int("HEALTH_PORT", 0),
  rateCostlyBurst: int("RATE_COSTLY_BURST", 30),
  rateCostlyPerMinute: int("RATE_COSTLY_PER_MINUTE", 60),
  rateCheapBurst: int("RATE_CHEAP_BURST", 120),
  rateCheapPerMinute: int("RATE_CHEAP_PER_MINUTE", 600),
  logLevel: Config.logLevel("LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info)),
  // storage
  dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("./data")),
  // DNS
  dnsResolvers: upstreams("DNS_RESOLVERS", ""),
  dnsTimeoutMs: ms("DNS_TIMEOUT_MS", 2_000),
  dnsRetries: Config.integer("DNS_RETRIES").pipe(Config.withDefault(2)),
  dnsCacheSize: Config.integer("DNS_CACHE_SIZE").pipe(Config.withDefault(10_000)),
  propagationResolvers,
  dnsblZones,
  // outbound policy and trust
  allowTargets: list("ALLOW_TARGETS", ""),
  extraCaFile: Config.string("EXTRA_CA_FILE").pipe(Config.withDefault("")),
  // SMTP probe
  smtpPort: Config.port("SMTP_PORT").pipe(Config.withDefault(25)),
  smtpHeloName: Config.string("SMTP_HELO_NAME").pipe(Config.withDefault("domain-audit.invalid")),
  smtpConnectTimeoutMs: ms("SMTP_CONNECT_TIMEOUT_MS", 5_000),
  smtpBannerTimeoutMs: ms("SMTP_BANNER_TIMEOUT_MS", 10_000),
  smtpCommandTimeoutMs: ms("SMTP_COMMAND_TIMEOUT_MS", 5_000),
  smtpTlsTimeoutMs: ms("SMTP_TLS_TIMEOUT_MS", 5_000),
  smtpConcurrency: Config.integer("SMTP_CONCURRENCY").pipe(Config.withDefault(32)),
  // HTTPS client
  httpConnectTimeoutMs: ms("HTTP_CONNECT_TIMEOUT_MS", 5_000),
  httpTimeoutMs: ms("HTTP_TIMEOUT_MS", 10_000),
  httpMaxBodyBytes: Config.integer("HTTP_MAX_BODY_BYTES").pipe(Config.withDefault(2_097_152)),
  httpMaxHeaderBytes: Config.integer("HTTP_MAX_HEADER_BYTES").pipe(Config.withDefault(32_768)),
  httpAllowedPorts: ports("HTTP_ALLOWED_PORTS", "443"),
  // CSP crawler
  cspMaxPages: Config.integer("CSP_MAX_PAGES").pipe(Config.withDefault(20)),
  cspBudgetMs: ms("CSP_BUDGET_MS", 45_000),
  // new CSP crawls per client (cache hits are free): 3 at once, 3 more per 10 minutes
  cspScanBurst: int("CSP_SCAN_BURST", 3),
  cspScanPerHour: int("CSP_SCAN_PER_HOUR", 18),
  // scans
  scanDeadlineMs: ms("SCAN_DEADLINE_MS", 30_000),
  checkTimeoutMs: ms("CHECK_TIMEOUT_MS", 20_000),
  scanCacheTtlMs: ms("SCAN_CACHE_TTL_MS", 300_000),
  checkCacheTtlMs: ms("CHECK_CACHE_TTL_MS", 30_000),
  scanCacheSize: Config.integer("SCAN_CACHE_SIZE").pipe(Config.withDefault(1000)),
  // optional model for /ai/explain (null: none configured, nothing is ever sent)
  ai: aiModel,
  // POST /debug-email: the largest raw message accepted (413 beyond), below MAX_BODY_BYTES
  debugEmailMaxBytes: int("DEBUG_EMAIL_MAX_BYTES", 524_288),
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
  // report snapshots (report/SnapshotStore.ts, docs/reports.md)
  snapshotRateBurst: int("SNAPSHOT_RATE_BURST", 5),
  snapshotRatePerMinute: int("SNAPSHOT_RATE_PER_MINUTE", 2),
  snapshotDedupeMs: ms("SNAPSHOT_DEDUPE_MS", 300_000),
  // scan history (monitor/Histories.ts, docs/monitoring.md): every fresh full scan, or monitored domains' only
  history: Config.literal("all", "monitored")("HISTORY").pipe(Config.withDefault("all" as const)),
  // operations (docs/operations.md): log lines as text or one JSON object each; /metrics on the API
  // port too (it is always on HEALTH_PORT); OTLP/HTTP traces when an endpoint is set; on SIGTERM,
  // how long requests in flight get to finish
  logFormat: Config.literal("text", "json")("LOG_FORMAT").pipe(Config.withDefault("text" as const)),
  metricsOnApi: Config.boolean("METRICS_ON_API").pipe(Config.withDefault(false)),
  otlpEndpoint: baseUrl("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"),
  shutdownGraceMs: ms("SHUTDOWN_GRACE_MS", 25_000),
  // reports in (inbound/, docs/reports-in.md): limits on what strangers send, retention, SMTP receiver
  reportsMaxBytes: int("REPORTS_MAX_BYTES", 10_485_760),
  reportsMaxUnpackedBytes: int("REPORTS_MAX_UNPACKED_BYTES", 52_428_800),
  reportsMaxRatio: int("REPORTS_MAX_RATIO", 200),
  reportsMaxRecords: int("REPORTS_MAX_RECORDS", 100_000),
  reportsMaxZipEntries: int("REPORTS_MAX_ZIP_ENTRIES", 16),
  reportsRetentionS: duration("REPORTS_RETENTION", "P400D").pipe(Config.map((ms) => ms / 1000)),
  // 0: no SMTP receiver
  reportsSmtpPort: int("REPORTS_SMTP_PORT", 0),
  reportsSmtpHost: Config.string("REPORTS_SMTP_HOST").pipe(Config.withDefault("0.0.0.0")),
  reportsSmtpName: Config.string("REPORTS_SMTP_NAME").pipe(Config.withDefault("domain-audit.invalid")),
  reportsDomains: list("REPORTS_DOMAINS", "").pipe(Config.map((ds) => ds.map((d) => d.toLowerCase()))),
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
  monitorScansInFlight: int("MONITOR_SCANS_IN_FLIGHT", 32),
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
})

export type Settings = Config.Config.Success<typeof settings>

/** The service every part of the app reads its settings from. */
export class AppConfig extends Effect.Service<AppConfig>()("AppConfig", {
  effect: settings
}) {}
