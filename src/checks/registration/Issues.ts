/**
 * The issues the registration check reports: its entries of the issue catalogue (docs/issues.md)
 * and the knowledge base's advice on each (`/ai/explain`, `/ai/fix`).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  registration_expiring: e(
    "dns",
    "high",
    false,
    "Domain registration expires soon",
    "RDAP (RFC 9083) gives the domain's registration an expiry within 30 days, or a status such as client hold or pending delete.",
    nl(
      "Registratie van het domein verloopt binnenkort",
      "Volgens RDAP (RFC 9083) verloopt de registratie van het domein binnen 30 dagen, of staat ze op hold of pending delete."
    )
  ),
  registration_expired: e(
    "dns",
    "critical",
    false,
    "Domain registration has expired",
    "RDAP (RFC 9083) gives the domain's registration an expiry date in the past: the registry may delete it and anybody may register it.",
    nl(
      "Registratie van het domein is verlopen",
      "Volgens RDAP (RFC 9083) ligt de vervaldatum van de registratie in het verleden: het register kan het domein verwijderen en iedereen kan het registreren."
    )
  ),
  dependency_expiring: e(
    "dns",
    "high",
    false,
    "A domain this domain depends on expires soon",
    "A domain named by the NS, MX, SPF, DMARC, TLS-RPT, BIMI or CNAME records expires within 30 days by RDAP (RFC 9083); whoever registers it next controls that part of this domain.",
    nl(
      "Een domein waarvan dit domein afhangt verloopt binnenkort",
      "Een domein dat de NS-, MX-, SPF-, DMARC-, TLS-RPT-, BIMI- of CNAME-records noemen verloopt volgens RDAP (RFC 9083) binnen 30 dagen; wie het daarna registreert, beheert dat deel van dit domein."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  registration_expiring: {
    impact:
      "When the registration lapses the domain stops resolving: web site, mail and every record go dark, and after the grace period anybody can buy the name.",
    recommendation: "Renew the registration at the registrar now, and turn on automatic renewal."
  },
  registration_expired: {
    impact:
      "The registry can suspend or delete the domain at any moment; once released, anybody can register it and receive its mail.",
    recommendation: "Renew the registration at the registrar immediately (a redemption fee may apply)."
  },
  dependency_expiring: {
    impact:
      "If the other domain lapses, whoever registers it next controls the name servers, mail servers, SPF include or report address this domain points at.",
    recommendation:
      "Ask the owner of the other domain to renew it, or remove this domain's record that names it (the report shows which)."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
