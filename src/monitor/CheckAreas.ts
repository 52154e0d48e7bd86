/**
 * What a score record is about (the web site, mail, DNSSEC), read from its id, so that a diff can
 * say in one line that a set of checks no longer applies and why, instead of one line per check
 * (DiffOrder.ts, DiffLines.ts). When a site goes away, a dozen web checks turn `not-applicable` at
 * once; their owner wants to read that the site went away, not each check.
 *
 * The id is all a stored change carries of its record (Change.ts), and record ids name their area
 * (`security.web.hsts`, `security.mx.starttls`, `dnssec.nsec3`). A record no area claims is `other`.
 */

export interface Area {
  readonly key: "web" | "mail" | "dnssec" | "other"
  /** The adjective for its checks: "14 web checks". Empty for `other`. */
  readonly noun: string
  /** Which records belong to it, by record id. */
  readonly holds: (recordId: string) => boolean
  /**
   * The record whose turning `not-applicable` means the whole area went away, and the sentence that
   * says so: the web site's HTTPS check does not apply only when the apex has no web address, the
   * STARTTLS check only when the domain has no mail server. Without it in a group the line names no
   * cause (a single web check can stop applying for its own reasons, e.g. no cookie set).
   */
  readonly gone?: { readonly marker: string; readonly sentence: string }
}

const under =
  (...prefixes: ReadonlyArray<string>) =>
  (recordId: string) =>
    prefixes.some((p) => recordId === p || recordId.startsWith(`${p}.`))

/** The areas in the order a diff lists their lines; `other` last, as the catch-all. */
export const Areas: ReadonlyArray<Area> = [
  {
    key: "web",
    noun: "web",
    holds: under("security.web", "security.headers", "security.csp", "ipv6.web", "dns.https_record"),
    gone: { marker: "security.web.https", sentence: "The web site went away" }
  },
  {
    key: "mail",
    noun: "mail",
    holds: under("email", "dns.mx", "dns.ptr", "dns.fcrdns", "security.mx", "security.blocklist", "ipv6.mx"),
    gone: { marker: "security.mx.starttls", sentence: "The domain no longer has a mail server" }
  },
  { key: "dnssec", noun: "DNSSEC", holds: under("dnssec") },
  { key: "other", noun: "", holds: () => true }
]

/** The area of a score record (`other` when none is more specific). */
export const areaOf = (recordId: string): Area => Areas.find((a) => a.holds(recordId))!
