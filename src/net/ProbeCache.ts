/**
 * Probes of mail and web servers in the transport cache (TransportCache.ts), keyed by (address,
 * port, SNI name). The SNI is part of the key because a server may present another certificate for
 * another name (RFC 6066 3), so a result for one name never answers another. Only what the server
 * said and presented belongs here (banner, EHLO, STARTTLS, TLS version, chain); a domain's
 * judgement of it (names, DANE, MTA-STS coverage) runs per domain on top. `Smtp` and the TLS scans
 * build theirs with `makeProbeCache`; the web TLS scan keeps its enumeration of versions and suites
 * per (address, port) with `makeAddressProbeCache`, shared by every name there whose own handshake
 * confirms it. RDAP (keyed by domain) and DNS answers use the same transport cache with their own
 * keys and times to live.
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
) => makeTransportCache(kind, keyText, parseKey, (key) => lookup(key), options)

const addressText = (key: ProbeKey) => `${key.address}\u0000${key.port}`

/**
 * Probes keyed by (address, port) alone, for what a server says the same whatever name it is
 * reached by (the TLS versions and suites, WebTlsScan.ts). A probe still needs a name to send as
 * SNI: it is made under the name of the asker that starts it (its whole key goes to `lookup`), and
 * every asker of the address and port meanwhile gets that probe, which names the name it was made
 * under, so that each asker can tell whether it answers for its own.
 */
export const makeAddressProbeCache = <A>(
  kind: string,
  lookup: (key: ProbeKey) => Effect.Effect<A>,
  options: ProbeCacheOptions
) =>
  makeTransportCache(
    kind,
    addressText,
    (text) => ({ ...parseKey(text), sni: "" }),
    (_address, asked: ProbeKey) => lookup({ ...asked, sni: normalSni(asked.sni) }),
    options
  )

export type ProbeCache<A> = Effect.Effect.Success<ReturnType<typeof makeProbeCache<A>>>
