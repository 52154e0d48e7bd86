/**
 * Who is asking: the one answer used for per-client rate limits (the edge's token buckets and the
 * CSP scan limit). The socket peer, unless it is a `TRUSTED_PROXIES` address: then the rightmost
 * `X-Forwarded-For` entry that is not itself a trusted proxy (entries further left are written by
 * the client and prove nothing). DESIGN principle 10.
 */
import { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { AppConfig } from "../../Config.ts"
import { type Cidr, contains, formatIp, type Ip, parseAllowList, parseIp } from "../../records/IpAddress.ts"

/** An address as text to an `Ip`, seeing through IPv4-mapped IPv6 (`::ffff:192.0.2.1`, RFC 4291 §2.5.5.2). */
export const parseClientIp = (text: string): Ip | undefined => {
  const ip = parseIp(text.trim().replace(/^\[|\](?::\d+)?$/g, ""))
  if (ip?.family === 6 && ip.value >> 32n === 0xffffn) return { family: 4, value: ip.value & 0xffffffffn }
  return ip
}

const parsed = new WeakMap<ReadonlyArray<string>, ReadonlyArray<Cidr>>()

/** `TRUSTED_PROXIES` as CIDRs, parsed once per setting (AppConfig has checked their shape). */
export const trustedCidrs = (texts: ReadonlyArray<string>): ReadonlyArray<Cidr> => {
  let cidrs = parsed.get(texts)
  if (cidrs === undefined) {
    const result = parseAllowList(texts)
    cidrs = result.ok ? result.cidrs : []
    parsed.set(texts, cidrs)
  }
  return cidrs
}

export const isTrusted = (address: string | undefined, trusted: ReadonlyArray<Cidr>): boolean => {
  if (address === undefined || trusted.length === 0) return false
  const ip = parseClientIp(address)
  return ip !== undefined && trusted.some((cidr) => contains(cidr, ip))
}

/**
 * The client behind `peer` given the `X-Forwarded-For` header (RFC 7239 §5.2 semantics: each proxy
 * appends the address it received from). Pure, for tests.
 */
export const resolveClient = (
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: ReadonlyArray<Cidr>
): string => {
  const normal = (text: string) => {
    const ip = parseClientIp(text)
    return ip === undefined ? undefined : formatIp(ip)
  }
  const self = peer === undefined ? "unknown" : (normal(peer) ?? peer)
  if (!isTrusted(peer, trusted) || forwardedFor === undefined) return self
  const hops = forwardedFor.split(",").slice(-32).reverse()
  let client = self
  for (const hop of hops) {
    const address = normal(hop)
    // Garbage in the header ends the walk: what is left of it cannot be trusted either.
    if (address === undefined) break
    client = address
    if (!isTrusted(address, trusted)) break
  }
  return client
}

/** The requesting client's address for rate limiting (see the module comment). */
export const clientAddress: Effect.Effect<string, never, HttpServerRequest.HttpServerRequest | AppConfig> =
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const { trustedProxies } = yield* AppConfig
    return resolveClient(
      Option.getOrUndefined(request.remoteAddress),
      request.headers["x-forwarded-for"],
      trustedCidrs(trustedProxies)
    )
  })
