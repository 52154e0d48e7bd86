/**
 * Probes of mail and web servers in the transport cache (TransportCache.ts), keyed by (address,
 * port, SNI name). The SNI is part of the key because a server may present another certificate for
 * another name (RFC 6066 3), so a result for one name never answers another. Only what the server
 * said and presented belongs here (banner, EHLO, STARTTLS, TLS version, chain); a domain's
 * judgement of it (names, DANE, MTA-STS coverage) runs per domain on top. `Smtp` and the TLS scans
 * build theirs with `makeProbeCache`; RDAP (keyed by domain) and DNS answers use the same
 * transport cache with their own keys and times to live.
 */
import type { Effect } from "effect"
import { makeTransportCache } from "./TransportCache.ts"

export interface ProbeKey {
  readonly address: string
  readonly port: number
  /** The name sent as SNI and expected in the certificate, lower case without a trailing dot. */
  readonly sni: string
}

export interface ProbeCacheOptions {
  readonly ttlMs: number
  readonly capacity: number
}

/** The cache key's text form: the fields cannot contain NUL, so it is unambiguous. */
const keyText = (key: ProbeKey) => `${key.address}\u0000${key.port}\u0000${normalSni(key.sni)}`

const parseKey = (text: string): ProbeKey => {
  const [address = "", port = "0", sni = ""] = text.split("\u0000")
  return { address, port: Number(port), sni }
}

/** SNI names compare as DNS names do: case-insensitively, the root's trailing dot dropped. */
export const normalSni = (name: string) => name.toLowerCase().replace(/\.$/, "")

/** Transport probes keyed by (address, port, SNI name). */
export const makeProbeCache = <A>(
  kind: string,
  lookup: (key: ProbeKey) => Effect.Effect<A>,
  options: ProbeCacheOptions
) => makeTransportCache(kind, keyText, parseKey, lookup, options)

export type ProbeCache<A> = Effect.Effect.Success<ReturnType<typeof makeProbeCache<A>>>
