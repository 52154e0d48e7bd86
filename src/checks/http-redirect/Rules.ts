/** The rules of the HTTP-to-HTTPS check (docs/scoring.md): the apex's redirect, and www alike. */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, partial, pass, unknown, type Verdict } from "../../kernel/RuleVerdict.ts"
import { noWebSite } from "../dns/WebPresence.ts"
import { type HostRedirect, SECURE } from "./HttpRedirectResult.ts"
import type { HttpRedirectResult } from "./HttpRedirectResult.ts"
import type { LookupResult } from "../dns/LookupResult.ts"

export const HTTP_REDIRECT_SPECS = {
  redirect: spec({
    id: "security.web.redirect",
    title: "HTTP to HTTPS redirect",
    titleNl: "Doorverwijzing van HTTP naar HTTPS",
    category: "security",
    concerns: "web",
    maxPoints: 2,
    level: "recommended",
    rule: "http:// on port 80 redirects first to https:// on the same host and ends on https, or nothing answers on port 80 (HTTPS only) 2; ends on https after a first hop to another host or over http 1; serves content over http, or ends elsewhere 0; no A/AAAA, or no web server on 80 or 443, is not applicable",
    rank: 104
  }),
  www: spec({
    id: "security.web.www",
    title: "www like the apex",
    titleNl: "www gelijk aan het hoofddomein",
    category: "security",
    concerns: "web",
    maxPoints: 1,
    level: "recommended",
    rule: "Where the apex redirects to https on its own host, www.<domain> does too (or serves HTTPS only) and sends HSTS whenever the apex does; not applicable without www or when the apex does not redirect",
    rank: 108
  })
} as const

const describe = (h: HostRedirect) => h.issues[0] ?? h.verdict

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly "http-redirect": HttpRedirectResult; readonly "dns-records": LookupResult }

const records = (scan: Judging<Reads>): ReadonlyArray<Ruling> => {
  const na = noWebSite(scan.checks["dns-records"].result)
  const outcome = scan.checks["http-redirect"]
  const redirect = judge(outcome, (r): Verdict => {
    if (na) return na
    const a = r.apex
    switch (a.verdict) {
      case "redirects-to-https":
        return pass(`http://${a.host}/ redirects to ${a.location}, ending on ${a.finalUrl}`)
      case "https-only":
        return pass(`nothing answers http://${a.host}/; HTTPS answers`)
      case "redirects-elsewhere-first":
        return partial(1, describe(a), "http_redirect_off_host")
      case "redirects-via-http":
        return partial(1, describe(a), "http_redirect_via_http")
      case "no-redirect":
        return fail(describe(a), "http_no_redirect")
      case "not-https":
        return fail(describe(a), "http_redirect_not_https")
      case "no-web-server":
        return notApplicable(`nothing answers on port 80 or 443 (security.web.https carries it)`)
      case "absent":
        return notApplicable(`${a.host} has no address`)
      case "unknown":
        return unknown(`http://${a.host}/ could not be asked: ${a.error ?? "no answer"}`)
    }
  })
  const www = judge(outcome, (r): Verdict => {
    if (na) return na
    const w = r.www
    if (w.verdict === "absent") return notApplicable(`${w.host} does not exist`)
    if (w.verdict === "no-web-server") return notApplicable(`nothing answers on ${w.host}`)
    // A broken apex is the redirect rule's finding; www is judged against an apex that redirects.
    if (!SECURE.has(r.apex.verdict)) return notApplicable(`${r.apex.host} itself does not redirect to HTTPS`)
    if (w.verdict === "unknown")
      return unknown(`http://${w.host}/ could not be asked: ${w.error ?? "no answer"}`)
    if (!SECURE.has(w.verdict)) return fail(`${w.host}: ${describe(w)}`, "www_inconsistent")
    if (r.apex.hsts !== null && w.hsts === null)
      return fail(`${r.apex.host} sends HSTS, ${w.host} does not`, "www_inconsistent")
    return pass(`${w.host}: ${w.verdict}${w.hsts === null ? "" : `, HSTS ${w.hstsRating}`}`)
  })
  return [scored(HTTP_REDIRECT_SPECS.redirect, redirect), scored(HTTP_REDIRECT_SPECS.www, www)]
}

export const rules = rulesOver<Reads>(Object.values(HTTP_REDIRECT_SPECS), records)
