/**
 * What the REQUIRETLS check gathers: what each SMTP session said, reduced to what the check judges.
 * In a module of its own so that the example fixture (Example.ts) reads sessions as `gather` does,
 * without a circle.
 */
import type { MxStatus } from "../../kernel/MailServers.ts"
import type { SmtpProbe } from "../../net/Smtp.ts"

/** What one SMTP session with one mail server address told about REQUIRETLS. */
export interface Heard {
  readonly host: string
  readonly address: string
  /**
   * `tls`: the session reached EHLO after STARTTLS; `plain`: it ended without TLS (no STARTTLS, or
   * the handshake failed), so REQUIRETLS cannot be offered; `unknown`: we could not find out.
   */
  readonly session: "tls" | "plain" | "unknown"
  /** The EHLO keywords after STARTTLS (none unless `tls`). */
  readonly keywords: ReadonlyArray<string>
  /** Why the session is `plain` or `unknown`; null otherwise. */
  readonly reason: string | null
}

export interface RequireTlsGathered {
  readonly domain: string
  readonly mxStatus: MxStatus
  /** Why the MX set is unknown (`mxUnknown`), else null. */
  readonly mxError: string | null
  readonly heard: ReadonlyArray<Heard>
  /**
   * The domain has no MX and nothing answers SMTP at its own address, the implicit MX (RFC 5321
   * 5.1): `refused` or `unreachable` as the SMTP TLS check reads it (`implicitSilence`), else null.
   */
  readonly implicitMxSilent: "refused" | "unreachable" | null
}

/** What a probe says about REQUIRETLS: only the EHLO reply after STARTTLS counts. */
export const heardOf = (probe: SmtpProbe): Heard => {
  const base = { host: probe.host, address: probe.address }
  if (probe.tls !== null && probe.status === "complete")
    return { ...base, session: "tls", keywords: probe.tls.extensions, reason: null }
  if (probe.status === "unknown" || probe.tls !== null || probe.failure?.reason === "policy")
    return {
      ...base,
      session: "unknown",
      keywords: [],
      reason: probe.failure?.message ?? "the session did not finish"
    }
  return {
    ...base,
    session: "plain",
    keywords: [],
    reason: probe.starttlsOffered
      ? `STARTTLS failed (${probe.failure?.message ?? "no TLS session"})`
      : probe.ehloCode === null
        ? `the session ended before EHLO (${probe.failure?.message ?? "no reply"})`
        : "no STARTTLS, so no REQUIRETLS"
  }
}
