/**
 * What a domain owner does about each takeover issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md): remove the record that points at what somebody else could claim.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  cname_dangling: guide({
    why: "A name of your domain is an alias for a name that no longer exists, often a cloud app or bucket that was deleted. Whoever creates that name again serves their content under your domain.",
    steps: [
      "Find the CNAME record named in the report in the DNS zone of {domain}.",
      "If the service behind it is gone, delete the record.",
      "If the service moved, point the record at its new name, and check that the name resolves."
    ],
    providers: {
      cloudflare: "DNS > Records: delete the CNAME row (proxied records are affected too).",
      "route53-ses": "Route 53 > Hosted zones > {domain}: delete the CNAME record set."
    },
    references: ["rfc1034", "https://github.com/EdOverflow/can-i-take-over-xyz"]
  }),
  cname_unclaimed: guide({
    why: "A name of your domain points at a hosting service that has no site for it. Anybody can open an account there, add your name, and serve their pages under your domain.",
    steps: [
      "Find the CNAME record named in the report in the DNS zone of {domain}.",
      "If you no longer use the hosting service, delete the record.",
      "If you do, add the name to your site at the service again (GitHub Pages: the repository's custom domain setting)."
    ],
    references: ["https://github.com/EdOverflow/can-i-take-over-xyz"]
  }),
  dependency_unregistered: guide({
    why: "Your records name a domain that nobody has registered. Whoever registers it decides what its name servers, mail servers or SPF record say, and with that what your domain says.",
    steps: [
      "Find the records named in the report (an NS, MX, SPF include, DMARC or TLS-RPT address, BIMI URL or CNAME).",
      "Remove each of them, or replace the name with the provider's current one.",
      "If the domain was yours and lapsed, register it again before somebody else does."
    ],
    references: ["rfc9083", "rfc7208"]
  }),
  dependency_unresolvable: guide({
    why: "Your records name a domain whose name servers fail, so what it provides (mail, an SPF include, an alias) cannot be used, and a lapsed delegation can be taken over.",
    steps: [
      "Find the records named in the report.",
      "Ask the owner of the other domain to fix its name servers, or remove the records if you no longer use the service."
    ],
    references: ["rfc1035"]
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
