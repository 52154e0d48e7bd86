/** Rules of the `security` category: mail transport, blocklists and the web site (docs/scoring.md). */
import type { HeaderEntry } from "../checks/headers/Headers.ts"
import type { ScanResult } from "../checks/ScanResult.ts"
import { noMailServers, noSuchDomain, silentImplicitMx } from "./RulesDns.ts"
import {
  fail,
  judge,
  notApplicable,
  partial,
  pass,
  type Scored,
  scored,
  type Spec,
  unknown,
  type Verdict
} from "./Rules.ts"

const spec = (s: Spec): Spec => s

export const SECURITY_SPECS = {
  starttls: spec({
    id: "security.mx.starttls",
    title: "STARTTLS on every mail server",
    category: "security",
    maxPoints: 5,
    level: "required",
    critical: true,
    rule: "Every MX address offers STARTTLS with TLS 1.2 or later (the worst address counts)"
  }),
  mxCert: spec({
    id: "security.mx.cert",
    title: "Mail server certificates",
    category: "security",
    maxPoints: 3,
    level: "required",
    rule: "Every MX certificate is trusted, names the host and is not expired"
  }),
  dane: spec({
    id: "security.mx.dane",
    title: "DANE",
    category: "security",
    maxPoints: 2,
    level: "recommended",
    rule: "DNSSEC-signed TLSA that matches every MX (RFC 7672); not applicable when the zone is unsigned"
  }),
  blocklist: spec({
    id: "security.blocklist",
    title: "Blocklists",
    category: "security",
    maxPoints: 5,
    level: "required",
    critical: true,
    rule: "No MX address on a high-severity blocklist (medium or low listings: 3)"
  }),
  https: spec({
    id: "security.web.https",
    title: "HTTPS",
    category: "security",
    maxPoints: 4,
    level: "required",
    critical: true,
    rule: "The site answers over HTTPS with a trusted certificate; an untrusted or expired one is fatal; no A/AAAA is not applicable"
  }),
  hsts: spec({
    id: "security.web.hsts",
    title: "HSTS",
    category: "security",
    maxPoints: 3,
    level: "required",
    critical: true,
    rule: "max-age of a year or more with includeSubDomains, sent once 3; weaker, or the header sent twice, 1; a directive repeated within it makes it invalid, 0 (RFC 6797 6.1, 8.1)"
  }),
  xcto: spec({
    id: "security.headers.xcto",
    title: "X-Content-Type-Options",
    category: "security",
    maxPoints: 1,
    level: "recommended",
    rule: "nosniff"
  }),
  frame: spec({
    id: "security.headers.frame",
    title: "Clickjacking protection",
    category: "security",
    maxPoints: 1,
    level: "recommended",
    rule: "X-Frame-Options, or CSP frame-ancestors"
  }),
  referrer: spec({
    id: "security.headers.referrer",
    title: "Referrer-Policy",
    category: "security",
    maxPoints: 1,
    level: "recommended",
    rule: "A Referrer-Policy that is not unsafe-url, origin or origin-when-cross-origin (the HTTP Observatory's unsafe values)"
  }),
  csp: spec({
    id: "security.csp",
    title: "Content-Security-Policy",
    category: "security",
    maxPoints: 3,
    level: "recommended",
    rule: "An enforced CSP read as CSP Level 3 and rated good 3; weak (unsafe-eval, plugin hosts instead of object-src 'none', no base-uri) 1; unsafe 0: scripts or plugins unrestricted ('unsafe-inline' that no nonce or hash cancels, any host such as * or https: or https://*, no script-src, no object-src or default-src)"
  })
} as const

const TLS_OK = new Set(["TLSv1.2", "TLSv1.3"])

const header = (entries: ReadonlyArray<HeaderEntry>, name: string) => entries.find((h) => h.name === name)

/** Why a header that is not a pass fails, in a record's detail. */
const describe = (e: HeaderEntry): string =>
  e.rating === "unsafe"
    ? `is unsafe: ${e.issues.join("; ")}`
    : e.present
      ? `is ineffective: ${e.issues.join("; ")}`
      : "is missing"

