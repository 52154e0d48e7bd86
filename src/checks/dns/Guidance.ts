/**
 * What a domain owner does about each DNS issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md): delegation at the registrar, records at the DNS host.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  dns_no_such_domain: guide({
    why: "The internet's DNS says this domain does not exist: its web site cannot be found, mail to it bounces, and nothing else in this report can be checked.",
    steps: [
      "Log in at the registrar and check that the domain is registered, paid and not expired or on hold.",
      "Check the name servers listed for the domain at the registrar: they must be the ones your DNS host gives you.",
      "Check at the DNS host that the zone exists there and is active.",
      "Scan again once the registrar's change is published (usually within an hour, sometimes a day)."
    ],
    providers: {
      cloudflare:
        "A zone that was never activated or was removed from Cloudflare answers nothing: the dashboard's Overview shows whether the zone is active and which two name servers to set at the registrar.",
      "route53-ses":
        "A new hosted zone gets four new name servers: they must be the ones set at the registrar (Registered domains > Name servers), not those of an older, deleted zone."
    },
    references: ["rfc1034", "rfc1035"]
  }),
  ns_single: guide({
    why: "The whole domain depends on one name server. If it or its network fails, the web site, mail and everything else under the domain become unreachable at once.",
    steps: [
      "Add at least one more name server, preferably run by another provider or in another network (a secondary DNS service).",
      "Make the new server serve the same zone (zone transfer from the primary, or the provider's own replication).",
      "List every name server at the registrar, so the parent zone delegates to all of them."
    ],
    providers: {
      cloudflare:
        "Cloudflare always delegates to two name servers; a single one means the registrar lists only one of them.",
      "route53-ses": "Route 53 gives every hosted zone four name servers: list all four at the registrar."
    },
    references: ["rfc2182", "rfc1034"]
  }),
  soa_missing: guide({
    why: "The zone's start-of-authority record is missing: resolvers cannot cache 'no such name' answers properly and secondary name servers cannot copy the zone.",
    steps: [
      "Check at the DNS host that the zone is served for the domain itself, not only for names below it.",
      "If you run your own name servers, add the SOA record at the zone apex and reload the zone."
    ],
    references: ["rfc1035"]
  }),
  mx_unresolvable: guide({
    why: "A mail server named in the domain's MX records has no address, so senders cannot deliver to it; if none of them has one, all mail to the domain bounces.",
    steps: [
      "List the domain's MX records and check each named host.",
      "Give each mail server name an A (IPv4) and, where it has one, an AAAA (IPv6) record, or correct the name if it is misspelt.",
      "Remove MX records that name servers you no longer use."
    ],
    providers: {
      "google-workspace":
        "Google Workspace needs one MX record: smtp.google.com with priority 1 (older setups list aspmx.l.google.com and its alternates).",
      "microsoft-365":
        "Microsoft 365 needs one MX record: <domain-with-dashes>.mail.protection.outlook.com, as shown in the admin center under Settings > Domains."
    },
    references: ["rfc5321"]
  }),
  null_mx_missing: guide({
    why: "The domain has no mail servers but does not say so. Senders then try to deliver to its web server, hold messages for days before bouncing them, and the name is attractive to forge.",
    steps: [
      "If the domain should receive mail, publish MX records naming its mail servers.",
      "If it never receives mail, publish a null MX record (priority 0, host '.').",
      "For a domain that sends no mail either, also publish the SPF record v=spf1 -all and a DMARC record with p=reject."
    ],
    record: "{domain} MX 0 .",
    references: ["rfc7505", "rfc5321"]
  }),
  caa_missing: guide({
    why: "Any certificate authority may issue certificates for the domain. A CAA record limits that to the authorities you use, so a mistake or fraud at another one cannot produce a certificate browsers accept for your site.",
    steps: [
      "Find out which certificate authorities issue your certificates (the certificates of your web and mail servers name them; Let's Encrypt, DigiCert, Sectigo, Google Trust Services and so on).",
      "Publish one CAA 'issue' record for each of them at the domain; add 'issuewild' if only some may issue wildcard certificates.",
      "Add an 'iodef' record with a mailbox that authorities may report refused requests to.",
      "Renew a certificate afterwards to check that your authority still issues."
    ],
    providers: {
      cloudflare:
        "Cloudflare's edge certificates come from Let's Encrypt, Google Trust Services and others: with Universal SSL on, Cloudflare adds the CAA records it needs itself once you publish any CAA record.",
      "route53-ses":
        "Certificates from AWS Certificate Manager need issue records for amazon.com (and amazontrust.com, awstrust.com, amazonaws.com).",
      "generic-dns":
        "Most DNS hosts offer CAA as a record type with three fields: flags 0, tag issue, value the authority's domain."
    },
    record: '{domain} CAA 0 issue "letsencrypt.org"',
    references: ["rfc8659"]
  }),
  ipv6_mx_missing: guide({
    why: "None of the domain's mail servers has an IPv6 address, so senders that only have IPv6 cannot deliver mail to you directly.",
    steps: [
      "Ask your mail provider or network whether the mail servers have IPv6 addresses.",
      "Publish an AAAA record for each mail server name, and have its provider set a reverse (PTR) name for each new address.",
      "Scan again: each MX host should show an IPv6 address."
    ],
    providers: {
      "google-workspace":
        "Google's mail servers have IPv6 already: the MX records only need to name Google's servers.",
      "microsoft-365":
        "Microsoft 365 gives IPv6 to inbound mail once IPv6 is enabled for the domain (Enable-IPv6ForAcceptedDomain in Exchange Online PowerShell)."
    },
    references: ["rfc3596"]
  }),
  ipv6_web_missing: guide({
    why: "The web site has no IPv6 address. A growing share of visitors, mobile networks above all, reach it only through translation, which is slower and sometimes fails.",
    steps: [
      "Ask your hosting provider for the site's IPv6 address, or enable IPv6 on the server.",
      "Publish an AAAA record for the domain (and for www) with that address.",
      "Open the site over IPv6 (or scan again) to check that it answers there as it does over IPv4."
    ],
    providers: {
      cloudflare: "Proxied records get IPv6 automatically (Network > IPv6 Compatibility on).",
      "route53-ses":
        "For CloudFront or a load balancer, enable IPv6 on it and add an alias record of type AAAA beside the A alias."
    },
    references: ["rfc3596"]
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
