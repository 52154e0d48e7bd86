/**
 * SMTP transport security of the MX servers: STARTTLS (RFC 3207), the certificate each address
 * presents (trust, name per RFC 6125 / RFC 7817, expiry), the protocol and key strength
 * (RFC 8996: TLS 1.0/1.1 deprecated). `gather` takes one SMTP session per MX address through
 * `facts.probe` (shared with DANE) and the FCrDNS verdicts; `analyse` judges them.
 */
import type { SmtpProbe } from "../../net/Smtp.ts"
import type { TlsScanResult } from "../../net/TlsScan.ts"
import { define } from "../../kernel/Check.ts"
import { type MxStatus, mxUnknown } from "../../kernel/MailServers.ts"
import { type CheckStatus, worstOf } from "../../kernel/Status.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { gather, type SmtpTlsInput } from "./SmtpTlsGather.ts"
import { presented, trustShown } from "../../kernel/TlsServerRating.ts"
import { rateMxTls } from "./SmtpTlsRating.ts"
import { TLS_GUIDELINE } from "../../records/TlsRating.ts"
import { SmtpTlsResult, CertificateInfo, type ServerResult } from "./SmtpTlsResult.ts"

export * from "./SmtpTlsResult.ts"
export type { SmtpTlsInput } from "./SmtpTlsGather.ts"

/** Expiry closer than this many days is a warning (ACME renews at 30, leaving time to notice). */
export const EXPIRY_WARNING_DAYS = 14

export type PublicCertificate = typeof CertificateInfo.Type

const OLD_PROTOCOLS = new Set(["SSLv3", "TLSv1", "TLSv1.1"])

const weakKey = (c: PublicCertificate): string | null =>
  (c.keyType === "rsa" || c.keyType === "dsa") && c.keySize !== null && c.keySize < 2048
    ? `${c.keyType.toUpperCase()} key of ${c.keySize} bits (at least 2048 expected)`
    : null

/** The verdict for one MX address. Total for any probe. */
export const analyseServer = (
  probe: SmtpProbe,
  priority: number | null,
  fcrdns: ServerResult["fcrdns"],
  now: Date,
  implicit = false,
  scan: TlsScanResult | null = null
): ServerResult => {
  const issues: Array<string> = []
  const where = `${probe.host} (${probe.address})`
  const tls = probe.tls
  const { chain, leaf, expired } = presented(tls, now)
  const certificateValid = tls && leaf ? tls.trusted && tls.hostnameMatch && expired === false : null
  const reachedEhlo = probe.ehloCode !== null
  let status: CheckStatus
  if (probe.status === "unknown") {
    status = "unknown"
    issues.push(
      probe.failure?.reason === "timeout"
        ? `${where}: no answer at the ${probe.failure.stage} stage within the timeout`
        : `${where}: unreachable (${probe.failure?.message ?? "no connection"})`
    )
  } else if (probe.failure?.reason === "policy") {
    status = "fail"
    issues.push(`${where}: not a public address, so internet senders cannot deliver to it (not probed)`)
  } else if (probe.failure && !tls && probe.failure.stage === "handshake") {
    status = "fail"
    issues.push(`${where}: STARTTLS offered but the TLS handshake failed (${probe.failure.message})`)
  } else if (probe.failure && !reachedEhlo) {
    status = "fail"
    issues.push(`${where}: refused the session at ${probe.failure.stage} (${probe.failure.message})`)
  } else if (!probe.starttlsOffered) {
    status = "fail"
    issues.push(`${where}: does not offer STARTTLS; mail to it travels unencrypted`)
  } else if (!tls) {
    status = "fail"
    issues.push(`${where}: STARTTLS failed (${probe.failure?.message ?? "no TLS session"})`)
  } else {
    const problems: Array<string> = []
    if (!leaf) problems.push("presented no certificate")
    if (expired) problems.push(`certificate expired on ${leaf!.validTo.slice(0, 10)}`)
    if (!tls.trusted) problems.push(`certificate not trusted (${tls.trustError ?? "unknown reason"})`)
    if (!tls.hostnameMatch) problems.push(`certificate does not cover ${probe.host}`)
    const warnings: Array<string> = []
    if (tls.protocol && OLD_PROTOCOLS.has(tls.protocol))
      warnings.push(`negotiated ${tls.protocol} (deprecated, RFC 8996)`)
    if (leaf && weakKey(leaf)) warnings.push(weakKey(leaf)!)
    if (leaf && !expired && tls.daysUntilExpiry !== null && tls.daysUntilExpiry < EXPIRY_WARNING_DAYS)
      warnings.push(`certificate expires in ${tls.daysUntilExpiry} days`)
    for (const p of [...problems, ...warnings]) issues.push(`${where}: ${p}`)
    // Invalid certificates still encrypt (opportunistic TLS), but break MTA-STS and DANE-less
    // authenticated delivery: a failure of the certificate, shown as a failing server.
    status = problems.length > 0 ? "fail" : warnings.length > 0 ? "warning" : "pass"
  }
  const rated = rateMxTls(tls ? scan : null, where, now)
  issues.push(...rated.issues)
  if (tls) status = worstOf([status, rated.status])
  return {
    host: probe.host,
    ip: probe.address,
    family: probe.family,
    priority,
    implicit,
    status,
    reachable: probe.status === "unknown" ? (probe.failure?.stage === "connect" ? false : null) : true,
    stalledStage: probe.failure?.reason === "timeout" ? probe.failure.stage : null,
    error: probe.failure?.message ?? null,
    banner: probe.banner,
    extensions: probe.extensions,
    starttls: reachedEhlo ? probe.starttlsOffered : null,
    tlsVersion: tls?.protocol ?? null,
    cipher: tls?.cipher ?? null,
    certificate: leaf,
    chain,
    ...trustShown(tls),
    expired,
    expiresAt: leaf?.validTo ?? null,
    daysUntilExpiry: tls?.daysUntilExpiry ?? null,
    certificateValid,
    fcrdns,
    elapsedMs: probe.elapsedMs,
    ...rated.view,
    issues
  }
}