export const securityRecords = (scan: ScanResult): ReadonlyArray<Scored> => {
  const c = scan.checks
  const smtp = c["smtp-tls"]
  const servers = judge(smtp, (s) => noMailServers(s) ?? pass(""))
  const starttls = judge(smtp, (s): Verdict => {
    if (servers.status !== "pass") return servers
    const bad = s.servers.filter(
      (v) => v.starttls === false || (v.tlsVersion !== null && !TLS_OK.has(v.tlsVersion))
    )
    if (bad.length > 0)
      return fail(`no STARTTLS with TLS 1.2+ on ${bad.map((v) => v.ip).join(", ")}`, "starttls_missing")
    return s.servers.some((v) => v.starttls === null)
      ? unknown("a mail server could not be reached")
      : pass(`STARTTLS on ${s.servers.length} address(es)`)
  })
  const mxCert = judge(smtp, (s): Verdict => {
    if (servers.status !== "pass") return servers
    const tls = s.servers.filter((v) => v.starttls === true)
    if (tls.length === 0)
      return s.servers.some((v) => v.starttls === null)
        ? unknown("no certificate could be read")
        : notApplicable("no STARTTLS")
    const bad = tls.filter((v) => v.certificateValid === false)
    if (bad.length > 0)
      return fail(
        `certificate not valid on ${bad.map((v) => `${v.host} (${v.trustError ?? v.hostnameError ?? (v.expired ? "expired" : "invalid")})`).join(", ")}`,
        "mx_cert_invalid"
      )
    return tls.some((v) => v.certificateValid === null)
      ? unknown("a certificate could not be judged")
      : pass("every certificate is valid")
  })
  const dnssecSigned = c.dnssec.result?.signed ?? null
  const dane = judge(c.dane, (t): Verdict => {
    if (servers.status !== "pass") return servers
    if (t.hosts.every((h) => !h.exists))
      return dnssecSigned === true
        ? fail("no TLSA records", "dane_missing")
        : notApplicable("the zone is not signed, so DANE cannot apply")
    if (t.status === "unknown") return unknown("the TLSA records could not be compared")
    return t.status === "fail" || t.hosts.some((h) => h.exists && h.dane !== null && !h.dane.daneValid)
      ? fail("TLSA does not validate for every MX", "dane_invalid")
      : pass("TLSA validates for every MX")
  })
  const silent = silentImplicitMx(scan)
  const blocklist = judge(c.blocklist, (b): Verdict => {
    if (b.mailServers.length === 0) return notApplicable("no mail servers")
    if (silent)
      return notApplicable("no MX, and nothing answers SMTP at the domain's own address (implicit MX)")
    const hits = b.mailServers.flatMap((m) =>
      m.blacklistResult.blacklists.filter((z) => z.listed).map((z) => ({ m, z }))
    )
    if (hits.some((h) => h.z.severity === "high"))
      return fail(`listed: ${[...new Set(hits.map((h) => h.z.name))].join(", ")}`, "blocklisted")
    if (hits.length > 0)
      return partial(
        3,
        `listed on lower-severity lists: ${hits.map((h) => h.z.name).join(", ")}`,
        "blocklisted"
      )
    return b.summary.unknownLookups > 0
      ? unknown(`${b.summary.unknownLookups} blocklist lookup(s) failed`)
      : pass(`${b.summary.serversChecked} address(es) not listed`)
  })
  const lookup = c["dns-records"].result
  const hasWebAddress =
    lookup === null ? null : ["A", "AAAA"].some((t) => (lookup.records[t] ?? []).some((r) => r.type === t))
  const webNa =
    lookup !== null && noSuchDomain(lookup)
      ? fail("no such domain (NXDOMAIN)", "dns_no_such_domain")
      : hasWebAddress === false
        ? notApplicable("no A or AAAA at the apex: no web site")
        : null
  const h = c.headers
  const https = judge(h, (r): Verdict => {
    if (webNa) return webNa
    if (r.headerFetchTimedOut) return unknown("the site did not answer in time")
    if (r.httpsAvailable && r.statusCode !== null) return pass(`HTTPS answers ${r.statusCode}`)
    if (r.certificateError !== undefined)
      return {
        status: "fail",
        detail: `certificate problem: ${r.certificateError}`,
        issues: ["https_certificate_invalid"],
        fatal: true
      }
    const err = r.fetchError ?? ""
    return fail(`HTTPS does not answer${err ? `: ${err}` : ""}`, "https_missing")
  })
  const headerRule = (
    name: string,
    points: number,
    issue: "xcto_missing" | "frame_protection_missing" | "referrer_policy_missing"
  ) =>
    judge(h, (r): Verdict => {
      if (webNa) return webNa
      if (https.status !== "pass")
        return https.status === "unknown" ? https : fail("no HTTPS response to read", issue)
      const e = header(r.current, name)
      if (!e || e.status === "unknown") return unknown(`${name} could not be read`)
      if (name === "X-Frame-Options" && e.status !== "pass") {
        const csp = header(r.current, "Content-Security-Policy")
        if (csp?.value && /frame-ancestors/i.test(csp.value)) return pass("CSP frame-ancestors")
      }
      return e.status === "pass" && e.rating !== "ineffective"
        ? pass(`${name}: ${e.value}`)
        : fail(`${name} ${describe(e)}`, issue)
    })
  const rated = (
    name: string,
    weak: number,
    missing: "hsts_missing" | "csp_missing",
    weakIssue: "hsts_weak" | "csp_weak",
    unsafeIssue?: "csp_unsafe"
  ) =>
    judge(h, (r): Verdict => {
      if (webNa) return webNa
      if (https.status !== "pass")
        return https.status === "unknown" ? https : fail("no HTTPS response to read", missing)
      const e = header(r.current, name)
      if (!e || e.status === "unknown") return unknown(`${name} could not be read`)
      if (e.status === "pass" && e.rating === "good") return pass(`${name}: ${e.value}`)
      if (e.status === "pass") return partial(weak, `${name} is weak: ${e.issues.join("; ")}`, weakIssue)
      if (e.rating === "unsafe" && unsafeIssue !== undefined)
        return fail(`${name} ${describe(e)}`, unsafeIssue)
      return fail(`${name} ${describe(e)}`, missing)
    })
  return [
    scored(SECURITY_SPECS.starttls, starttls),
    scored(SECURITY_SPECS.mxCert, mxCert),
    scored(SECURITY_SPECS.dane, dane),
    scored(SECURITY_SPECS.blocklist, blocklist),
    scored(SECURITY_SPECS.https, https),
    scored(SECURITY_SPECS.hsts, rated("Strict-Transport-Security", 1, "hsts_missing", "hsts_weak")),
    scored(SECURITY_SPECS.xcto, headerRule("X-Content-Type-Options", 1, "xcto_missing")),
    scored(SECURITY_SPECS.frame, headerRule("X-Frame-Options", 1, "frame_protection_missing")),
    scored(SECURITY_SPECS.referrer, headerRule("Referrer-Policy", 1, "referrer_policy_missing")),
    scored(SECURITY_SPECS.csp, rated("Content-Security-Policy", 1, "csp_missing", "csp_weak", "csp_unsafe"))
  ]
}
