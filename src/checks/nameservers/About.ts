/** What the name-server check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { item } from "../../kernel/Nis2Evidence.ts"
import { NameServersReport } from "./Result.ts"
import { declared } from "../../kernel/Declaration.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { NS_SPECS, rules } from "./Rules.ts"

export const about = declared({
  id: "nameservers",
  title: "Name servers",
  category: "dns",
  result: NameServersReport,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "nameservers",
    title: "Name servers",
    titleNl: "Nameservers",
    rank: 25,
    sources: ["rfc1034", "rfc1912", "rfc2182", "rfc5358", "rfc7766"],
    facts: ["status", "delegation", "zoneNameServers", "verdicts", "issues"],
    generator: null
  },
  columns: [
    {
      name: "nameservers",
      rank: 45,
      records: [NS_SPECS.authoritative.id, NS_SPECS.consistent.id, NS_SPECS.networks.id]
    }
  ],
  nis2: [
    {
      measure: "c",
      record: NS_SPECS.networks.id,
      weight: 1,
      rank: 12,
      text: item(
        { en: "Name servers in different networks", nl: "Nameservers in verschillende netwerken" },
        {
          en: "The name servers are not all in one network, so one outage does not take the domain offline.",
          nl: "De nameservers zitten niet allemaal in één netwerk, zodat één storing het domein niet onbereikbaar maakt."
        }
      )
    },
    {
      measure: "c",
      record: NS_SPECS.authoritative.id,
      weight: 2,
      rank: 14,
      text: item(
        { en: "No lame delegation", nl: "Geen kreupele delegatie" },
        {
          en: "Every listed name server answers for the zone.",
          nl: "Elke opgegeven nameserver antwoordt voor de zone."
        }
      )
    },
    {
      measure: "e",
      record: NS_SPECS.recursion.id,
      weight: 1,
      rank: 45,
      text: item(
        { en: "Name servers are no open resolvers", nl: "Nameservers zijn geen open resolvers" },
        {
          en: "No name server answers recursive questions for anyone (RFC 5358).",
          nl: "Geen nameserver beantwoordt recursieve vragen voor iedereen (RFC 5358)."
        }
      )
    }
  ],
  deepScans: []
})
