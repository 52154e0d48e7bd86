/**
 * The issues the HTTP-to-HTTPS check reports: its entries of the issue catalogue (docs/issues.md)
 * and the knowledge base's advice on each (`/ai/explain`, `/ai/fix`).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  http_no_redirect: e(
    "security",
    "medium",
    false,
    "Plain HTTP does not redirect to HTTPS",
    "Plain http:// on port 80 serves the site unencrypted instead of redirecting to https:// (RFC 9110 15.4).",
    nl(
      "Onversleuteld HTTP stuurt niet door naar HTTPS",
      "http:// op poort 80 toont de site onversleuteld in plaats van door te sturen naar https:// (RFC 9110 15.4)."
    )
  ),
  http_redirect_off_host: e(
    "security",
    "low",
    false,
    "HTTP redirects to another host first",
    "Plain http:// redirects first to https:// on another host (the apex to www, say), so browsers never receive the host's own HSTS policy (RFC 6797 7.2, 8.1).",
    nl(
      "HTTP stuurt eerst door naar een andere host",
      "http:// stuurt eerst door naar https:// op een andere host (bijvoorbeeld van het domein naar www), zodat browsers het HSTS-beleid van de host zelf nooit ontvangen (RFC 6797 7.2, 8.1)."
    )
  ),
  http_redirect_via_http: e(
    "security",
    "low",
    false,
    "HTTP redirects over plain HTTP first",
    "Plain http:// first redirects to another http:// address before reaching HTTPS, adding an unencrypted hop an attacker can rewrite.",
    nl(
      "HTTP stuurt eerst door via onversleuteld HTTP",
      "http:// stuurt eerst door naar een ander http://-adres voordat HTTPS volgt: een extra onversleutelde stap die een aanvaller kan herschrijven."
    )
  ),
  http_redirect_not_https: e(
    "security",
    "medium",
    false,
    "HTTP redirect does not end on HTTPS",
    "The redirect chain from http:// ends on plain HTTP, loops, or breaks before an HTTPS page answers.",
    nl(
      "Doorsturen vanaf HTTP eindigt niet op HTTPS",
      "De keten van doorverwijzingen vanaf http:// eindigt op onversleuteld HTTP, loopt rond of breekt af voordat een HTTPS-pagina antwoordt."
    )
  ),
  www_inconsistent: e(
    "security",
    "low",
    false,
    "www does not behave like the apex",
    "The www name does not redirect plain HTTP to HTTPS on its own host, or does not send HSTS while the apex does.",
    nl(
      "www gedraagt zich anders dan het domein",
      "www.<domein> stuurt onversleuteld HTTP niet door naar HTTPS op dezelfde host, of stuurt geen HSTS terwijl het domein dat wel doet."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  http_no_redirect: {
    impact:
      "Visitors who type the address without https:// browse unencrypted; anyone on the path can read and change the pages.",
    recommendation:
      "Answer every http:// request with a 301 redirect to the same URL on https:// on the same host."
  },
  http_redirect_off_host: {
    impact:
      "The host's HSTS policy is never set in browsers, so the first request of every later visit can still be downgraded.",
    recommendation:
      "Redirect http://host/ to https://host/ first (same host), and only then to the canonical host over HTTPS."
  },
  http_redirect_via_http: {
    impact: "An extra unencrypted hop lets an attacker on the path send visitors somewhere else.",
    recommendation: "Make the first redirect go straight to https:// on the same host."
  },
  http_redirect_not_https: {
    impact: "Visitors end up on an unencrypted page or an error.",
    recommendation: "Fix the redirect chain so every http:// URL ends on the same page over https://."
  },
  www_inconsistent: {
    impact: "Visitors who use the www name (or the bare name) get weaker protection than on the other.",
    recommendation:
      "Configure www.<domain> like the apex: redirect http:// to https:// on the same host and send the same Strict-Transport-Security header."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
