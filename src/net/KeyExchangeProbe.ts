/**
 * The key-exchange probe: which group a TLS 1.3 server takes when a client offers the hybrid
 * post-quantum groups first (TlsHello.ts builds the ClientHello and reads the answer). It sends
 * our own ClientHello over a socket from an `Opener` (plain TCP to port 443, or an SMTP session
 * after STARTTLS, StartTls.ts), reads the server's first message and closes: the ServerHello's
 * key_share or the HelloRetryRequest's selected group names the group (RFC 8446 4.1.3, 4.2.8), so
 * no ML-KEM arithmetic is done and the runtime's OpenSSL, which may not know the hybrids, plays no
 * part. One connection per address, under the same permits, address policy and cache as the TLS
 * scans of the web (WebTlsScan.ts) and mail (SmtpTlsScan.ts) servers.
 */
import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import type { Cidr } from "../records/IpAddress.ts"
import { makeProbeCache, normalSni, type ProbeKey } from "./ProbeCache.ts"
import { vetText } from "./Targets.ts"
import type { Opener } from "./TlsHandshake.ts"
import { exchangeHello } from "./HelloExchange.ts"
import { HYBRID_SHARE_BYTES } from "./HybridShare.ts"
import { clientHello, groupName, isHybrid, type ServerHelloReading } from "./TlsHello.ts"

/** What a server answered to the hybrid-first ClientHello. */
export type KeyExchangeOutcome =
  /** TLS 1.3 with this group: in its ServerHello (`helloRetry: false`) or a HelloRetryRequest. */
  | {
      readonly kind: "selected"
      readonly group: number
      readonly groupName: string
      readonly hybrid: boolean
      readonly helloRetry: boolean
    }
  /** It answered, but not with TLS 1.3 (a ServerHello of 1.2 or below, or a protocol_version alert). */
  | { readonly kind: "no-tls13"; readonly message: string }
  /** It ended the handshake with an alert: none of the groups or suites offered suit it. */
  | { readonly kind: "refused"; readonly message: string }
  /** No connection, no STARTTLS, silence, or bytes that are no TLS: we do not know. */
  | { readonly kind: "unknown"; readonly message: string }

/** TLS 1.3 (RFC 8446 4.2.1). */
const TLS13 = 0x0304
/** protocol_version (RFC 8446 6.2): the server speaks no version we offered. */
const PROTOCOL_VERSION_ALERT = 70

const versionName = (v: number) =>
  v === 0x0303
    ? "TLS 1.2"
    : v === 0x0302
      ? "TLS 1.1"
      : v === 0x0301
        ? "TLS 1.0"
        : `version 0x${v.toString(16)}`

/** What the server's first message means for the key exchange. Pure. */
export const outcomeOf = (reading: ServerHelloReading): KeyExchangeOutcome => {
  switch (reading.kind) {
    case "alert":
      return reading.description === PROTOCOL_VERSION_ALERT
        ? { kind: "no-tls13", message: "alert protocol_version: TLS 1.3 not offered" }
        : { kind: "refused", message: `alert ${reading.description} to the hybrid-first ClientHello` }
    case "malformed":
      return { kind: "unknown", message: `unreadable answer: ${reading.message}` }
    case "hello-retry":
    case "server-hello": {
      if (reading.kind === "server-hello" && reading.version !== TLS13)
        return { kind: "no-tls13", message: `the server chose ${versionName(reading.version)}` }
      if (reading.group === null)
        return { kind: "unknown", message: "a TLS 1.3 ServerHello without key_share" }
      return {
        kind: "selected",
        group: reading.group,
        groupName: groupName(reading.group),
        hybrid: isHybrid(reading.group),
        helloRetry: reading.kind === "hello-retry"
      }
    }
  }
}

/**
 * One probe over a socket from `open`: our ClientHello out, the server's first message in, then
 * the socket is destroyed (no handshake is ever finished). Never fails: failures are `unknown`.
 */
export const probeKeyExchange = (
  open: Opener,
  serverName: string | null,
  timeoutMs: number
): Effect.Effect<KeyExchangeOutcome> =>
  Effect.map(
    Effect.suspend(() =>
      exchangeHello(
        open,
        clientHello(serverName, {
          random: randomBytes(32),
          sessionId: randomBytes(32),
          share: randomBytes(2 * HYBRID_SHARE_BYTES)
        }),
        timeoutMs
      )
    ),
    (exchanged): KeyExchangeOutcome => (exchanged.kind === "read" ? outcomeOf(exchanged.reading) : exchanged)
  )

export type KeyExchangeProbe = (host: string, address: string) => Effect.Effect<KeyExchangeOutcome>

export interface KeyExchangeProbeOptions {
  /** For the probe cache's metrics: `web-kex`, `smtp-kex`. */
  readonly kind: string
  readonly port: number
  readonly allow: ReadonlyArray<Cidr>
  readonly timeoutMs: number
  readonly ttlMs: number
  /** The socket for an address: TCP, or an SMTP session after STARTTLS. */
  readonly opener: (address: string) => Opener
  /** Whether the server's name is sent as SNI (the web's; a sending MTA by default sends none). */
  readonly sendSni: boolean
  /**
   * Why `address` is not contacted now (it did not answer a moment ago: Destinations.ts backoff),
   * or undefined: asked before waiting for the permits and again after, as the TLS scans do.
   */
  readonly silent: (address: string) => string | undefined
  /** The permits a connection to `address` holds (the destination's, then the service's). */
  readonly gate: (
    address: string,
    probe: Effect.Effect<KeyExchangeOutcome>
  ) => Effect.Effect<KeyExchangeOutcome>
}

/** Probes cached per (address, port, SNI) like the TLS scans; an address the policy forbids is not contacted. */
export const makeKeyExchangeProbe = (options: KeyExchangeProbeOptions): Effect.Effect<KeyExchangeProbe> =>
  Effect.map(
    makeProbeCache(
      options.kind,
      ({ address, sni }: ProbeKey) => {
        const ifAnswering = (then: Effect.Effect<KeyExchangeOutcome>) =>
          Effect.suspend(() => {
            const why = options.silent(address)
            return why === undefined
              ? then
              : Effect.succeed<KeyExchangeOutcome>({
                  kind: "unknown",
                  message: `not contacted: backed off (${why})`
                })
          })
        const probe = probeKeyExchange(options.opener(address), sni === "" ? null : sni, options.timeoutMs)
        return ifAnswering(options.gate(address, ifAnswering(probe)))
      },
      { ttlMs: options.ttlMs, capacity: 2_048 }
    ),
    (cache) => (host, address) => {
      const verdict = vetText(address, options.allow)
      if (!verdict.ok)
        return Effect.succeed({
          kind: "unknown",
          message: `${address} is a ${verdict.refusal} address: not contacted`
        })
      return cache.get({ address, port: options.port, sni: options.sendSni ? normalSni(host) : "" })
    }
  )

/** What a fake answers: nothing listened. */
export const unreachableKeyExchange: KeyExchangeOutcome = { kind: "unknown", message: "no such test server" }
