/**
 * The TLS scan of a web host's address on port 443 (TlsScan.ts over a TCP opener), under the same
 * address policy as every web request (Targets.ts): an address the policy refuses is not contacted.
 * A few scans run at once across the service, so a batch does not open hundreds of handshakes.
 */
import { Effect } from "effect"
import { vetText } from "./Targets.ts"
import { blankScan, scanTls, type TlsScanResult } from "./TlsScan.ts"
import { tcpOpener } from "./TlsHandshake.ts"
import type { WebSettings } from "./WebTypes.ts"

/** Per address: 5 handshakes for versions and certificate, the rest for suites (a server accepting ~30). */
export const MAX_HANDSHAKES = 48
/** Version handshakes at once against one address. */
export const HANDSHAKE_CONCURRENCY = 3
/** Web TLS scans at once in this process. */
export const SCANS_AT_ONCE = 8

export type WebTlsScan = (host: string, address: string) => Effect.Effect<TlsScanResult>

export const makeWebTlsScan = (settings: WebSettings): WebTlsScan => {
  const permits = Effect.unsafeMakeSemaphore(SCANS_AT_ONCE)
  const scanSettings = {
    ca: settings.ca,
    handshakeTimeoutMs: settings.connectTimeoutMs,
    maxHandshakes: MAX_HANDSHAKES,
    concurrency: HANDSHAKE_CONCURRENCY
  }
  return (host, address) => {
    const verdict = vetText(address, settings.allow)
    if (!verdict.ok)
      return Effect.succeed(
        blankScan(host, address, 443, "refused", `${address} is a ${verdict.refusal} address: not contacted`)
      )
    return permits.withPermits(1)(
      scanTls(scanSettings, host, address, 443, tcpOpener(address, 443, settings.connectTimeoutMs))
    )
  }
}

/** What a fake answers for an address it has no scan for: nothing listened. */
export const unreachableScan = (host: string, address: string): TlsScanResult =>
  blankScan(host, address, 443, "unknown", "no such test server", new Date(0))
