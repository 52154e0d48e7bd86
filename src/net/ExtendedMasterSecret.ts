/**
 * The TLS 1.2 extension probe: whether a server that speaks TLS 1.2 agrees to Extended Master
 * Secret (RFC 7627) and to OCSP stapling (RFC 6066 8). It sends our own TLS 1.2 ClientHello offering
 * both (TlsHello.ts `clientHello12`) over a socket from an `Opener` (TCP to port 443, or an SMTP
 * session after STARTTLS) and reads the ServerHello: a server that supports an extension echoes it
 * there (RFC 7627 5.2, RFC 6066 8), so one message tells, and no key is ever computed. node's TLS
 * client cannot tell: OpenSSL negotiates EMS silently and exposes no way to ask whether it did.
 */
import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import { exchangeHello } from "./HelloExchange.ts"
import type { HandshakeOutcome, Opener } from "./TlsHandshake.ts"
import { clientHello12, EXTENDED_MASTER_SECRET, type ServerHelloReading, STATUS_REQUEST } from "./TlsHello.ts"

/** What a TLS 1.2 server answered to a ClientHello offering EMS and status_request. */
export type Tls12ExtensionsOutcome =
  | {
      readonly kind: "answered"
      /** extended_master_secret in the ServerHello (RFC 7627 5.2). */
      readonly extendedMasterSecret: boolean
      /** status_request in the ServerHello: it will staple an OCSP response (RFC 6066 8). */
      readonly statusRequest: boolean
    }
  /** An alert or a close: it took nothing offered (it may speak TLS 1.2 with other suites). */
  | { readonly kind: "refused"; readonly message: string }
  | { readonly kind: "unknown"; readonly message: string }

const TLS12 = 0x0303

/** What the server's first message says about the extensions. Pure. */
export const tls12ExtensionsOf = (reading: ServerHelloReading): Tls12ExtensionsOutcome => {
  switch (reading.kind) {
    case "alert":
      return { kind: "refused", message: `alert ${reading.description} to the TLS 1.2 ClientHello` }
    case "malformed":
      return { kind: "unknown", message: `unreadable answer: ${reading.message}` }
    case "hello-retry":
      return { kind: "unknown", message: "a HelloRetryRequest to a TLS 1.2 ClientHello" }
    case "server-hello":
      return reading.version !== TLS12
        ? { kind: "unknown", message: `the server chose version 0x${reading.version.toString(16)}` }
        : {
            kind: "answered",
            extendedMasterSecret: reading.extensions.includes(EXTENDED_MASTER_SECRET),
            statusRequest: reading.extensions.includes(STATUS_REQUEST)
          }
  }
}

/** One probe over a socket from `open`. Never fails: failures are `unknown`. */
export const probeTls12Extensions = (
  open: Opener,
  serverName: string | null,
  timeoutMs: number
): Effect.Effect<Tls12ExtensionsOutcome> =>
  Effect.map(
    Effect.suspend(() => exchangeHello(open, clientHello12(serverName, randomBytes(32)), timeoutMs)),
    (exchanged): Tls12ExtensionsOutcome =>
      exchanged.kind === "read" ? tls12ExtensionsOf(exchanged.reading) : exchanged
  )

/**
 * The probe as one more handshake of a TLS scan (TlsScan.ts), under the scan's permits: `gate` runs
 * a handshake's effect, so the probe's answer is kept aside and the gate's own (a backed-off address
 * is answered without contact) stands when the probe never ran; `counted` counts it as one of the
 * scan's handshakes. Whether EMS was negotiated; null when the server gave no TLS 1.2 ServerHello.
 */
export const extendedMasterSecretGated = (
  open: Opener,
  serverName: string,
  timeoutMs: number,
  gate: ((one: Effect.Effect<HandshakeOutcome>) => Effect.Effect<HandshakeOutcome>) | undefined,
  counted: () => void
): Effect.Effect<boolean | null> =>
  Effect.suspend(() => {
    counted()
    let answer: Tls12ExtensionsOutcome | undefined
    const probe = Effect.map(probeTls12Extensions(open, serverName, timeoutMs), (o): HandshakeOutcome => {
      answer = o
      return { kind: "unknown", message: o.kind === "answered" ? "answered" : o.message }
    })
    return Effect.map(gate ? gate(probe) : probe, () =>
      answer?.kind === "answered" ? answer.extendedMasterSecret : null
    )
  })
