/**
 * The issues the headers check reports: its entries of the issue catalogue (docs/issues.md: id,
 * category, severity, whether a generator fixes it, title, description) and the knowledge base's
 * advice on each (`/ai/explain`, `/ai/fix`: impact and recommendation).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  https_missing: e(
    "security",
    "high",
    false,
    "No working HTTPS",
    "The web site does not answer over HTTPS with a trusted certificate.",
    nl("Geen werkende HTTPS", "De website antwoordt niet via HTTPS met een vertrouwd certificaat.")
  ),
  https_certificate_invalid: e(
    "security",
    "critical",
    false,
    "HTTPS certificate expired or untrusted",
    "Browsers refuse the site: the certificate is expired, untrusted or for another name.",
    nl(
      "HTTPS-certificaat verlopen of niet vertrouwd",
      "Browsers weigeren de site: het certificaat is verlopen, niet vertrouwd of voor een andere naam."
    )
  ),
  hsts_missing: e(
    "security",
    "medium",
    true,
    "No HSTS",
    "Without Strict-Transport-Security browsers may be downgraded to HTTP (RFC 6797).",
    nl(
      "Geen HSTS",
      "Zonder Strict-Transport-Security kunnen browsers worden teruggedwongen naar HTTP (RFC 6797)."
    )
  ),
  hsts_weak: e(
    "security",
    "low",
    true,
    "Weak HSTS",
    "HSTS has a max-age below one year, or no includeSubDomains.",
    nl("Zwakke HSTS", "max-age korter dan een jaar of zonder includeSubDomains.")
  ),
  xcto_missing: e(
    "security",
    "low",
    true,
    "No X-Content-Type-Options",
    "Without nosniff browsers may treat responses as another content type.",
    nl(
      "Geen X-Content-Type-Options",
      "Zonder nosniff kunnen browsers antwoorden als een ander inhoudstype behandelen."
    )
  ),
  frame_protection_missing: e(
    "security",
    "low",
    true,
    "No clickjacking protection",
    "Neither X-Frame-Options nor CSP frame-ancestors restricts framing.",
    nl(
      "Geen bescherming tegen clickjacking",
      "X-Frame-Options noch CSP frame-ancestors beperkt het insluiten in frames."
    )
  ),
  referrer_policy_missing: e(
    "security",
    "low",
    true,
    "No safe Referrer-Policy",
    "URLs may leak to other sites in the Referer header.",
    nl("Geen veilige Referrer-Policy", "URL's kunnen via de Referer-header naar andere sites lekken.")
  ),
  csp_missing: e(
    "security",
    "medium",
    true,
    "No Content-Security-Policy",
    "Without CSP an injected script runs with the page's rights.",
    nl(
      "Geen Content-Security-Policy",
      "Zonder CSP draait een geïnjecteerd script met de rechten van de pagina."
    )
  ),
  csp_weak: e(
    "security",
    "low",
    true,
    "Weak Content-Security-Policy",
    "The CSP allows unsafe-eval, does not restrict object-src to 'none', or sets no base-uri.",
    nl(
      "Zwakke Content-Security-Policy",
      "De CSP staat unsafe-inline of unsafe-eval toe, of is alleen report-only."
    )
  ),
  csp_unsafe: e(
    "security",
    "medium",
    true,
    "Content-Security-Policy does not restrict scripts",
    "The CSP allows 'unsafe-inline' scripts without nonces or hashes, scripts from any host, or sets no script-src or default-src, so an injected script still runs (the HTTP Observatory scores it almost as no CSP).",
    nl(
      "Content-Security-Policy beperkt scripts niet",
      "De CSP staat 'unsafe-inline'-scripts zonder nonce of hash toe, scripts van elke host, of zet geen script-src of default-src, dus een geïnjecteerd script draait nog steeds."
    )
  ),
  cookies_insecure: e(
    "security",
    "medium",
    false,
    "Insecure cookies",
    "A cookie is set without Secure, a session cookie without HttpOnly, or with an invalid SameSite (RFC 6265bis 4.1.2).",
    nl(
      "Onveilige cookies",
      "Een cookie zonder Secure, een sessiecookie zonder HttpOnly of met een ongeldige SameSite (RFC 6265bis 4.1.2)."
    )
  ),
  sri_missing: e(
    "security",
    "low",
    false,
    "Scripts from other sites without integrity",
    "The page loads a script from another site without an integrity attribute or over plain HTTP: whoever controls that site controls the page (W3C Subresource Integrity).",
    nl(
      "Scripts van andere sites zonder integriteitscontrole",
      "De pagina laadt een script van een andere site zonder integrity-attribuut of via gewoon HTTP (W3C Subresource Integrity)."
    )
  ),
  cors_credentials_any_origin: e(
    "security",
    "high",
    false,
    "Any site can read the page as the visitor",
    "The page echoes any Origin in Access-Control-Allow-Origin with Access-Control-Allow-Credentials: true (WHATWG Fetch CORS protocol).",
    nl(
      "Elke site kan de pagina lezen als de bezoeker",
      "De pagina herhaalt elke Origin met Access-Control-Allow-Credentials: true (WHATWG Fetch CORS)."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  https_missing: {
    impact: "Visitors get an error or an unencrypted page that anyone on the path can read or change.",
    recommendation:
      "Serve the site over HTTPS with a certificate from a public CA (ACME makes this automatic)."
  },
  https_certificate_invalid: {
    impact: "Browsers show a full-page warning and most visitors leave; API clients fail outright.",
    recommendation:
      "Renew or replace the certificate so it is trusted, current and names the host, and serve the full chain."
  },
  hsts_missing: {
    impact: "A visitor's first request over HTTP can be intercepted and kept on HTTP (SSL stripping).",
    recommendation: "Send Strict-Transport-Security: max-age=31536000; includeSubDomains on HTTPS responses."
  },
  hsts_weak: {
    impact: "Protection lapses soon after the last visit, or subdomains remain open to downgrade.",
    recommendation:
      "Raise max-age to at least 31536000 and add includeSubDomains once every subdomain serves HTTPS."
  },
  xcto_missing: {
    impact: "Browsers may run an uploaded file as script or style (MIME sniffing).",
    recommendation: "Send X-Content-Type-Options: nosniff on every response."
  },
  frame_protection_missing: {
    impact: "Other sites can frame your pages and trick users into clicks (clickjacking).",
    recommendation:
      "Send Content-Security-Policy frame-ancestors 'self' (and X-Frame-Options: SAMEORIGIN for old browsers)."
  },
  referrer_policy_missing: {
    impact: "Full URLs, including tokens in query strings, may reach other sites.",
    recommendation: "Send Referrer-Policy: strict-origin-when-cross-origin (or no-referrer)."
  },
  csp_missing: {
    impact: "A cross-site scripting flaw lets injected script read data and act as the user.",
    recommendation:
      "Deploy a Content-Security-Policy, first as Content-Security-Policy-Report-Only, then enforced; POST /csp/scan suggests one from your pages."
  },
  csp_weak: {
    impact: "unsafe-inline and unsafe-eval let injected script run, so the policy stops little.",
    recommendation: "Replace inline script with nonces or hashes, remove unsafe-eval, and enforce the policy."
  },
  csp_unsafe: {
    impact:
      "An injected script runs as if the policy were absent: inline script, or script from any host, is allowed.",
    recommendation:
      "Set script-src (or default-src) to your own origins with nonces or hashes ('strict-dynamic' for loaders), drop 'unsafe-inline' and wildcard hosts; POST /csp/scan suggests a policy from your pages."
  },
  cookies_insecure: {
    impact:
      "A cookie without Secure travels over plain HTTP where anyone on the network reads it; a session cookie without HttpOnly is stolen by any injected script.",
    recommendation:
      "Set every cookie with Secure, session cookies also with HttpOnly, and SameSite=Lax (or Strict); name them __Host-<name> with Path=/ and no Domain."
  },
  sri_missing: {
    impact:
      "If the other site or its CDN is compromised, the script it serves runs in your page with your visitors' sessions.",
    recommendation:
      'Add integrity="sha384-..." and crossorigin="anonymous" to each <script> from another site, loaded over https, or host the script yourself.'
  },
  cors_credentials_any_origin: {
    impact:
      "Any web site a signed-in visitor opens can read your pages and their data in the visitor's name.",
    recommendation:
      "Send Access-Control-Allow-Origin only for a fixed list of trusted origins, and Access-Control-Allow-Credentials only where those need it."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
