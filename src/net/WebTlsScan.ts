/**
 * The TLS scan of a web host's address on port 443 (TlsScan.ts over a TCP opener), under the same
 * address policy as every web request (Targets.ts): an address the policy refuses is not contacted.
 *
 * Polite and shared, as the SMTP probe is (DESIGN.md principle 15):
 * - one enumeration of versions and suites per (address, 443) for `PROBE_CACHE_TTL`, however many
 *   names and scans ask at once or in turn: made under the first name that asks, it answers for
 *   another name once that name's own ordinary handshake (SNI, its certificate) negotiated the same
 *   version and suite; a name it does not answer for (a virtual host configured apart) is scanned
 *   on its own (TlsShare.ts). Each name's scans are kept per (address, 443, SNI name)
 *   (ProbeCache.ts), since a server may answer another name with another certificate (RFC 6066 3);
 * - every handshake holds a permit of the web client's own `Destinations` (the HTTPS bounds per
 *   address and per /24 or /48, shared with the pages fetched from the same address) and one of
 *   the process's handshakes at once, which bound the TLS sockets' memory outside the heap. The
 *   handshake's timeout starts once it holds them, so waiting out of politeness never makes a
 *   server look silent;
 * - an address that answered none of a scan's handshakes is backed off like a silent web server:
 *   the scans of its other names are answered `unknown` at once instead of waiting again.
 */
import { Effect } from "effect"
import type { Destinations } from "./Destinations.ts"
import { Permits } from "../bounds/Permits.ts"
import { makeAddressProbeCache, makeProbeCache, type ProbeKey } from "./ProbeCache.ts"
import { blankScan, scanTls, type TlsScanResult, vettedScan } from "./TlsScan.ts"
import { confirms, sharedFor } from "./TlsShare.ts"
import { type HandshakeOutcome, tcpOpener } from "./TlsHandshake.ts"
import { webError, type WebError, type WebSettings } from "./WebTypes.ts"

/** Per address: 4 handshakes for versions and certificate, the rest for suites (a server accepting ~30). */
export const MAX_HANDSHAKES = 48
/** Version handshakes at once against one address. */
export const HANDSHAKE_CONCURRENCY = 3
/** TLS handshakes open at once in this process: each socket holds OpenSSL state outside the heap. */
export const HANDSHAKES_AT_ONCE = 128
/** Scans remembered (a few KB each: versions, suites, the certificate's facts). */
const PROBE_CACHE_ENTRIES = 2_048
const PORT = 443

export type WebTlsScan = (host: string, address: string) => Effect.Effect<TlsScanResult>

/**
 * `scan`: the full TLS scan of an address (versions, suites, certificate); `certificate`: its
 * ordinary handshake only (`TlsScanSettings.certificateOnly`), kept apart under the same rules.
 */

export const makeWebTlsScan = (settings: WebSettings, destinations: Destinations<WebError>) =>
  Effect.gen(function* () {
    const handshakes = new Permits(HANDSHAKES_AT_ONCE)
    const base = {
      ca: settings.ca,
      handshakeTimeoutMs: settings.connectTimeoutMs,
      maxHandshakes: MAX_HANDSHAKES,
      concurrency: HANDSHAKE_CONCURRENCY,
      // A page fetch's whole budget (HTTP_TIMEOUT_MS) for the suites: the check (CHECK_TIMEOUT_MS)
      // gets a partial answer in time even when handshakes queue behind other scans.
      budgetMs: settings.timeoutMs
    }
    const scanOnce =
      (certificateOnly: boolean) =>
      ({ address, port, sni }: ProbeKey) =>
        Effect.suspend(() => {
          let remembered = false
          // Asked before waiting for the permits and again after: handshakes queued behind the one
          // that found the address silent do not knock again.
          const ifAnswering = (then: Effect.Effect<HandshakeOutcome>) =>
            Effect.suspend(() => {
              const first = destinations.backedOff(address, port)
              if (first === undefined) return then
              remembered = true
              // A refusal stays one (TlsScan's `closed`), whichever of a fetch or a scan met it first.
              const message = first.connectionRefused
                ? "not contacted: it refused the connection a moment ago (ECONNREFUSED)"
                : `not contacted: no answer a moment ago (${first.message})`
              return Effect.succeed<HandshakeOutcome>({ kind: "unknown", message })
            })
          // The destination's permits first: a process-wide one is not held while waiting on a busy address.
          const gate = (one: Effect.Effect<HandshakeOutcome>) =>
            ifAnswering(destinations.around(address, ifAnswering(handshakes.holding(one))))
          return scanTls(
            { ...base, gate, certificateOnly },
            sni,
            address,
            port,
            tcpOpener(address, port, base.handshakeTimeoutMs)
          ).pipe(
            Effect.tap((scan) =>
              Effect.sync(() => {
                if ((scan.status === "unknown" || scan.status === "closed") && !remembered)
                  destinations.backOff(
                    address,
                    port,
                    webError(
                      `https://${sni}/`,
                      "connect",
                      scan.failure ?? "no answer",
                      address,
                      scan.status === "closed"
                    )
                  )
              })
            )
          )
        })
    const cacheOptions = { ttlMs: settings.probeCacheTtlMs ?? 0, capacity: PROBE_CACHE_ENTRIES }
    // A name's own full scan: the first name's at an address, and one the shared scan does not answer for.
    const own = yield* makeProbeCache("web-tls", scanOnce(false), cacheOptions)
    // Apart from the full scans: a certificate-only scan must never answer for a full one.
    const certificates = yield* makeProbeCache("web-tls-certificate", scanOnce(true), cacheOptions)
    // Per (address, 443): the full scan of the name that asked first, offered to every other name.
    const shared = yield* makeAddressProbeCache("web-tls-shared", own.get, cacheOptions)
    const full = (key: ProbeKey): Effect.Effect<TlsScanResult> =>
      Effect.flatMap(shared.get(key), (first) =>
        first.host === key.sni
          ? Effect.succeed(first)
          : Effect.flatMap(certificates.get(key), (mine) =>
              confirms(first, mine) ? Effect.succeed(sharedFor(first, mine)) : own.get(key)
            )
      )
    return {
      scan: vettedScan(settings.allow, PORT, full) satisfies WebTlsScan,
      certificate: vettedScan(settings.allow, PORT, certificates.get) satisfies WebTlsScan
    }
  })

/** What a fake answers for an address it has no scan for: nothing listened. */
export const unreachableScan = (host: string, address: string): TlsScanResult =>
  blankScan(host, address, 443, "unknown", "no such test server", new Date(0))

/** What a certificate-only scan of the server `scan` describes finds (a fake's answer): no version or suite asked. */
export const certificateOnly = (scan: TlsScanResult): TlsScanResult => {
  const blank = blankScan(
    scan.host,
    scan.address,
    scan.port,
    scan.status,
    scan.failure,
    new Date(scan.checkedAt)
  )
  return {
    ...blank,
    negotiated: scan.negotiated,
    certificate: scan.certificate,
    ocspStapled: scan.ocspStapled,
    handshakes: scan.status === "refused" ? 0 : 1,
    enumerated: false
  }
}
