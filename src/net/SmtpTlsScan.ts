/**
 * The TLS scan of an MX address (TlsScan.ts over the STARTTLS opener, StartTls.ts): the protocol
 * versions it accepts, a sample of its cipher suites and their key exchange, rated by the checks as
 * the web's are. Every handshake is a whole SMTP session, so the scan is kept small and polite:
 *
 * - at most `SMTP_MAX_HANDSHAKES` sessions per address (the web allows 48): one ordinary handshake
 *   (certificate), one per version TLS 1.0-1.3, the server's first `PREFERRED_SUITES` choices among
 *   the suites the NCSC-NL guidelines accept (and one handshake offering them backwards, which shows
 *   whether the server keeps its own order), up to `WEAK_SUITES` of the suites they do not accept
 *   (one refused handshake for a server that accepts none), and the TLS 1.3 suites;
 * - each session holds the destination permits of every SMTP probe (Destinations.ts: at most 2 per
 *   address, 8 per /24 or /48) and the service's SMTP permit; an address backed off as silent is not
 *   contacted; the address policy (Targets.ts) is the probe's;
 * - one scan per address and port, whatever MX name it is reached by, kept in a probe cache for
 *   PROBE_CACHE_TTL: fifty domains sharing an MX scan it once, and so do a thousand tenants whose MX
 *   names are their own but point at a provider's few addresses (Microsoft 365's
 *   `<tenant>.mail.protection.outlook.com`). It sends no SNI, as a sending MTA by default does not
 *   (Postfix's `smtp_tls_servername` and Exim's `tls_sni` are unset): versions and suites are the
 *   server's, and the result does not depend on which domain asked first. Each name's certificate
 *   (trust, name, expiry) is the STARTTLS probe's, which is per name (net/Smtp.ts).
 */
import { Effect } from "effect"
import type { Cidr } from "../records/IpAddress.ts"
import { acceptableOpensslSuite } from "../records/TlsRating.ts"
import type { Destinations } from "./Destinations.ts"
import type { Permits } from "../bounds/Permits.ts"
import { makeProbeCache } from "./ProbeCache.ts"
import type { SmtpFailure } from "./SmtpReader.ts"
import { type StartTlsSettings, starttlsOpener } from "./StartTls.ts"
import { CLIENT_SUITES, type HandshakeOutcome } from "./TlsHandshake.ts"
import { blankScan, scanTls, type TlsScanResult, vettedScan } from "./TlsScan.ts"

/** Sessions per MX address: 4 for certificate and versions (TLS 1.3 answered by the first), 3 for
 * preferred suites and the order check, 3 weak, 3 TLS 1.3; 11 against a current Postfix. */
export const SMTP_MAX_HANDSHAKES = 16
/** The server's first choices among the acceptable suites: its preference and whether it keeps one. */
export const PREFERRED_SUITES = 3
/** Weak suites named at most: one accepted already decides the rating. */
export const WEAK_SUITES = 2
/** Version handshakes at once against one address (the destination permits allow 2). */
export const SMTP_HANDSHAKE_CONCURRENCY = 2
/** Scans remembered at most: one with its chain is ~10 kB. */
const SCAN_CACHE_ENTRIES = 2_048

/** The suites this client can offer that the NCSC-NL guidelines rate phase-out or insufficient. */
export const WEAK_CLIENT_SUITES: ReadonlyArray<string> = CLIENT_SUITES.filter(
  (c) => !acceptableOpensslSuite(c)
)

export interface SmtpTlsScanOptions {
  readonly probe: StartTlsSettings & { readonly tlsTimeoutMs: number; readonly ca: ReadonlyArray<string> }
  readonly destinations: Destinations<SmtpFailure>
  readonly global: Permits
  readonly allow: ReadonlyArray<Cidr>
  readonly ttlMs: number
}

export type SmtpTlsScan = (host: string, address: string) => Effect.Effect<TlsScanResult>

export const makeSmtpTlsScan = (options: SmtpTlsScanOptions): Effect.Effect<SmtpTlsScan> =>
  Effect.gen(function* () {
    const { probe, destinations, global } = options
    const settings = (address: string) => ({
      ca: probe.ca,
      handshakeTimeoutMs: probe.tlsTimeoutMs,
      maxHandshakes: SMTP_MAX_HANDSHAKES,
      concurrency: SMTP_HANDSHAKE_CONCURRENCY,
      // The destination's permits first: a global one is not held while waiting on a busy server.
      gate: (one: Effect.Effect<HandshakeOutcome>) => destinations.around(address, global.holding(one)),
      sampling: { preferred: PREFERRED_SUITES, weak: WEAK_SUITES, weakSuites: WEAK_CLIENT_SUITES }
    })
    const cache = yield* makeProbeCache(
      "smtp-tls",
      ({ address, port, sni }) => {
        const silent = destinations.backedOff(address, port)
        return silent
          ? Effect.succeed(
              blankScan(sni, address, port, "unknown", `not contacted: backed off (${silent.message})`)
            )
          : scanTls(settings(address), sni, address, port, starttlsOpener(probe, address))
      },
      { ttlMs: options.ttlMs, capacity: SCAN_CACHE_ENTRIES }
    )
    // Scanned under the address itself: an address literal is never sent as SNI (RFC 6066 3).
    const scanOf = vettedScan(options.allow, probe.port, cache.get)
    return (_host: string, address: string) => scanOf(address, address)
  })

/** What a fake answers for an address it has no scan for: nothing listened. */
export const unreachableSmtpScan = (host: string, address: string): TlsScanResult =>
  blankScan(host, address, 25, "unknown", "no such test server", new Date(0))
