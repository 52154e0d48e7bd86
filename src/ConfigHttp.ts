/**
 * The HTTP server's settings of AppConfig (`Config.ts` spreads them into its settings): where it
 * listens, the URLs its answers carry, the limits on a request, admission control and rate limits.
 */
import { Config, ConfigError, Either } from "effect"
import { baseUrl, cidrs, int, list, ms } from "./ConfigValues.ts"

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

export const httpServerSettings = {
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
  // costly work runs in slices of about this long, the sockets read between two (http/edge/Slices.ts)
  costlySliceMs: ms("COSTLY_SLICE_MS", 5),
  healthRefreshMs: ms("HEALTH_REFRESH_MS", 1_000),
  // a listener of its own for GET /health and /metrics (http/edge/HealthPort.ts); 0: none. On
  // loopback unless HEALTH_HOST says otherwise: the metrics are the operator's, not the public's
  healthPort: int("HEALTH_PORT", 0),
  healthHost: Config.string("HEALTH_HOST").pipe(Config.withDefault("127.0.0.1")),
  // how often the event loop hands the HEALTH_PORT thread its /health answer (http/edge/HealthPort.ts)
  healthPublishMs: ms("HEALTH_PUBLISH_MS", 100),
  rateCostlyBurst: int("RATE_COSTLY_BURST", 30),
  rateCostlyPerMinute: int("RATE_COSTLY_PER_MINUTE", 60),
  rateCheapBurst: int("RATE_CHEAP_BURST", 120),
  rateCheapPerMinute: int("RATE_CHEAP_PER_MINUTE", 600),
  // a client with a usable API key has a bucket of its own, this many times each per-address policy
  rateKeyMultiplier: int("RATE_KEY_MULTIPLIER", 10)
}
