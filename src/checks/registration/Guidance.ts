/**
 * What a domain owner does about each registration issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). Registration is renewed at the registrar, not in the zone.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  registration_expiring: guide({
    why: "When a domain's registration lapses, its web site and mail stop working, and after a grace period anybody can register the name and receive the mail meant for you.",
    steps: [
      "Log in at the registrar where {domain} is registered (the RDAP link in the report names the registry).",
      "Renew the registration for at least a year.",
      "Turn on automatic renewal and check that the payment method and the contact address are current."
    ],
    providers: {
      cloudflare:
        "Cloudflare Registrar renews automatically; check the payment method under Domain Registration.",
      "route53-ses": "Route 53: Registered domains > {domain} > Auto renew."
    },
    references: ["rfc9083"]
  }),
  registration_expired: guide({
    why: "The registration has passed its expiry date: the registry can take the domain offline at any moment and, once it is deleted, anybody can register it.",
    steps: [
      "Contact the registrar of {domain} today: most registries keep an expired domain in a grace or redemption period for 30 to 75 days.",
      "Pay the renewal (and a redemption fee if the grace period has passed).",
      "Turn on automatic renewal."
    ],
    references: ["rfc9083"]
  }),
  dependency_expiring: guide({
    why: "Your domain names another domain in its records (a name server, mail server, SPF include, report address or alias). If that domain lapses, whoever registers it next controls that part of your domain.",
    steps: [
      "Find the domain and the record that names it in the report's dependency list.",
      "If it is yours, renew it. If it belongs to a provider, ask them whether they still use it.",
      "If you no longer use the service, remove the record that names it."
    ],
    references: ["rfc9083"]
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
