/**
 * One enumeration of TLS versions and suites per server address and port, shared by every name
 * served there. What a server accepts is in practice the same for every name it serves; only its
 * certificate is per name (RFC 6066 3). So a name beyond the first costs one handshake, its ordinary
 * one (SNI, certificate, stapling), instead of ~15 (WebTlsScan.ts).
 *
 * A server may still be configured per name: a virtual host with its own protocols or suites. That
 * name's ordinary handshake shows it, as it offers every version and suite this client has and the
 * server answers with the best it accepts (RFC 8446 4.1.1, 4.2.1; RFC 5246 7.4.1.3): when its
 * version or suite is not what the shared enumeration's own ordinary handshake got, the enumeration
 * does not answer for the name, which is then enumerated on its own. Pure: the caller makes the
 * handshakes.
 */
import type { TlsScanResult } from "./TlsScan.ts"

/**
 * Whether `own`, the ordinary handshake of a name (a certificate-only scan), confirms that `shared`,
 * the complete scan of another name at the same address and port, answers for it: both completed
 * a handshake and negotiated the same version and suite.
 */
export const confirms = (shared: TlsScanResult, own: TlsScanResult): boolean =>
  shared.status === "complete" &&
  shared.enumerated !== false &&
  own.status === "complete" &&
  shared.negotiated !== null &&
  own.negotiated !== null &&
  shared.negotiated.protocol === own.negotiated.protocol &&
  shared.negotiated.cipher === own.negotiated.cipher

/**
 * The scan of `own`'s name from a shared enumeration it confirmed: versions, suites, their order and
 * Extended Master Secret from `shared`; the handshake, certificate and stapling its own (`handshakes`
 * counts only its own: the enumeration's were counted once, on the name it was made under).
 */
export const sharedFor = (shared: TlsScanResult, own: TlsScanResult): TlsScanResult => ({
  ...shared,
  host: own.host,
  checkedAt: own.checkedAt,
  elapsedMs: own.elapsedMs,
  handshakes: own.handshakes,
  failure: own.failure,
  negotiated: own.negotiated,
  certificate: own.certificate,
  ocspStapled: own.ocspStapled,
  enumeratedAs: shared.enumeratedAs ?? shared.host
})
