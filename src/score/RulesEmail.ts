/** Rules of the `email` and `security` categories (docs/scoring.md). */
import type { HeaderEntry } from "../checks/headers/Headers.ts"
import type { ScanResult } from "../scan/Scanner.ts"
import { noSuchDomain } from "./RulesDns.ts"
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

export const MAIL_SPECS = {
  spfValid: spec({
    id: "email.spf.valid",
    title: "SPF record",
    category: "email",
    maxPoints: 5,
    level: "required",
    critical: true,
    rule: "One v=spf1 record without permerror (at most 10 lookups and 2 void lookups, RFC 7208 4.6.4)"
  }),
  spfPolicy: spec({
    id: "email.spf.policy",
    title: "SPF policy",
    category: "email",
    maxPoints: 4,
    level: "required",
    rule: "-all 4, ~all 3, ?all or none 1; +all is fatal (grade F)"
  }),
  dmarcValid: spec({
    id: "email.dmarc.valid",
    title: "DMARC record",
    category: "email",
    maxPoints: 3,
    level: "required",
    rule: "A DMARC record that parses (RFC 7489 6.3)"
  }),
  dmarcPolicy: spec({
    id: "email.dmarc.policy",
    title: "DMARC policy",
    category: "email",
    maxPoints: 8,
    level: "required",
    critical: true,
    rule: "p=reject 8, quarantine 6, both scaled by pct/100; none 0 (a critical fail)"
  }),
  dmarcRua: spec({
    id: "email.dmarc.reporting",
    title: "DMARC reporting",
    category: "email",
    maxPoints: 2,
    level: "recommended",
    rule: "rua present (1 when an external address is not authorised)"
  }),
  dkim: spec({
    id: "email.dkim",
    title: "DKIM",
    category: "email",
    maxPoints: 5,
    level: "required",
    rule: "A valid key under a known selector: 2048-bit RSA or Ed25519 5, weaker 3; none found is unknown (selectors cannot be listed)"
  }),
  mtaSts: spec({
    id: "email.mta_sts",
    title: "MTA-STS",
    category: "email",
    maxPoints: 2,
    level: "recommended",
    rule: "mode=enforce covering every MX 2, testing 1 (RFC 8461)"
  }),
  tlsRpt: spec({
    id: "email.tls_rpt",
    title: "TLS-RPT",
    category: "email",
    maxPoints: 1,
    level: "recommended",
    rule: "A valid _smtp._tls record (RFC 8460)"
  }),
  bimi: spec({
    id: "email.bimi",
    title: "BIMI",
    category: "email",
    maxPoints: 0,
    level: "info",
    rule: "Shown, never scored"
  }),
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
    rule: "max-age of a year or more with includeSubDomains 3; weaker 1"
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
    rule: "A Referrer-Policy that is not unsafe-url"
  }),
  csp: spec({
    id: "security.csp",
    title: "Content-Security-Policy",
    category: "security",
    maxPoints: 3,
    level: "recommended",
    rule: "An enforced CSP rated good 3; weak (unsafe-inline/eval) 1"
  })
} as const

const TLS_OK = new Set(["TLSv1.2", "TLSv1.3"])

