/**
 * The operator's settings of AppConfig (`Config.ts` spreads them into its settings): logs, metrics,
 * traces, shutdown, and the optional model behind /ai/explain.
 */
import { Config, ConfigError, Either, LogLevel, Redacted } from "effect"
import { baseUrl, duration, ms } from "./ConfigValues.ts"

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

export const operationsSettings = {
  logLevel: Config.logLevel("LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info)),
  // operations (docs/operations.md): log lines as text or one JSON object each; /metrics on the API
  // port too (it is always on HEALTH_PORT); OTLP/HTTP traces when an endpoint is set; on SIGTERM,
  // how long requests in flight get to finish
  logFormat: Config.literal("text", "json")("LOG_FORMAT").pipe(Config.withDefault("text" as const)),
  metricsOnApi: Config.boolean("METRICS_ON_API").pipe(Config.withDefault(false)),
  otlpEndpoint: baseUrl("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"),
  shutdownGraceMs: ms("SHUTDOWN_GRACE_MS", 25_000),
  // how often the background passes run: reports pruned past their retention, unclaimed reports
  // adopted or pruned, verified domains re-checked
  housekeepingIntervalMs: duration("HOUSEKEEPING_INTERVAL", "PT1H"),
  // optional model for /ai/explain (null: none configured, nothing is ever sent)
  ai: aiModel
}
