/**
 * One TLS handshake of a probe, with the versions and cipher suites it offers pinned: the unit the
 * TLS scan (TlsScan.ts) is made of. It observes; it never trusts or refuses on its own, so an old
 * protocol or a weak suite completes when the server agrees, and a refusal is the server's.
 */
import * as net from "node:net"
import * as tls from "node:tls"
import { Effect } from "effect"
import { KeptPeer, probeSecureContext, sharedSecureContext } from "./TlsPeer.ts"

/** A connected socket to hand to TLS: plain TCP for HTTPS, the SMTP session after STARTTLS for mail. */
export type Opener = Effect.Effect<net.Socket, string>

/** The ephemeral key exchange of a handshake (node's `getEphemeralKeyInfo`). */
export interface KeyExchangeFacts {
  readonly type: "ECDH" | "DH"
  readonly name: string | null
  readonly size: number
}

export type HandshakeOutcome =
  | {
      readonly kind: "accepted"
      readonly protocol: string
      /** IANA name (`TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256`). */
      readonly cipher: string
      /** OpenSSL name, what a cipher string names. */
      readonly opensslName: string
      readonly keyExchange: KeyExchangeFacts | null
      /** The server stapled an OCSP response (RFC 6066 8); false when not asked for. */
      readonly ocspStapled: boolean
      readonly socket: tls.TLSSocket
      /** The certificate as node's handshake read it, when the chain verified (TlsPeer.ts). */
      readonly kept: KeptPeer
    }
  /** The server ended the handshake (an alert, or it closed the connection): it does not accept this. */
  | { readonly kind: "refused"; readonly message: string }
  /** No answer, no connection, or nothing this client can offer: we do not know. */
  | { readonly kind: "unknown"; readonly message: string }

/** TLS 1.0 and 1.1, and the weak suites, need security level 0 on OpenSSL 3 (they are off at 1). */
const LOW = ":@SECLEVEL=0"

/** The pre-1.3 suites this client's OpenSSL can offer (no PSK or SRP: they need shared keys). */
export const CLIENT_SUITES: ReadonlyArray<string> = [
  ...tls.getCiphers().map((c) => c.toUpperCase()),
  "NULL-SHA256",
  "NULL-SHA",
  "ECDHE-RSA-NULL-SHA",
  "ECDHE-ECDSA-NULL-SHA"
].filter((c, i, all) => {
  if (all.indexOf(c) !== i || /PSK|SRP|^TLS_/.test(c)) return false
  try {
    tls.createSecureContext({ ciphers: c + LOW })
    return true
  } catch {
    return false
  }
})

/** The five TLS 1.3 suites (RFC 8446 B.4); OpenSSL enables the CCM ones only when asked. */
export const TLS13_SUITES: ReadonlyArray<string> = [
  "TLS_AES_256_GCM_SHA384",
  "TLS_CHACHA20_POLY1305_SHA256",
  "TLS_AES_128_GCM_SHA256",
  "TLS_AES_128_CCM_SHA256",
  "TLS_AES_128_CCM_8_SHA256"
]

/** Versions the probe asks for one at a time, oldest first (node cannot speak SSL 2 or 3). */
export const PROBED_VERSIONS = ["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"] as const
export type ProbedVersion = (typeof PROBED_VERSIONS)[number]

export interface HandshakeRequest {
  readonly servername: string
  readonly minVersion: tls.SecureVersion
  readonly maxVersion: tls.SecureVersion
  /** Pre-1.3 suites (OpenSSL names), in the order offered. */
  readonly suites: ReadonlyArray<string>
  /** TLS 1.3 suites; empty leaves OpenSSL's default three. */
  readonly tls13Suites?: ReadonlyArray<string>
  readonly ca?: ReadonlyArray<string>
  readonly requestOcsp?: boolean
  readonly timeoutMs: number
}

/** Alerts and closes that mean "not with these parameters"; anything else is not knowing. */
const isRefusal = (error: NodeJS.ErrnoException): boolean =>
  /ALERT|WRONG_VERSION|UNSUPPORTED_PROTOCOL|NO_SHARED_CIPHER|ECONNRESET|EPIPE/.test(error.code ?? "") ||
  /socket disconnected before secure TLS connection|alert/i.test(error.message)

/**
 * Whether an unknown outcome says that nothing listens: the host refused the TCP connection (a
 * reset to the SYN, ECONNREFUSED), also as remembered by a destination's backoff. An answer about
 * the port, not about TLS, and not a silence.
 */
