/**
 * RDAP, the registration data access protocol, as pure grammar: the bootstrap registry that says
 * which server answers for a TLD (RFC 9224), the URL of a domain query (RFC 9082 3.1.3) and what a
 * domain object says about its registration (RFC 9083 4.5 events, 4.6 status, 5.3 the domain).
 */
import { Either } from "effect"

/** One service of a bootstrap file: the TLD labels it covers and the base URLs that answer for them. */
export interface BootstrapService {
  readonly tlds: ReadonlyArray<string>
  readonly urls: ReadonlyArray<string>
}

export type Bootstrap = ReadonlyArray<BootstrapService>

const isStrings = (value: unknown): value is ReadonlyArray<string> =>
  Array.isArray(value) && value.every((v) => typeof v === "string")

/**
 * Reads an IANA bootstrap file for DNS (RFC 9224 3, `dns.json`): `services` is an array of
 * [entries, URLs] pairs, each entry a domain label sequence (a TLD, or several labels).
 */
export const parseBootstrap = (json: unknown): Either.Either<Bootstrap, string> => {
  if (typeof json !== "object" || json === null || !("services" in json))
    return Either.left("not an RDAP bootstrap file: no services")
  const services = (json as { services: unknown }).services
  if (!Array.isArray(services)) return Either.left("not an RDAP bootstrap file: services is not an array")
  const out: Array<BootstrapService> = []
  for (const service of services) {
    if (!Array.isArray(service) || service.length < 2 || !isStrings(service[0]) || !isStrings(service[1]))
      return Either.left("not an RDAP bootstrap file: a service is not [entries, URLs]")
    out.push({
      tlds: service[0].map((t) => t.toLowerCase().replace(/^\.|\.$/g, "")),
      urls: service[1]
    })
  }
  return Either.right(out)
}

/**
 * The base URLs for `domain` (RFC 9224 4): the entry that matches the most trailing labels wins;
 * HTTPS URLs first (the RFC says a client should prefer them), in the file's order otherwise.
 */
export const baseUrlsFor = (bootstrap: Bootstrap, domain: string): ReadonlyArray<string> => {
  const labels = domain.toLowerCase().replace(/\.$/, "").split(".")
  let best: BootstrapService | undefined
  let bestLength = 0
  for (const service of bootstrap)
    for (const entry of service.tlds) {
      const entryLabels = entry.split(".")
      const n = entryLabels.length
      if (n > bestLength && n <= labels.length && labels.slice(-n).join(".") === entry) {
        best = service
        bestLength = n
      }
    }
  const urls = best?.urls ?? []
  return [...urls.filter((u) => u.startsWith("https://")), ...urls.filter((u) => !u.startsWith("https://"))]
}

/** The domain query path under a base URL (RFC 9082 3.1.3: `<base>domain/<name>`). */
export const domainQueryUrl = (base: string, domain: string): string =>
  `${base.endsWith("/") ? base : `${base}/`}domain/${domain.toLowerCase().replace(/\.$/, "")}`

/** What a domain object says about the registration (RFC 9083 5.3). */
export interface DomainRegistration {
  /** RFC 9083 4.5 `eventAction: "expiration"`, as an ISO date-time; null when none or unreadable. */
  readonly expires: string | null
  /** `eventAction: "registration"`. */
  readonly registered: string | null
  /** RFC 9083 4.6 status values (`active`, `client hold`, `pending delete`, ...). */
  readonly statuses: ReadonlyArray<string>
}

const eventDate = (events: unknown, action: string): string | null => {
  if (!Array.isArray(events)) return null
  for (const event of events) {
    if (typeof event !== "object" || event === null) continue
    const { eventAction, eventDate } = event as { eventAction?: unknown; eventDate?: unknown }
    if (eventAction !== action || typeof eventDate !== "string") continue
    const time = Date.parse(eventDate)
    if (Number.isFinite(time)) return new Date(time).toISOString()
  }
  return null
}

/** Reads a domain object (RFC 9083 5.3); a body that is not one is a reason, not a registration. */
export const parseDomainObject = (json: unknown): Either.Either<DomainRegistration, string> => {
  if (typeof json !== "object" || json === null) return Either.left("the RDAP answer is not a JSON object")
  const o = json as { objectClassName?: unknown; events?: unknown; status?: unknown }
  if (o.objectClassName !== undefined && o.objectClassName !== "domain")
    return Either.left(`the RDAP answer is a ${String(o.objectClassName)} object, not a domain`)
  return Either.right({
    expires: eventDate(o.events, "expiration"),
    registered: eventDate(o.events, "registration"),
    statuses: isStrings(o.status) ? o.status.map((s) => s.toLowerCase()) : []
  })
}

/** Whole days from `now` until `expires` (negative once expired), rounded down. */
export const daysUntil = (expires: string, now: Date): number =>
  Math.floor((Date.parse(expires) - now.getTime()) / 86_400_000)

/** The warning thresholds in days (the earliest one crossed names the band). */
export const EXPIRY_WARNINGS = [30, 14, 7] as const

/** `expired`, the smallest threshold crossed (7, 14, 30), or null when further away than 30 days. */
export const expiryBand = (daysLeft: number): "expired" | 7 | 14 | 30 | null =>
  daysLeft < 0 ? "expired" : daysLeft <= 7 ? 7 : daysLeft <= 14 ? 14 : daysLeft <= 30 ? 30 : null