/**
 * An implicit MX none of whose addresses could be connected to: `refused` when every address
 * refused the connection or is not a public address (the address policy: no internet sender can
 * reach it, as a parked domain's 127.0.0.1): settled, the domain receives no mail; `unreachable`
 * when one timed out or failed otherwise at connect (not settled: the check stays unknown); else
 * null (some address answered, or there is no implicit MX).
 */
export const implicitSilence = (
  mxStatus: MxStatus,
  probes: ReadonlyArray<SmtpProbe>
): "refused" | "unreachable" | null => {
  const settled = (p: SmtpProbe) => p.failure?.reason === "refused" || p.failure?.reason === "policy"
  const notConnected = (p: SmtpProbe) =>
    p.failure?.stage === "connect" && (p.status === "unknown" || p.failure.reason === "policy")
  return mxStatus !== "implicit" || probes.length === 0 || !probes.every(notConnected)
    ? null
    : probes.every(settled)
      ? "refused"
      : "unreachable"
}

/** The verdict over every MX address. Pure and total; `now` judges expiry and stamps `checkedAt`. */
export const analyse = (input: SmtpTlsInput, now: Date): SmtpTlsResult => {
  const issues: Array<string> = []
  const implicit = input.mxStatus === "implicit"
  const priorityOf = (host: string) =>
    implicit
      ? 0
      : (input.mxRecords.find((m) => m.host.toLowerCase().replace(/\.$/, "") === host.toLowerCase())
          ?.priority ?? null)
  const servers = input.probes.map((p) =>
    analyseServer(
      p,
      priorityOf(p.host),
      input.fcrdns?.[p.address] ?? null,
      now,
      implicit,
      input.tlsScans?.[`${p.host}|${p.address}`] ?? null
    )
  )
  if (input.mxStatus === "unknown") issues.push(mxUnknown({ bogus: input.mxBogus === true }))
  if (input.mxStatus === "none")
    issues.push("no MX records and no A/AAAA at the domain: mail to it cannot be delivered (RFC 5321 5.1)")
  if (input.mxStatus === "null-mx") issues.push("null MX (RFC 7505): the domain accepts no mail")
  const silent = implicitSilence(input.mxStatus, input.probes)
  if (implicit) {
    const host = input.probes[0]?.host ?? input.unresolved[0]?.host ?? input.domain
    issues.push(`no MX records: mail goes to ${host} itself, the implicit MX (RFC 5321 5.1)`)
    if (silent)
      issues.push(
        `${silent === "refused" ? "nothing accepts connections on port 25" : "port 25 could not be reached (timeout or network error)"} at ${host}: ` +
          "with no MX, the domain receives no mail; if that is intended, publish a null MX (RFC 7505)"
      )
  }
  for (const u of input.unresolved)
    issues.push(
      u.reason === "unknown"
        ? `addresses of ${implicit ? "the implicit MX" : "MX"} ${u.host} could not be resolved`
        : `MX ${u.host} has no A or AAAA record: mail to it cannot be delivered`
    )
  for (const s of servers) issues.push(...s.issues)
  const reachable = servers.filter((s) => s.starttls !== null)
  const withTls = reachable.filter((s) => s.starttls)
  const judged = servers.filter((s) => s.certificateValid !== null)
  const expiries = servers
    .filter((s) => s.expiresAt !== null)
    .sort((a, b) => Date.parse(a.expiresAt!) - Date.parse(b.expiresAt!))
  const statuses = [
    ...servers.map((s) => s.status),
    ...input.unresolved.map((u): CheckStatus => (u.reason === "unknown" ? "unknown" : "fail"))
  ]
  const status: CheckStatus =
    input.mxStatus === "unknown"
      ? "unknown"
      : input.mxStatus === "null-mx" || silent === "refused"
        ? "not-applicable"
        : statuses.length === 0
          ? input.mxStatus === "none"
            ? "not-applicable"
            : "unknown"
          : worstOf(statuses)
  return {
    domain: input.domain,
    checkedAt: now.toISOString(),
    guideline: TLS_GUIDELINE,
    mxStatus: input.mxStatus,
    mxRecords: input.mxRecords,
    servers,
    summary: {
      status,
      starttls:
        reachable.length === 0
          ? "unknown"
          : withTls.length === reachable.length
            ? "all"
            : withTls.length === 0
              ? "none"
              : "some",
      allSupportStarttls: reachable.length > 0 && withTls.length === servers.length,
      serversChecked: servers.length,
      serversReachable: reachable.length,
      serversWithStarttls: withTls.length,
      allCertificatesValid: judged.length === 0 ? null : judged.every((s) => s.certificateValid),
      earliestExpiry: expiries[0]?.expiresAt ?? null,
      earliestExpiryDays: expiries[0]?.daysUntilExpiry ?? null,
      implicitMxSilent: silent
    },
    issues
  }
}

/** GET /email/smtp-tls: one SMTP session per MX address (shared with DANE through the scan's Facts). */
export const SmtpTls = define(about, { gather, analyse, exampleGathered })
