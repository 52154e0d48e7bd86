/** What the DNS records check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { item } from "../../kernel/Nis2Evidence.ts"
import { LookupResult } from "./LookupResult.ts"
import { declared } from "../../kernel/Declaration.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { DNS_SPECS, rules } from "./Rules.ts"

export const about = declared({
  id: "dns-records",
  title: "DNS records",
  category: "dns",
  result: LookupResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "dnsRecords",
    title: "DNS records",
    titleNl: "DNS-records",
    rank: 20,
    sources: ["rfc1034", "rfc1035", "rfc2182", "rfc8659"],
    facts: ["records", "outcomes", "resolver", "dnssecValidated"],
    generator: null
  },
  columns: [],
  nis2: [
    {
      measure: "c",
      record: DNS_SPECS.ns.id,
      weight: 2,
      rank: 10,
      text: item(
        { en: "At least two name servers", nl: "Minstens twee nameservers" },
        {
          en: "The domain has two or more name servers (RFC 2182).",
          nl: "Het domein heeft twee of meer nameservers (RFC 2182)."
        }
      )
    },
    {
      measure: "c",
      record: DNS_SPECS.soa.id,
      weight: 1,
      rank: 20,
      text: item(
        { en: "SOA record of the zone", nl: "SOA-record van de zone" },
        { en: "The zone apex answers an SOA record.", nl: "De top van de zone geeft een SOA-record." }
      )
    },
    {
      measure: "c",
      record: DNS_SPECS.mx.id,
      weight: 1,
      rank: 30,
      text: item(
        { en: "Mail servers resolve", nl: "Mailservers zijn vindbaar" },
        {
          en: "Every mail server name has an address, or a null MX says the domain takes no mail.",
          nl: "Elke mailservernaam heeft een adres, of een null MX zegt dat het domein geen mail ontvangt."
        },
        {
          en: "The domain publishes no MX records, so there is no mail routing to check.",
          nl: "Het domein publiceert geen MX-records, dus er is geen mailroutering te controleren."
        }
      )
    },
    {
      measure: "d",
      record: DNS_SPECS.caa.id,
      weight: 1,
      rank: 10,
      text: item(
        { en: "CAA restricts certificate suppliers", nl: "CAA beperkt de leveranciers van certificaten" },
        {
          en: "A CAA record names the certificate authorities allowed to issue (RFC 8659).",
          nl: "Een CAA-record noemt de certificaatautoriteiten die mogen uitgeven (RFC 8659)."
        }
      )
    }
  ],
  deepScans: []
})
