/**
 * The library's settings as plain options. Each option is one of the service's environment settings
 * (`Config.ts`, docs/configuration.md) under a script-friendly name; whatever an option leaves unset is
 * read from the environment exactly as the service reads it, so `set -a; . data/world/world.env`
 * points a script at the test world as it points the server there. The options become a
 * ConfigProvider in front of the environment, so they pass through the same parsing and validation
 * as the service's settings: an invalid value is refused with the same message.
 */
import { readFileSync } from "node:fs"
import { ConfigProvider, Effect, Layer, Logger } from "effect"
import { AppConfig } from "../Config.ts"

export interface LibraryOptions {
  /** `DNS_RESOLVERS`: validating recursive resolvers, `ip` or `ip:port` (`[v6]:port`). */
  readonly resolvers?: ReadonlyArray<string>
  /** `DNS_TIMEOUT_MS`: one DNS question's timeout. */
  readonly dnsTimeoutMs?: number
  /** `DNS_RETRIES`: retries of a DNS question, rotating across the resolvers. */
  readonly dnsRetries?: number
  /** `SCAN_DEADLINE_MS`: a check still running this long after the scan started is `unknown`. */
  readonly scanDeadlineMs?: number
  /** `CHECK_TIMEOUT_MS`: one check's own budget within a scan. */
  readonly checkTimeoutMs?: number
  /** `HTTP_CONNECT_TIMEOUT_MS` and `HTTP_TIMEOUT_MS`: outbound HTTPS timeouts. */
  readonly httpConnectTimeoutMs?: number
  readonly httpTimeoutMs?: number
  /** `SMTP_CONNECT_TIMEOUT_MS`, ...: the MX probe's stage timeouts. */
  readonly smtpConnectTimeoutMs?: number
  readonly smtpBannerTimeoutMs?: number
  readonly smtpCommandTimeoutMs?: number
  readonly smtpTlsTimeoutMs?: number
  /** `SMTP_PORT`: the port of the MX probe. */
  readonly smtpPort?: number
  /** `SMTP_HELO_NAME`: the EHLO name of the MX probe. */
  readonly smtpHeloName?: string
  /**
   * `ALLOW_TARGETS`: CIDRs exempt from the outbound guard, which otherwise refuses private,
   * loopback and other non-public addresses (only for test worlds such as `127.0.0.0/8`).
   */
  readonly allowTargets?: ReadonlyArray<string>
  /** `HTTP_ALLOWED_PORTS`: ports (`443`) and ranges (`8000-8999`) the HTTPS client may connect to. */
  readonly httpAllowedPorts?: ReadonlyArray<string | number>
  /** `EXTRA_CA_FILE`: a PEM file of extra trusted roots, such as the test world's CA. */
  readonly extraCaFile?: string
  /** `DNSBL_ZONES`: the blocklists, `zone` or `zone|name|severity`. */
  readonly dnsblZones?: ReadonlyArray<string>
  /** `LOG_LEVEL`: the least level logged (to stderr); the library's default is `Warn`. */
  readonly logLevel?: "All" | "Trace" | "Debug" | "Info" | "Warn" | "Error" | "Fatal" | "Off"
  /**
   * A file of `KEY=value` settings read before the environment (such as the test world's
   * `data/world/world.env`): options win over it, it wins over the environment.
   */
  readonly envFile?: string
  /** The environment to read instead of `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>
}

const joined = (values: ReadonlyArray<string | number> | undefined) =>
  values === undefined ? undefined : values.map(String).join(",")

/** The environment names the options stand for, with their values as the service would read them. */
export const settingsOf = (options: LibraryOptions): Map<string, string> => {
  const named: ReadonlyArray<readonly [string, string | number | undefined]> = [
    ["DNS_RESOLVERS", joined(options.resolvers)],
    ["DNS_TIMEOUT_MS", options.dnsTimeoutMs],
    ["DNS_RETRIES", options.dnsRetries],
    ["SCAN_DEADLINE_MS", options.scanDeadlineMs],
    ["CHECK_TIMEOUT_MS", options.checkTimeoutMs],
    ["HTTP_CONNECT_TIMEOUT_MS", options.httpConnectTimeoutMs],
    ["HTTP_TIMEOUT_MS", options.httpTimeoutMs],
    ["SMTP_CONNECT_TIMEOUT_MS", options.smtpConnectTimeoutMs],
    ["SMTP_BANNER_TIMEOUT_MS", options.smtpBannerTimeoutMs],
    ["SMTP_COMMAND_TIMEOUT_MS", options.smtpCommandTimeoutMs],
    ["SMTP_TLS_TIMEOUT_MS", options.smtpTlsTimeoutMs],
    ["SMTP_PORT", options.smtpPort],
    ["SMTP_HELO_NAME", options.smtpHeloName],
    ["ALLOW_TARGETS", joined(options.allowTargets)],
    ["HTTP_ALLOWED_PORTS", joined(options.httpAllowedPorts)],
    ["EXTRA_CA_FILE", options.extraCaFile],
    ["DNSBL_ZONES", joined(options.dnsblZones)],
    ["LOG_LEVEL", options.logLevel]
  ]
  return new Map(named.flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])))
}

/** `KEY=value` lines (comments and blank lines skipped; a value may be single- or double-quoted). */
export const parseEnvText = (text: string): Map<string, string> => {
  const out = new Map<string, string>()
  for (const line of text.split("\n")) {
    const trimmed = line.trim()
    if (trimmed === "" || trimmed.startsWith("#")) continue
    const eq = trimmed.indexOf("=")
    if (eq <= 0) continue
    const value = trimmed.slice(eq + 1).trim()
    out.set(trimmed.slice(0, eq).trim(), /^(['"]).*\1$/.test(value) ? value.slice(1, -1) : value)
  }
  return out
}

const definedEntries = (env: Readonly<Record<string, string | undefined>>) =>
  new Map(Object.entries(env).flatMap(([k, v]) => (v === undefined ? [] : [[k, v] as const])))

/**
 * Where the settings come from: the options, then `envFile`, then the environment (`env`, else
 * `process.env` as it is when a setting is read). The library logs at `Warn` unless told
 * otherwise: a script's own output is what its user wants to see.
 */
export const configProviderOf = (options: LibraryOptions): ConfigProvider.ConfigProvider => {
  const environment =
    options.env === undefined ? ConfigProvider.fromEnv() : ConfigProvider.fromMap(definedEntries(options.env))
  const file =
    options.envFile === undefined
      ? environment
      : ConfigProvider.fromMap(parseEnvText(readFileSync(options.envFile, "utf8"))).pipe(
          ConfigProvider.orElse(() => environment)
        )
  return ConfigProvider.fromMap(settingsOf(options)).pipe(
    ConfigProvider.orElse(() => file),
    ConfigProvider.orElse(() => ConfigProvider.fromMap(new Map([["LOG_LEVEL", "Warn"]])))
  )
}

/**
 * A layer that makes every setting read below it (AppConfig) see `options` over the environment,
 * and sends the log to stderr as logfmt at `LOG_LEVEL`, so a script's stdout holds only its output.
 */
export const settingsLayer = (options: LibraryOptions = {}): Layer.Layer<never> =>
  Layer.setConfigProvider(configProviderOf(options))

/** Logs on stderr, as logfmt, at AppConfig's `LOG_LEVEL`. */
export const stderrLogger: Layer.Layer<never, never, AppConfig> = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Layer.merge(
      Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger)),
      Logger.minimumLogLevel(config.logLevel)
    )
  )
)
