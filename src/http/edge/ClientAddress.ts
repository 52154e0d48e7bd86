/**
 * Who is asking: the one answer used for per-client rate limits (the edge's token buckets and the
 * CSP scan limit) and for access (LocalAdmin.ts). The socket peer, unless it is a `TRUSTED_PROXIES`
 * address: then the rightmost forwarded entry that is not itself a trusted proxy (entries further
 * left are written by the client and prove nothing). A forwarded value that cannot be read fails
 * closed (`resolveForwarded`). DESIGN principle 10.
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
 * One entry of a forwarding header as an address, in every form proxies write (RFC 7239 §6 node
 * syntax, and the de-facto X-Forwarded-For): `192.0.2.1`, `192.0.2.1:51234`, `2001:db8::1`,
 * `[2001:db8::1]`, `[2001:db8::1]:51234`, each optionally as `for=...` with or without quotes
 * (RFC 7239 §4). Undefined for anything else, RFC 7239's `unknown` and obfuscated `_names`
 * included: they say where a request came from no more than garbage does.
 */
export const parseForwardedHop = (text: string): Ip | undefined => {
  let hop = text.trim()
  const param = /^for\s*=\s*(.*)$/is.exec(hop)
  if (param) hop = param[1]!.trim()
  if (hop.length >= 2 && hop.startsWith('"') && hop.endsWith('"')) hop = hop.slice(1, -1)
  if (hop.length === 0 || hop.length > 64) return undefined
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/i.exec(hop)
  if (bracketed) return parseClientIp(bracketed[1]!)
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(hop)
  if (v4WithPort) return parseClientIp(v4WithPort[1]!)
  return /^[0-9a-f:.]+$/i.test(hop) ? parseClientIp(hop) : undefined
}

/** Who asks, as the edge's rules see it. */
export interface Client {
  /** The key of the client's rate-limit buckets: its address, or a marker when none is known. */
  readonly key: string
  /**
   * The client's address, undefined when a trusted proxy forwarded a value that names none: such a
   * client is a stranger to every rule that trusts an address (never "this machine").
   */
  readonly ip: Ip | undefined
  /** The forwarding header's value when it could not be read (for the log). */
  readonly unparsed?: string | undefined
}

/** The rate-limit key of every client whose forwarded address could not be read through `proxy`. */
export const unparsedKey = (proxy: string) => `unreadable-forwarded-for@${proxy}`

/**
 * The client behind `peer` given the forwarding header (`X-Forwarded-For`, else RFC 7239
 * `Forwarded`'s `for=` values), RFC 7239 §5.2 semantics: each proxy appends the address it received
 * from, so the walk goes from the right and stops at the first address that is not a trusted
 * proxy (entries further left are written by the client and prove nothing). An entry that cannot be
 * read before that point fails closed: the client is the proxy's untrusted peer, never the proxy
 * itself, which is often this very machine. Pure, for tests.
 */
export const resolveForwarded = (
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: ReadonlyArray<Cidr>
): Client => {
  const peerIp = peer === undefined ? undefined : parseClientIp(peer)
  const self: Client =
    peerIp === undefined ? { key: peer ?? "unknown", ip: undefined } : { key: formatIp(peerIp), ip: peerIp }
  if (!isTrusted(peer, trusted) || forwardedFor === undefined) return self
  // Hops beyond the 32 nearest are never reached: no deployment has that many trusted proxies.
  const hops = forwardedFor.split(",").slice(-32).reverse()
  let client = self
  for (const hop of hops) {
    const address = parseForwardedHop(hop)
    if (address === undefined)
      return { key: unparsedKey(client.key), ip: undefined, unparsed: forwardedFor.slice(0, 200) }
    client = { key: formatIp(address), ip: address }
    if (!trusted.some((cidr) => contains(cidr, address))) return client
  }
  return client
}

/** The `for=` values of an RFC 7239 `Forwarded` header, in order, as one comma-separated list. */
export const forwardedForValues = (forwarded: string): string =>
  forwarded
    .split(",")
    .map((element) => element.split(";").find((pair) => /^\s*for\s*=/i.test(pair)) ?? "")
    .join(",")

/**
 * The forwarding header a trusted proxy wrote: `X-Forwarded-For` when present, else the `for=`
 * values of `Forwarded` (RFC 7239 §4). Only one is read: a proxy that appends to one passes the
 * other through from the client unchanged.
 */
export const forwardingHeader = (
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
): string | undefined => {
  const join = (value: string | ReadonlyArray<string> | undefined) =>
    value === undefined ? undefined : typeof value === "string" ? value : value.join(",")
  const xff = join(headers["x-forwarded-for"])
  if (xff !== undefined) return xff
  const forwarded = join(headers["forwarded"])
  return forwarded === undefined ? undefined : forwardedForValues(forwarded)
}

/** The client's rate-limit key (see `resolveForwarded`). Pure, for tests. */
export const resolveClient = (
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: ReadonlyArray<Cidr>
): string => resolveForwarded(peer, forwardedFor, trusted).key

/** The requesting client (see the module comment). */
export const requestClient: Effect.Effect<Client, never, HttpServerRequest.HttpServerRequest | AppConfig> =
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const { trustedProxies } = yield* AppConfig
    return resolveForwarded(
      Option.getOrUndefined(request.remoteAddress),
      forwardingHeader(request.headers),
      trustedCidrs(trustedProxies)
    )
  })

/** The requesting client's key for rate limiting (see the module comment). */
export const clientAddress: Effect.Effect<string, never, HttpServerRequest.HttpServerRequest | AppConfig> =
  Effect.map(requestClient, (client) => client.key)
