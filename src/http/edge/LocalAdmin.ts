/**
 * The machine itself: a request from loopback acts as the service's administrator, so the embedded
 * default works with no key at all (`npm start`, then `curl localhost:8080/api/monitors`).
 *
 * Loopback alone proves nothing about who wrote the request. A web page the operator's browser
 * opened can make it send requests to 127.0.0.1 by DNS rebinding: the attacker's name first
 * resolves to the attacker, then to 127.0.0.1, and the browser, which holds the page's origin to be
 * that name, lets the page read the answers (the Same-Origin Policy compares names, not
 * addresses). What the browser cannot change is the name: `Host` carries it (RFC 9110 §7.2), and
 * `Origin` (RFC 6454 §7) the page's. So a loopback request is the machine's only when every name it
 * carries is one this machine answers to: the listener's own address, `localhost`, or a name in
 * `ALLOWED_HOSTS` (which the operator chose); any other name makes it a remote client.
 * `LOCAL_ADMIN=false` turns this off, so that every request needs a key or `MONITORS_TOKEN`.
 */
import { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { AppConfig } from "../../Config.ts"
import { contains, type Ip, parseCidr } from "../../records/IpAddress.ts"
import { type Client, isTrusted, requestClient, trustedCidrs } from "./ClientAddress.ts"
import { hostAllowed, requestListener, validHost } from "./PublicUrl.ts"

const LOOPBACK = ["127.0.0.0/8", "::1/128"].map((c) => parseCidr(c)!)

export const isLoopback = (ip: Ip | undefined): boolean =>
  ip !== undefined && LOOPBACK.some((cidr) => contains(cidr, ip))

/**
 * Whether a `Host` value names this machine: the listener's own address, `localhost` (any port;
 * RFC 6761 §6.3 keeps it on loopback), or an `ALLOWED_HOSTS` entry.
 */
export const namesThisMachine = (
  value: string | undefined,
  allowedHosts: ReadonlyArray<string>,
  listener: string | undefined
): boolean => {
  const host = validHost(value)
  if (host === undefined) return false
  if (/^localhost\.?(:\d+)?$/.test(host)) return true
  return hostAllowed(host, allowedHosts, listener)
}

/** The host of an `Origin` value (RFC 6454 §7: scheme "://" host [":" port]), or undefined. */
const originHost = (origin: string): string | undefined => {
  try {
    const url = new URL(origin)
    return url.origin === "null" ? undefined : url.host
  } catch {
    return undefined
  }
}

export interface LocalRequest {
  readonly client: Client
  /** The request's `Host`. */
  readonly host: string | undefined
  /** `X-Forwarded-Host`, when the socket peer is a trusted proxy (undefined otherwise). */
  readonly forwardedHost: string | undefined
  readonly origin: string | undefined
  /** The listener's own address as a `Host` value (`127.0.0.1:8080`), when known. */
  readonly listener: string | undefined
}

/** Pure, for tests: whether `request` is the machine itself (see the module comment). */
export const isLocalAdmin = (
  request: LocalRequest,
  settings: { readonly localAdmin: boolean; readonly allowedHosts: ReadonlyArray<string> }
): boolean => {
  if (!settings.localAdmin || !isLoopback(request.client.ip)) return false
  const local = (name: string | undefined) => namesThisMachine(name, settings.allowedHosts, request.listener)
  if (!local(request.host)) return false
  // A proxy that rewrites Host passes the name the browser used here.
  if (request.forwardedHost !== undefined && !local(request.forwardedHost.split(",")[0]?.trim())) return false
  // Sent by browsers on every request that is not a plain same-origin GET; `null` is an opaque origin.
  if (request.origin !== undefined && !local(originHost(request.origin))) return false
  return true
}

/** Whether the current request is the machine itself (see the module comment). */
export const localAdmin: Effect.Effect<boolean, never, HttpServerRequest.HttpServerRequest | AppConfig> =
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const config = yield* AppConfig
    const viaProxy = isTrusted(
      Option.getOrUndefined(request.remoteAddress),
      trustedCidrs(config.trustedProxies)
    )
    return isLocalAdmin(
      {
        client: yield* requestClient,
        host: request.headers["host"],
        forwardedHost: viaProxy ? request.headers["x-forwarded-host"] : undefined,
        origin: request.headers["origin"],
        listener: requestListener(request)
      },
      config
    )
  })
