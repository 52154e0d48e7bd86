/**
 * Early warnings, before something breaks: a certificate (each MX host's, and the web site's) that
 * expires within 30, 14 or 7 days, and a DNSSEC signature (RRSIG, RFC 4034 §3.1.5) that expires
 * within 7 days. Each is warned once per threshold: a warning's key names the certificate or
 * signature by its expiry and the threshold crossed, so a renewed certificate starts afresh and a
 * certificate first seen at 5 days is warned at 7, not also at 30 and 14. The registration of the
 * domain and of each domain it depends on (RDAP, checks/registration) is warned at 30, 14 and 7
 * days the same way. Pure.
 */
import type { ScanResult } from "../scan/ScanResult.ts"

export const CERTIFICATE_THRESHOLDS = [7, 14, 30] as const
export const SIGNATURE_THRESHOLD = 7

export interface Warning {
  /** Unique per certificate or signature and threshold: sent once. */
  readonly key: string
  readonly rule: "certificate-expiry" | "dnssec-expiry" | "registration-expiry"
  readonly summary: string
  /** The same sentence in Dutch (a monitor whose alerts are in Dutch). */
  readonly summaryNl: string
  readonly expiresAt: string
  readonly daysLeft: number
}

const DAY = 86_400_000

const daysLeft = (expiresAt: string, nowMs: number) => Math.floor((Date.parse(expiresAt) - nowMs) / DAY)

/** The smallest threshold at or above `days` (the one just crossed), if any; none once expired. */
export const thresholdFor = (days: number, thresholds: ReadonlyArray<number>): number | undefined =>
  days < 0 ? undefined : thresholds.find((t) => days <= t)

const inDays = (days: number) => (days === 0 ? "today" : days === 1 ? "in 1 day" : `in ${days} days`)
const inDaysNl = (days: number) => (days === 0 ? "vandaag" : days === 1 ? "over 1 dag" : `over ${days} dagen`)

/** Every early warning `scan` gives at `nowMs`, including those already sent (the caller filters). */
export const earlyWarnings = (scan: ScanResult, nowMs: number): ReadonlyArray<Warning> => {
  const out: Array<Warning> = []
  const certificate = (
    what: { readonly en: string; readonly nl: string },
    keyPart: string,
    expiresAt: string | null | undefined
  ) => {
    if (!expiresAt || !Number.isFinite(Date.parse(expiresAt))) return
    const days = daysLeft(expiresAt, nowMs)
    const threshold = thresholdFor(days, CERTIFICATE_THRESHOLDS)
    if (threshold === undefined) return
    out.push({
      key: `certificate:${keyPart}:${expiresAt}:${threshold}`,
      rule: "certificate-expiry",
      summary: `The certificate of ${what.en} expires ${inDays(days)} (${expiresAt.slice(0, 10)}).`,
      summaryNl: `Het certificaat van ${what.nl} verloopt ${inDaysNl(days)} (${expiresAt.slice(0, 10)}).`,
      expiresAt,
      daysLeft: days
    })
  }
  const web = scan.checks.headers.result
  const site = `https://${scan.domain}/`
  if (web) certificate({ en: site, nl: site }, `web:${scan.domain}`, web.certificateExpiresAt)
  const seen = new Set<string>()
  for (const server of scan.checks["smtp-tls"].result?.servers ?? []) {
    // One MX host on several addresses usually presents one certificate: warn about it once.
    const id = `${server.host}|${server.expiresAt}`
    if (seen.has(id)) continue
    seen.add(id)
    certificate(
      { en: `the mail server ${server.host}`, nl: `de mailserver ${server.host}` },
      `mx:${server.host}`,
      server.expiresAt
    )
  }
  // Absent in a scan stored before the registration check existed.
  const registration = scan.checks.registration?.result
  for (const entry of registration ? [registration.registration, ...registration.dependencies] : []) {
    if (entry.expires === null || !Number.isFinite(Date.parse(entry.expires))) continue
    const days = daysLeft(entry.expires, nowMs)
    const threshold = thresholdFor(days, CERTIFICATE_THRESHOLDS)
    if (threshold === undefined) continue
    const use = entry.uses[0]
    const whose = use === undefined ? "" : `, which ${scan.domain} depends on (${use.reason} ${use.name}),`
    const whoseNl = use === undefined ? "" : `, waarvan ${scan.domain} afhangt (${use.reason} ${use.name}),`
    out.push({
      key: `registration:${entry.domain}:${entry.expires}:${threshold}`,
      rule: "registration-expiry",
      summary: `The registration of ${entry.domain}${whose} expires ${inDays(days)} (${entry.expires.slice(0, 10)}).`,
      summaryNl: `De registratie van ${entry.domain}${whoseNl} verloopt ${inDaysNl(days)} (${entry.expires.slice(0, 10)}).`,
      expiresAt: entry.expires,
      daysLeft: days
    })
  }
  for (const sig of scan.checks.dnssec.result?.rrsig.records ?? []) {
    const days = daysLeft(sig.expiration, nowMs)
    if (sig.isExpired || thresholdFor(days, [SIGNATURE_THRESHOLD]) === undefined) continue
    out.push({
      key: `rrsig:${sig.signerName}:${sig.typeCovered}:${sig.keyTag}:${sig.expiration}:${SIGNATURE_THRESHOLD}`,
      rule: "dnssec-expiry",
      summary: `The DNSSEC signature over ${sig.signerName} ${sig.typeCovered} (key ${sig.keyTag}) expires ${inDays(days)}: check that the zone is being re-signed.`,
      summaryNl: `De DNSSEC-handtekening over ${sig.signerName} ${sig.typeCovered} (sleutel ${sig.keyTag}) verloopt ${inDaysNl(days)}: controleer of de zone opnieuw wordt ondertekend.`,
      expiresAt: sig.expiration,
      daysLeft: days
    })
  }
  return out
}
