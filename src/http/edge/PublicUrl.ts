/**
 * The base URL the service writes into what it returns or stores (report, snapshot, badge, citation
 * and API links): `PUBLIC_BASE_URL` when set; otherwise built from a validated `Host` and the scheme
 * of the connection. `X-Forwarded-Proto` / `X-Forwarded-Host` count only when the socket peer is a
 * `TRUSTED_PROXIES` address, and only when they pass the same validation. DESIGN principle 10:
 * an unvalidated Host never reaches a URL.
 */
import { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { AppConfig } from "../../Config.ts"
import { hostLiteral } from "../../net/Targets.ts"
import { isTrusted, trustedCidrs } from "./ClientAddress.ts"

/** LDH labels, plus `_` as in container and service names (`audit_web:8080`): harmless in a URL. */
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i

/**
 * A `Host` value (RFC 9110 §7.2: uri-host [":" port]) restricted to what this service can be named
 * by: a DNS name, an IPv4 address or a bracketed IPv6 address, and an optional port 1-65535.
 * Returns the lower-cased value, or undefined when it is anything else.
 */
export const validHost = (value: string | undefined): string | undefined => {
  if (value === undefined || value.length === 0 || value.length > 261) return undefined
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(value)
  if (!m) return undefined
  const [, host = "", port] = m
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return undefined
  if (host.startsWith("[")) {
    const literal = hostLiteral(host.slice(1, -1))
    if (literal === undefined || literal === "invalid" || literal.family !== 6) return undefined
  } else {
    const name = host.replace(/\.$/, "")
    if (name.length > 253 || !name.split(".").every((label) => LABEL.test(label))) return undefined
    // A name ending in a number is an IPv4 address to URL parsers (WHATWG URL): it must be one.
    if (hostLiteral(name) === "invalid") return undefined
  }
  try {
    new URL(`http://${value}/`)
  } catch {
    return undefined
  }
  return value.toLowerCase()
}

const firstValue = (header: string | undefined) => header?.split(",")[0]?.trim()

/** Pure, for tests: the base URL (ending in `/api`) for a request's headers. */
export const baseUrlFor = (
  request: {
    readonly headers: Readonly<Record<string, string | undefined>>
    readonly peer: string | undefined
    readonly encrypted: boolean
  },
  config: { readonly publicBaseUrl: string; readonly trustedProxies: Parameters<typeof isTrusted>[1] },
  fallbackHost: string
): string => {
  if (config.publicBaseUrl !== "") return config.publicBaseUrl
  const viaProxy = isTrusted(request.peer, config.trustedProxies)
  const forwardedProto = viaProxy
    ? firstValue(request.headers["x-forwarded-proto"])?.toLowerCase()
    : undefined
  const scheme =
    forwardedProto === "https" || forwardedProto === "http"
      ? forwardedProto
      : request.encrypted
        ? "https"
        : "http"
  const host =
    (viaProxy ? validHost(firstValue(request.headers["x-forwarded-host"])) : undefined) ??
    validHost(request.headers["host"]) ??
    fallbackHost
  return `${scheme}://${host}/api`
}

/** The validated base URL (ending in `/api`, no trailing slash) for the current request. */
export const publicBaseUrl: Effect.Effect<string, never, HttpServerRequest.HttpServerRequest | AppConfig> =
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const config = yield* AppConfig
    return baseUrlFor(
      {
        headers: request.headers,
        peer: Option.getOrUndefined(request.remoteAddress),
        // Plain HTTP is all this server speaks; TLS is terminated in front of it when at all.
        encrypted: false
      },
      { publicBaseUrl: config.publicBaseUrl, trustedProxies: trustedCidrs(config.trustedProxies) },
      // Without a usable Host (HTTP/1.0), the configured listening address is the honest answer.
      `localhost:${config.port}`
    )
  })
