/** The rules of the headers check (docs/scoring.md): HTTPS, and the security headers it answers with. */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, partial, pass, unknown, type Verdict } from "../../kernel/RuleVerdict.ts"
import { noSuchDomain } from "../dns/Rules.ts"
import type { HeaderEntry } from "./HeadersResult.ts"
import { CONTENT_SPECS, cookiesVerdict, corsVerdict, sriVerdict } from "./ContentRules.ts"
import type { HeadersResult } from "./HeadersResult.ts"
import type { LookupResult } from "../dns/LookupResult.ts"

export const HEADERS_SPECS = {
  https: spec({
    id: "security.web.https",
    title: "HTTPS",
    titleNl: "HTTPS",
    category: "security",
    concerns: "web",
    foundation: true,
    maxPoints: 4,
    level: "required",
    critical: true,
    rule: "The site answers over HTTPS with a trusted certificate; an untrusted or expired one is fatal; no A/AAAA is not applicable",
    rank: 50
  }),
  hsts: spec({
    id: "security.web.hsts",
    title: "HSTS",
    titleNl: "HSTS",
    category: "security",
    concerns: "web",
    maxPoints: 3,
    level: "required",
    critical: true,
    rule: "max-age of a year or more with includeSubDomains, sent once 3; weaker, or the header sent twice, 1; a directive repeated within it makes it invalid, 0 (RFC 6797 6.1, 8.1)",
    rank: 60
  }),
  xcto: spec({
    id: "security.headers.xcto",
    title: "X-Content-Type-Options",
    titleNl: "X-Content-Type-Options",
    category: "security",
    concerns: "web",
    maxPoints: 1,
    level: "recommended",
    rule: "nosniff",
    rank: 70
  }),
  frame: spec({
    id: "security.headers.frame",
    title: "Clickjacking protection",
    titleNl: "Bescherming tegen clickjacking",
    category: "security",
    concerns: "web",
    maxPoints: 1,
    level: "recommended",
    rule: "X-Frame-Options, or CSP frame-ancestors",
    rank: 80
  }),
  referrer: spec({
    id: "security.headers.referrer",
    title: "Referrer-Policy",
    titleNl: "Referrer-Policy",
    category: "security",
    concerns: "web",
    maxPoints: 1,
    level: "recommended",
    rule: "A Referrer-Policy that is not unsafe-url, origin or origin-when-cross-origin (the HTTP Observatory's unsafe values)",
    rank: 90
  }),
  csp: spec({
    id: "security.csp",
    title: "Content-Security-Policy",
    titleNl: "Content-Security-Policy",
    category: "security",
    concerns: "web",
    maxPoints: 3,
    level: "recommended",
    rule: "An enforced CSP read as CSP Level 3 and rated good 3; weak (unsafe-eval, plugin hosts instead of object-src 'none', no base-uri) 1; unsafe 0: scripts or plugins unrestricted ('unsafe-inline' that no nonce or hash cancels, any host such as * or https: or https://*, no script-src, no object-src or default-src)",
    rank: 100
  }),
  ...CONTENT_SPECS
} as const

const header = (entries: ReadonlyArray<HeaderEntry>, name: string) => entries.find((h) => h.name === name)

/** Why a header that is not a pass fails, in a record's detail. */
const describe = (e: HeaderEntry): string =>
  e.rating === "unsafe"
    ? `is unsafe: ${e.issues.join("; ")}`
    : e.present
      ? `is ineffective: ${e.issues.join("; ")}`
      : "is missing"

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly headers: HeadersResult; readonly "dns-records": LookupResult }

const records = (scan: Judging<Reads>): ReadonlyArray<Ruling> => {
  const c = scan.checks
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
  /** A header of the page HTTPS served, judged by `verdictOf`; without a page or the header, what stands instead. */
  const judgeHeader = (
    name: string,
    missing: Parameters<typeof fail>[1],
    verdictOf: (e: HeaderEntry, r: HeadersResult) => Verdict
  ) =>
    judge(h, (r): Verdict => {
      if (webNa) return webNa
      if (https.status !== "pass")
        return https.status === "unknown" ? https : fail("no HTTPS response to read", missing)
      const e = header(r.current, name)
      if (!e || e.status === "unknown") return unknown(`${name} could not be read`)
      return verdictOf(e, r)
    })
  const headerRule = (
    name: string,
    points: number,
    issue: "xcto_missing" | "frame_protection_missing" | "referrer_policy_missing"
  ) =>
    judgeHeader(name, issue, (e, r) => {
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
    judgeHeader(name, missing, (e) => {
      if (e.status === "pass" && e.rating === "good") return pass(`${name}: ${e.value}`)
      if (e.status === "pass") return partial(weak, `${name} is weak: ${e.issues.join("; ")}`, weakIssue)
      if (e.rating === "unsafe" && unsafeIssue !== undefined)
        return fail(`${name} ${describe(e)}`, unsafeIssue)
      return fail(`${name} ${describe(e)}`, missing)
    })
  return [
    scored(HEADERS_SPECS.https, https),
    scored(HEADERS_SPECS.hsts, rated("Strict-Transport-Security", 1, "hsts_missing", "hsts_weak")),
    scored(HEADERS_SPECS.xcto, headerRule("X-Content-Type-Options", 1, "xcto_missing")),
    scored(HEADERS_SPECS.frame, headerRule("X-Frame-Options", 1, "frame_protection_missing")),
    scored(HEADERS_SPECS.referrer, headerRule("Referrer-Policy", 1, "referrer_policy_missing")),
    scored(HEADERS_SPECS.csp, rated("Content-Security-Policy", 1, "csp_missing", "csp_weak", "csp_unsafe")),
    ...(
      [
        [HEADERS_SPECS.cookies, cookiesVerdict],
        [HEADERS_SPECS.sri, sriVerdict],
        [HEADERS_SPECS.cors, corsVerdict]
      ] as const
    ).map(([s, verdict]) =>
      // Judged only on a page that was read: without HTTPS the https rule has already failed.
      scored(
        s,
        webNa ??
          (https.status === "pass"
            ? judge(h, verdict)
            : https.status === "unknown"
              ? https
              : notApplicable("no HTTPS page to read"))
      )
    )
  ]
}

export const rules = rulesOver<Reads>(Object.values(HEADERS_SPECS), records)
