/**
 * The base URLs the service writes (report, snapshot, badge, citation and API links), DESIGN
 * principle 10: a client's `Host` never reaches a stored document, and reaches an answer only when
 * the operator named it.
 *
 * - What is stored (a snapshot: its report URLs, its evidence, and the `Location` and `Link` of its
 *   creation) uses `PUBLIC_BASE_URL`, or without it the relative `/api`: a snapshot is immutable, so
 *   a forged `Host` written into it would point at someone else's host for good.
 * - What is only answered uses `PUBLIC_BASE_URL`; otherwise the scheme of the connection and the
 *   `Host` when it is valid and either listed in `ALLOWED_HOSTS` or the listener's own address,
 *   else the listener's own address. `X-Forwarded-Proto` / `X-Forwarded-Host` count only when the
 *   socket peer is a `TRUSTED_PROXIES` address, and the forwarded host is held to the same list.
 */
import { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Option } from "effect"
import { AppConfig } from "../../Config.ts"
import { formatIp, hostLiteral } from "../../records/IpAddress.ts"
import { isTrusted, parseClientIp, trustedCidrs } from "./ClientAddress.ts"

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

/** `name:port` split, the name without a trailing dot (the same host to DNS and to a URL). */
const parts = (host: string) => {
  const m = /^(.*?)(?::(\d+))?$/.exec(host)!
  return { name: m[1]!.replace(/\.$/, ""), port: m[2] }
}

/**
 * Whether a validated `Host` is one the operator named in `ALLOWED_HOSTS` (an entry without a port
 * allows every port) or the listener's own address.
 */
export const hostAllowed = (
  host: string,
  allowedHosts: ReadonlyArray<string>,
  listener: string | undefined
): boolean => {
  const { name, port } = parts(host)
  if (listener !== undefined && host === listener) return true
  return allowedHosts.some((entry) => {
    const allowed = parts(entry.toLowerCase())
    return allowed.name === name && (allowed.port === undefined || allowed.port === port)
  })
}

/** The listener's own address as a `Host` value (`127.0.0.1:8080`, `[::1]:8080`), or undefined. */
export const listenerHost = (address: string | undefined, port: number | undefined): string | undefined => {
  const ip = address === undefined ? undefined : parseClientIp(address)
  if (ip === undefined || port === undefined) return undefined
  return ip.family === 6 ? `[${formatIp(ip)}]:${port}` : `${formatIp(ip)}:${port}`
}

/** Pure, for tests: the base URL (ending in `/api`) of an answer to a request with these headers. */
export const baseUrlFor = (
  request: {
    readonly headers: Readonly<Record<string, string | undefined>>
    readonly peer: string | undefined
    readonly encrypted: boolean
    /** The listener's own address (`listenerHost`), when known. */
    readonly listener?: string | undefined
  },
  config: {
    readonly publicBaseUrl: string
    readonly trustedProxies: Parameters<typeof isTrusted>[1]
    readonly allowedHosts: ReadonlyArray<string>
  },
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
  const named = (value: string | undefined) => {
    const host = validHost(value)
    return host !== undefined && hostAllowed(host, config.allowedHosts, request.listener) ? host : undefined
  }
  const host =
    (viaProxy ? named(firstValue(request.headers["x-forwarded-host"])) : undefined) ??
    named(request.headers["host"]) ??
    request.listener ??
    fallbackHost
  return `${scheme}://${host}/api`
}

/** Pure, for tests: the base of the URLs in a stored document: configured, or relative. */
export const storedBaseFor = (config: { readonly publicBaseUrl: string }): string =>
  config.publicBaseUrl !== "" ? config.publicBaseUrl : "/api"

/** The address `request` reached, as a `Host` value (`listenerHost`), when its socket is known. */
export const requestListener = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const socket = (NodeHttpServerRequest.toIncomingMessage(request) as { socket?: unknown } | undefined)
    ?.socket as { localAddress?: string; localPort?: number } | undefined
  return listenerHost(socket?.localAddress, socket?.localPort)
}

/** The base URL (ending in `/api`, no trailing slash) for an answer to the current request. */
export const publicBaseUrl: Effect.Effect<string, never, HttpServerRequest.HttpServerRequest | AppConfig> =
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const config = yield* AppConfig
    return baseUrlFor(
      {
        headers: request.headers,
        peer: Option.getOrUndefined(request.remoteAddress),
        // Plain HTTP is all this server speaks; TLS is terminated in front of it when at all.
        encrypted: false,
        listener: requestListener(request)
      },
      {
        publicBaseUrl: config.publicBaseUrl,
        trustedProxies: trustedCidrs(config.trustedProxies),
        allowedHosts: config.allowedHosts
      },
      // Without a socket to ask (never on node's server), the configured port on loopback.
      `localhost:${config.port}`
    )
  })

/** The base URL (ending in `/api`) of the URLs a stored document carries: never from the request. */
export const storedBaseUrl: Effect.Effect<string, never, AppConfig> = Effect.map(AppConfig, storedBaseFor)
