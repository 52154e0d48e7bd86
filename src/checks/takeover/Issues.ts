/**
 * The issues the takeover check reports: its entries of the issue catalogue (docs/issues.md) and
 * the knowledge base's advice on each (`/ai/explain`, `/ai/fix`).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  cname_dangling: e(
    "security",
    "critical",
    false,
    "Dangling CNAME",
    "A CNAME of the domain points to a name that does not exist (NXDOMAIN, RFC 1034 3.6.2): whoever creates that name serves content under the domain.",
    nl(
      "CNAME naar een naam die niet bestaat",
      "Een CNAME van het domein wijst naar een naam die niet bestaat (NXDOMAIN, RFC 1034 3.6.2): wie die naam aanmaakt, publiceert inhoud onder dit domein."
    )
  ),
  cname_unclaimed: e(
    "security",
    "critical",
    false,
    "CNAME to an unclaimed hosting site",
    "A CNAME of the domain points to a hosting service that answers it has no site for the name: anybody with an account there can claim it (can-i-take-over-xyz).",
    nl(
      "CNAME naar een niet-geclaimde hostingsite",
      "Een CNAME van het domein wijst naar een hostingdienst die meldt dat er voor die naam geen site is: iedereen met een account daar kan de naam claimen (can-i-take-over-xyz)."
    )
  ),
  dependency_unregistered: e(
    "security",
    "critical",
    false,
    "A domain this domain depends on is not registered",
    "A domain named by the NS, MX, SPF, DMARC, TLS-RPT, BIMI or CNAME records is not registered (RDAP 404, RFC 9083) or does not exist in DNS: anybody can register it and take over that part of this domain.",
    nl(
      "Een domein waarvan dit domein afhangt is niet geregistreerd",
      "Een domein dat de NS-, MX-, SPF-, DMARC-, TLS-RPT-, BIMI- of CNAME-records noemen is niet geregistreerd (RDAP 404, RFC 9083) of bestaat niet in DNS: iedereen kan het registreren en dat deel van dit domein overnemen."
    )
  ),
  dependency_unresolvable: e(
    "security",
    "medium",
    false,
    "A domain this domain depends on does not answer",
    "The name servers of a domain named by this domain's records fail (SERVFAIL, RFC 1035 4.1.1): what it provides cannot be resolved, and a lapsed delegation can be taken over.",
    nl(
      "Een domein waarvan dit domein afhangt antwoordt niet",
      "De nameservers van een domein dat de records van dit domein noemen falen (SERVFAIL, RFC 1035 4.1.1): wat het levert is niet op te vragen, en een vervallen delegatie kan worden overgenomen."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  cname_dangling: {
    impact:
      "An attacker who creates the missing target (a cloud app, a storage bucket, a registration) serves pages, cookies or policies under your domain.",
    recommendation:
      "Remove the CNAME record named in the report, or point it at a name you control that exists."
  },
  cname_unclaimed: {
    impact:
      "An attacker who opens an account at the hosting service and adds your name serves pages under your domain, with a certificate the service obtains for it.",
    recommendation:
      "Remove the CNAME record named in the report, or claim the name at the hosting service again."
  },
  dependency_unregistered: {
    impact:
      "Whoever registers the other domain controls the name servers, mail servers, SPF include or report address your records point at: they can answer for your domain, send mail as it or read its reports.",
    recommendation:
      "Remove the records that name the other domain (the report lists them), or register it yourself if it was yours."
  },
  dependency_unresolvable: {
    impact:
      "Receivers and resolvers cannot use what the other domain provides; if its delegation lapsed, whoever takes over its name servers answers for it.",
    recommendation:
      "Ask the owner of the other domain to fix its name servers, or remove the records that name it."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
