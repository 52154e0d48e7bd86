/** The rule of the security.txt check (docs/scoring.md): a valid, current file where RFC 9116 puts it. */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, partial, pass, unknown, type Verdict } from "../../kernel/RuleVerdict.ts"
import { noWebSite } from "../dns/WebPresence.ts"
import type { SecurityTxtResult } from "./SecurityTxtResult.ts"
import type { LookupResult } from "../dns/LookupResult.ts"

export const SECURITY_TXT_SPECS = {
  securityTxt: spec({
    id: "security.web.security_txt",
    title: "security.txt",
    titleNl: "security.txt",
    category: "security",
    concerns: "web",
    maxPoints: 2,
    level: "recommended",
    rule: "A valid /.well-known/security.txt over HTTPS (RFC 9116: Contact, Expires in the future, text/plain, Canonical listing its URL when present, a signature that verifies when its signer's key is found) 2; a valid file only at the legacy /security.txt 1; missing, expired, invalid or redirected to another host 0; no A/AAAA, or no HTTPS site, is not applicable",
    rank: 112
  })
} as const

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly "security-txt": SecurityTxtResult; readonly "dns-records": LookupResult }

const records = (scan: Judging<Reads>): ReadonlyArray<Ruling> => {
  const lookup = scan.checks["dns-records"].result
  const verdict = judge(scan.checks["security-txt"], (r): Verdict => {
    const na = noWebSite(lookup)
    if (na) return na
    const why = r.errors.join("; ")
    switch (r.verdict) {
      case "valid":
        return pass(`${r.fetchedUrl}: Contact ${r.contact.join(", ")}; expires ${r.expires}`)
      case "legacy":
        return partial(1, `only the legacy ${r.fetchedUrl} is served`, "security_txt_legacy_location")
      case "expired":
        return fail(`expired ${r.expires}`, "security_txt_expired")
      case "invalid": {
        // A bad signature is an error of its own issue; the file is invalid for the others.
        const badSignature = r.signature?.verified === "bad"
        const others = r.errors.length - (badSignature ? 1 : 0)
        return fail(
          `${r.fetchedUrl} is invalid: ${why}`,
          ...(others > 0 ? ["security_txt_invalid"] : []),
          ...(badSignature ? ["security_txt_signature_bad"] : [])
        )
      }
      case "redirected-elsewhere":
        return fail(`${r.url} redirects to ${r.redirectedTo}`, "security_txt_redirect_elsewhere")
      case "missing":
        // The file is served over HTTPS only (RFC 9116 §3): without an HTTPS site the HTTPS rule carries it.
        if (/^(connect|no-address|tls):/.test(r.fetchError ?? ""))
          return notApplicable(`no HTTPS site to serve it (${r.fetchError})`)
        return fail(`no security.txt${r.fetchError ? ` (${r.fetchError})` : ""}`, "security_txt_missing")
      case "unknown":
        return unknown(`security.txt could not be fetched: ${r.fetchError ?? "no answer"}`)
    }
  })
  return [scored(SECURITY_TXT_SPECS.securityTxt, verdict)]
}

export const rules = rulesOver<Reads>(Object.values(SECURITY_TXT_SPECS), records)
