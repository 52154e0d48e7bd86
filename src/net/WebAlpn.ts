/**
 * Which application protocol a web server selects by ALPN (RFC 7301 3.2) when offered exactly one:
 * a TLS handshake to each vetted address of the host, nothing sent after it. What an HTTPS record's
 * `alpn` (RFC 9460 7.1) is checked against. The address policy and budgets are the web client's.
 */
import { Effect } from "effect"
import * as tls from "node:tls"
import { sharedSecureContext } from "./TlsPeer.ts"
import { bareHost, vettedAddresses } from "./WebTarget.ts"
import { type AddressLookup, webError, type WebError, type WebSettings } from "./WebTypes.ts"

export interface AlpnAnswer {
  /** The address the handshake went to. */
  readonly address: string
  /** The protocol offered. */
  readonly offered: string
  /** The server selected it (true), refused the handshake for it or selected none (false). */
  readonly selected: boolean
  /** The TLS alert or error when the handshake failed for the protocol, else null. */
  readonly refusal: string | null
}

/** One handshake offering `protocol`; resolves with the answer, fails only when the server is unreachable. */
const handshake = (
  settings: WebSettings,
  host: string,
  port: number,
  address: string,
  protocol: string
): Effect.Effect<AlpnAnswer, WebError> =>
  Effect.async<AlpnAnswer, WebError>((resume) => {
    const url = `https://${host}:${port}/`
    let done = false
    const finish = (e: Effect.Effect<AlpnAnswer, WebError>) => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resume(e)
    }
    const socket = tls.connect({
      host: address,
      port,
      servername: host,
      ALPNProtocols: [protocol],
      // Only the protocol is asked: the certificate is judged by the headers and TLS checks.
      rejectUnauthorized: false,
      secureContext: sharedSecureContext(settings.ca, { minVersion: "TLSv1.2" })
    })
    const timer = setTimeout(
      () =>
        finish(
          Effect.fail(
            webError(url, "timeout", `no TLS handshake within ${settings.connectTimeoutMs} ms`, address)
          )
        ),
      settings.connectTimeoutMs
    )
    socket.once("secureConnect", () =>
      finish(
        Effect.succeed({
          address,
          offered: protocol,
          selected: socket.alpnProtocol === protocol,
          refusal: null
        })
      )
    )
    socket.once("error", (error: NodeJS.ErrnoException & { readonly reason?: string }) => {
      // A TLS alert is the server's answer (no_application_protocol, RFC 7301 3.2); a socket error is not.
      const alert = /alert|SSL|TLS/i.test(`${error.code ?? ""} ${error.message}`)
      finish(
        alert
          ? // OpenSSL's reason ("tlsv1 alert no application protocol"), not its message, which
            // carries a thread's address and a source line that differ from run to run
            Effect.succeed({
              address,
              offered: protocol,
              selected: false,
              refusal: error.reason ?? error.message
            })
          : Effect.fail(webError(url, "connect", `${address}: ${error.code ?? error.message}`, address))
      )
    })
    return Effect.sync(() => socket.destroy())
  })

/**
 * Offers each protocol alone to the first vetted address of `host` (ports as the web client allows).
 * h3 runs over QUIC (RFC 9114), not TCP: it is not offered here and the caller reports it unverified.
 */
export const probeAlpn =
  (settings: WebSettings, lookup: AddressLookup) =>
  (
    host: string,
    protocols: ReadonlyArray<string>,
    options: { readonly port?: number; readonly lookup?: AddressLookup } = {}
  ): Effect.Effect<ReadonlyArray<AlpnAnswer>, WebError> => {
    const url = new URL(`https://${host}:${options.port ?? 443}/`)
    return vettedAddresses(settings, options.lookup ?? lookup, url).pipe(
      Effect.flatMap((addresses) =>
        Effect.forEach(protocols, (p) =>
          handshake(settings, bareHost(url), options.port ?? 443, addresses[0]!, p)
        )
      )
    )
  }