export const connectionRefused = (outcome: HandshakeOutcome): boolean =>
  outcome.kind === "unknown" && /\bECONNREFUSED\b/.test(outcome.message)

/**
 * One handshake over a socket from `open`. The caller ends the socket it gets back (it may read the
 * chain first). A handshake this client cannot even offer (no suite left) is unknown, never refused.
 */
export const handshake = (open: Opener, request: HandshakeRequest): Effect.Effect<HandshakeOutcome> =>
  Effect.flatMap(Effect.either(open), (opened) => {
    if (opened._tag === "Left") return Effect.succeed({ kind: "unknown", message: opened.left } as const)
    const socket = opened.right
    const ciphers = [...(request.tls13Suites ?? []), ...request.suites].join(":") + LOW
    const versions = { minVersion: request.minVersion, maxVersion: request.maxVersion }
    return Effect.async<HandshakeOutcome>((resume) => {
      let secure: tls.TLSSocket
      const kept = new KeptPeer()
      try {
        // `requestOCSP` is a TLSSocket option that tls.connect passes on; node's types omit it.
        const options: tls.ConnectionOptions & { requestOCSP: boolean } = {
          socket,
          // RFC 6066 3: SNI carries host names only, never address literals.
          ...(net.isIP(request.servername) === 0 ? { servername: request.servername } : {}),
          // A trust store goes in a context built once (TlsPeer.ts): parsing ~150 roots per
          // handshake cost ~80 ms of CPU and ~1 MB outside the heap until the next collection.
          ...(request.ca
            ? { secureContext: sharedSecureContext(request.ca, { ...versions, ciphers }) }
            : { secureContext: probeSecureContext({ ...versions, ciphers }) }),
          checkServerIdentity: kept.checkServerIdentity,
          requestOCSP: request.requestOcsp === true,
          rejectUnauthorized: false
        }
        secure = tls.connect(options)
      } catch (e) {
        socket.destroy()
        resume(Effect.succeed({ kind: "unknown", message: `not offered by this client: ${String(e)}` }))
        return
      }
      let stapled = false
      secure.once("OCSPResponse", (response: Buffer | null) => void (stapled = (response?.length ?? 0) > 0))
      const timer = setTimeout(() => {
        secure.destroy()
        resume(Effect.succeed({ kind: "unknown", message: `no handshake within ${request.timeoutMs} ms` }))
      }, request.timeoutMs)
      secure.once("error", (error: NodeJS.ErrnoException) => {
        clearTimeout(timer)
        secure.destroy()
        resume(
          Effect.succeed(
            isRefusal(error)
              ? { kind: "refused", message: error.code ?? error.message }
              : { kind: "unknown", message: error.code ?? error.message }
          )
        )
      })
      secure.once("secureConnect", () => {
        clearTimeout(timer)
        secure.removeAllListeners("error")
        secure.on("error", () => {})
        const cipher = secure.getCipher()
        const kx = secure.getEphemeralKeyInfo() as { type?: string; name?: string; size?: number } | null
        resume(
          Effect.succeed({
            kind: "accepted",
            protocol: secure.getProtocol() ?? "unknown",
            cipher: cipher.standardName ?? cipher.name,
            opensslName: cipher.name,
            keyExchange:
              kx && (kx.type === "ECDH" || kx.type === "DH")
                ? { type: kx.type, name: kx.name ?? null, size: kx.size ?? 0 }
                : null,
            ocspStapled: stapled,
            socket: secure,
            kept
          })
        )
      })
      return Effect.sync(() => {
        clearTimeout(timer)
        secure.destroy()
      })
    })
  })

/** A plain TCP connection to `address:port` within `timeoutMs`. */
export const tcpOpener = (address: string, port: number, timeoutMs: number): Opener =>
  Effect.async<net.Socket, string>((resume) => {
    const socket = net.connect({ host: address, port })
    const timer = setTimeout(() => {
      socket.destroy()
      resume(Effect.fail(`no connection within ${timeoutMs} ms`))
    }, timeoutMs)
    socket.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      resume(Effect.fail(error.code ?? error.message))
    })
    socket.once("connect", () => {
      clearTimeout(timer)
      socket.removeAllListeners("error")
      resume(Effect.succeed(socket))
    })
    return Effect.sync(() => {
      clearTimeout(timer)
      socket.destroy()
    })
  })