export const emailRecords = (scan: ScanResult): ReadonlyArray<Scored> => {
  const c = scan.checks
  const spf = c.spf
  const spfValid = judge(spf, (s) => {
    if (s.status === "unknown") return unknown("the SPF record could not be looked up")
    if (!s.exists) return fail("no SPF record", "spf_missing")
    if (s.records.length > 1) return fail(`${s.records.length} SPF records`, "spf_multiple_records")
    if (s.lookups > s.lookupLimit)
      return fail(`${s.lookups} DNS lookups (limit ${s.lookupLimit})`, "spf_too_many_lookups")
    if (s.voidLookups > s.voidLookupLimit)
      return fail(`${s.voidLookups} void lookups (limit ${s.voidLookupLimit})`, "spf_too_many_void_lookups")
    return s.valid ? pass("one valid SPF record") : fail("permerror", "spf_invalid")
  })
  const spfPolicy = judge(spf, (s): Verdict => {
    if (s.status === "unknown") return unknown("the SPF record could not be looked up")
    if (!s.exists) return fail("no SPF record", "spf_missing")
    switch (s.policy) {
      case "fail":
        return pass("-all")
      case "softfail":
        return partial(3, "~all", "spf_softfail_all")
      case "pass":
        return {
          status: "fail",
          detail: "+all lets anyone send as the domain",
          issues: ["spf_plus_all"],
          fatal: true
        }
      case "unknown":
        return unknown("the policy's redirect could not be looked up")
      default:
        return partial(1, `${s.policy === "neutral" ? "?all or no all" : "no policy"}`, "spf_neutral_all")
    }
  })
  const dmarc = c.dmarc
  const dmarcValid = judge(dmarc, (d) =>
    d.status === "unknown"
      ? unknown("the DMARC record could not be looked up")
      : !d.exists
        ? fail("no DMARC record", "dmarc_missing")
        : d.valid && d.errors.length === 0
          ? pass("the DMARC record parses")
          : d.valid
            ? partial(2, `${d.errors.length} syntax error(s)`, "dmarc_invalid")
            : fail("the DMARC record is invalid", "dmarc_invalid")
  )
  const dmarcPolicy = judge(dmarc, (d): Verdict => {
    if (d.status === "unknown") return unknown("the DMARC record could not be looked up")
    if (!d.exists || !d.valid || d.policy === undefined)
      return fail("no usable DMARC policy", d.exists ? "dmarc_invalid" : "dmarc_missing")
    const pct = d.pct ?? 100
    const base = d.policy === "reject" ? 8 : d.policy === "quarantine" ? 6 : 0
    const points = Math.floor((base * pct) / 100)
    if (d.policy === "none") return fail("p=none: monitoring only", "dmarc_policy_none")
    const issues = [
      ...(d.policy === "quarantine" ? (["dmarc_policy_quarantine"] as const) : []),
      ...(pct < 100 ? (["dmarc_pct_below_100"] as const) : [])
    ]
    return points === 8 ? pass(`p=${d.policy}`) : partial(points, `p=${d.policy}, pct=${pct}`, ...issues)
  })
  const nullMx = judge(c["mta-sts"], (m) => (m.mx.nullMx ? pass("") : notApplicable("")))
  const receivesNoMail = nullMx.status === "pass"
  const dmarcRua = judge(dmarc, (d) => {
    if (d.status === "unknown") return unknown("the DMARC record could not be looked up")
    // A domain that sends no mail has no legitimate mail to monitor (as /email/check has it).
    if (receivesNoMail && d.exists) return notApplicable("null MX: no mail to report on")
    const rua = d.reportDestinations.filter((r) => r.kind === "rua")
    if (!d.exists || rua.length === 0) return fail("no rua", d.exists ? "dmarc_no_rua" : "dmarc_missing")
    return rua.some((r) => r.external && r.authorised === false)
      ? partial(1, "an external rua is not authorised", "dmarc_external_rua_unauthorised")
      : pass(`${rua.length} rua address(es)`)
  })
  const dkim = judge(c.dkim, (k) => {
    const valid = k.selectorsFound.filter((s) => s.valid && !s.revoked)
    if (valid.length > 0) {
      const strong = valid.some((s) => s.keyType.toLowerCase() === "ed25519" || (s.keyLength ?? 0) >= 2048)
      return strong
        ? pass(`${valid.length} valid key(s)`)
        : partial(3, "only keys below 2048 bits", "dkim_weak_key")
    }
    if (receivesNoMail) return notApplicable("null MX and no DKIM key")
    return k.discovery === "unknown"
      ? unknown("the selector lookups failed")
      : unknown("no key under the selectors we know (DKIM cannot be listed)")
  })
  const mtaSts = judge(c["mta-sts"], (m) => {
    if (m.mx.nullMx) return notApplicable("null MX")
    if (m.status === "unknown") return unknown("MTA-STS could not be read")
    if (!m.exists) return fail("no _mta-sts record", "mta_sts_missing")
    const mode = m.policy?.mode ?? null
    if (!m.valid || mode === null) return fail("the policy cannot be used", "mta_sts_invalid")
    if (mode === "enforce")
      return m.mx.allCovered === false
        ? partial(1, "enforce, but not every MX is covered", "mta_sts_invalid")
        : pass("mode=enforce")
    return mode === "testing"
      ? partial(1, "mode=testing", "mta_sts_testing")
      : fail("mode=none", "mta_sts_missing")
  })
  const tlsRpt = judge(c["mta-sts"], (m) =>
    m.mx.nullMx
      ? notApplicable("null MX")
      : m.tlsRpt.status === "unknown"
        ? unknown("the TLS-RPT record could not be looked up")
        : m.tlsRpt.exists && m.tlsRpt.valid
          ? pass("a valid TLS-RPT record")
          : fail("no valid TLS-RPT record", "tls_rpt_missing")
  )
  const bimi = judge(c.bimi, (b) =>
    !b.exists
      ? notApplicable("no BIMI record")
      : b.valid
        ? pass("a valid BIMI record")
        : { status: "fail", detail: "the BIMI record has problems", issues: ["bimi_invalid"] }
  )
  return [
    scored(MAIL_SPECS.spfValid, spfValid),
    scored(MAIL_SPECS.spfPolicy, spfPolicy),
    scored(MAIL_SPECS.dmarcValid, dmarcValid),
    scored(MAIL_SPECS.dmarcPolicy, dmarcPolicy),
    scored(MAIL_SPECS.dmarcRua, dmarcRua),
    scored(MAIL_SPECS.dkim, dkim),
    scored(MAIL_SPECS.mtaSts, mtaSts),
    scored(MAIL_SPECS.tlsRpt, tlsRpt),
    scored(MAIL_SPECS.bimi, bimi)
  ]
}

