/** Rules of the `email` category (docs/scoring.md). */
import type { ScanResult } from "../checks/ScanResult.ts"
import {
  fail,
  judge,
  type Judged,
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

/** DKIM's own "unknown": a search that found nothing, not a lookup that failed (RFC 6376 3.6.2.1). */
export const DKIM_NOT_FOUND = "no key under the selectors we know (DKIM cannot be listed)"

export const EMAIL_SPECS = {
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
  })
} as const

/** The checks the email category reads: a full scan's outcomes, or `GET /email/check`'s own. */
export const EMAIL_CHECK_IDS = ["spf", "dmarc", "dkim", "mta-sts", "bimi"] as const
type Checks = ScanResult["checks"]
export type EmailOutcomes = {
  readonly [K in (typeof EMAIL_CHECK_IDS)[number]]: Judged<NonNullable<Checks[K]["result"]>>
}

export const emailRecords = (scan: { readonly checks: EmailOutcomes }): ReadonlyArray<Scored> => {
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
    return k.discovery === "unknown" ? unknown("the selector lookups failed") : unknown(DKIM_NOT_FOUND)
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
    scored(EMAIL_SPECS.spfValid, spfValid),
    scored(EMAIL_SPECS.spfPolicy, spfPolicy),
    scored(EMAIL_SPECS.dmarcValid, dmarcValid),
    scored(EMAIL_SPECS.dmarcPolicy, dmarcPolicy),
    scored(EMAIL_SPECS.dmarcRua, dmarcRua),
    scored(EMAIL_SPECS.dkim, dkim),
    scored(EMAIL_SPECS.mtaSts, mtaSts),
    scored(EMAIL_SPECS.tlsRpt, tlsRpt),
    scored(EMAIL_SPECS.bimi, bimi)
  ]
}
