/**
 * What a domain owner does about each HTTP-to-HTTPS issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). The redirect is configured where port 80 is answered: the web server, the
 * load balancer or the CDN in front of it.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

const WHERE = {
  cloudflare:
    "SSL/TLS > Edge Certificates > Always Use HTTPS redirects every http:// request to the same URL on https://; turn on HSTS on the same page.",
  "route53-ses":
    "On CloudFront set the behaviour's Viewer protocol policy to Redirect HTTP to HTTPS; on a load balancer, add a port 80 listener rule that redirects to HTTPS, port 443, same host and path.",
  "generic-dns":
    "On nginx: server { listen 80; server_name {domain} www.{domain}; return 301 https://$host$request_uri; }. On Apache: Redirect permanent / https://{domain}/ in the port 80 virtual host of each name."
} as const

const RECORD = "HTTP/1.1 301 Moved Permanently\nLocation: https://{domain}/"

export const guidance = {
  http_no_redirect: guide({
    why: "Visitors who type your address without https:// (or follow an old link) get the site unencrypted. Anyone on the same network can read what they send and change what they see.",
    steps: [
      "Make sure the site works over https:// for every name it is reached by.",
      "Answer every request on port 80 with a permanent redirect (301) to the same address on https://, on the same host.",
      "Send Strict-Transport-Security on the HTTPS answers, so browsers go straight to HTTPS next time.",
      "Scan again: http:// should redirect, and HTTPS should carry HSTS."
    ],
    providers: WHERE,
    record: RECORD,
    references: ["rfc9110", "rfc6797"]
  }),
  http_redirect_off_host: guide({
    why: "Plain HTTP sends visitors to another name first (for example from {domain} straight to https://www.{domain}). Browsers then never load https://{domain}/ and never learn its HSTS policy, so the bare name stays open to a downgrade.",
    steps: [
      "Redirect http://{domain}/ to https://{domain}/ first (the same name).",
      "Let https://{domain}/ send Strict-Transport-Security and then redirect to the name you prefer.",
      "Do the same for www: http://www.{domain}/ to https://www.{domain}/."
    ],
    providers: WHERE,
    record: RECORD,
    references: ["rfc6797", "rfc9110"]
  }),
  http_redirect_via_http: guide({
    why: "The redirect from plain HTTP goes to another plain HTTP address first. Each unencrypted hop can be changed by an attacker on the network.",
    steps: ["Make the first redirect from http:// go directly to https:// on the same name."],
    providers: WHERE,
    record: RECORD,
    references: ["rfc6797", "rfc9110"]
  }),
  http_redirect_not_https: guide({
    why: "Following the redirects from the plain HTTP address does not end on a secure page: it ends on HTTP, loops, or breaks. Visitors see an unencrypted page or an error.",
    steps: [
      "Follow the redirect chain the report shows and find the hop that goes wrong.",
      "Make every http:// URL redirect to the same path on https:// and make that page answer."
    ],
    providers: WHERE,
    record: RECORD,
    references: ["rfc9110"]
  }),
  www_inconsistent: guide({
    why: "The www name and the bare name of the domain are set up differently, so visitors who use one of them get weaker protection: no redirect to HTTPS, or no HSTS.",
    steps: [
      "Give www.{domain} the same port 80 setup as {domain}: redirect to https:// on the same name.",
      "Send the same Strict-Transport-Security header on both names' HTTPS answers."
    ],
    providers: WHERE,
    record: RECORD,
    references: ["rfc6797", "rfc9110"]
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