const header = (entries: ReadonlyArray<HeaderEntry>, name: string) => entries.find((h) => h.name === name)

export const securityRecords = (scan: ScanResult): ReadonlyArray<Scored> => {
  const c = scan.checks
  const smtp = c["smtp-tls"]
  const servers = judge(smtp, (s) =>
    s.mxRecords.length === 0 || s.servers.length === 0 ? notApplicable("no mail servers") : pass("")
  )
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
  const blocklist = judge(c.blocklist, (b): Verdict => {
    if (b.mailServers.length === 0) return notApplicable("no mail servers")
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
    const err = r.fetchError ?? ""
    if (/certificate|CERT_|self[- ]signed|expired|altname|hostname/i.test(err))
      return {
        status: "fail",
        detail: `certificate problem: ${err}`,
        issues: ["https_certificate_invalid"],
        fatal: true
      }
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
        : fail(`${name} ${e.present ? "is ineffective" : "is missing"}`, issue)
    })
  const rated = (
    name: string,
    weak: number,
    missing: "hsts_missing" | "csp_missing",
    weakIssue: "hsts_weak" | "csp_weak"
  ) =>
    judge(h, (r): Verdict => {
      if (webNa) return webNa
      if (https.status !== "pass")
        return https.status === "unknown" ? https : fail("no HTTPS response to read", missing)
      const e = header(r.current, name)
      if (!e || e.status === "unknown") return unknown(`${name} could not be read`)
      if (e.status === "pass" && e.rating === "good") return pass(`${name}: ${e.value}`)
      if (e.status === "pass") return partial(weak, `${name} is weak: ${e.issues.join("; ")}`, weakIssue)
      return fail(`${name} ${e.present ? "is ineffective" : "is missing"}`, missing)
    })
  return [
    scored(MAIL_SPECS.starttls, starttls),
    scored(MAIL_SPECS.mxCert, mxCert),
    scored(MAIL_SPECS.dane, dane),
    scored(MAIL_SPECS.blocklist, blocklist),
    scored(MAIL_SPECS.https, https),
    scored(MAIL_SPECS.hsts, rated("Strict-Transport-Security", 1, "hsts_missing", "hsts_weak")),
    scored(MAIL_SPECS.xcto, headerRule("X-Content-Type-Options", 1, "xcto_missing")),
    scored(MAIL_SPECS.frame, headerRule("X-Frame-Options", 1, "frame_protection_missing")),
    scored(MAIL_SPECS.referrer, headerRule("Referrer-Policy", 1, "referrer_policy_missing")),
    scored(MAIL_SPECS.csp, rated("Content-Security-Policy", 1, "csp_missing", "csp_weak"))
  ]
}
