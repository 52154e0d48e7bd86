/**
 * What a domain owner does about each RPKI issue (kernel/Declaration.ts `Guidance`, docs/guidance.md).
 * ROAs are published by whoever holds the address block, so the fix is usually a request to the
 * hosting or network provider, not a record in the domain's zone.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  rpki_invalid: guide({
    why: "The internet's route to one of your servers contradicts the ROAs that its address block's holder published. Networks that validate routes throw such routes away, so people behind them cannot reach the server at all.",
    steps: [
      "Find in the report which address is affected, the prefix and the origin AS announcing it.",
      "Ask the provider of that address (hosting, cloud or ISP) to correct the ROA (origin AS, maximum length) or the announcement; for your own address space, fix the ROA in your registry's RPKI portal.",
      "Until it is fixed, consider moving the service to an address whose route is valid."
    ],
    providers: {
      "generic-dns":
        "This is not a DNS record: ROAs are published in the RPKI by the holder of the IP addresses, through the regional internet registry (RIPE NCC, ARIN, APNIC, LACNIC, AFRINIC)."
    },
    references: ["rfc6811"],
    nl: {
      why: "De route op internet naar een van je servers is in strijd met de ROA's die de houder van het adresblok publiceerde. Netwerken die routes valideren, gooien zulke routes weg, dus wie achter zo'n netwerk zit, bereikt de server helemaal niet.",
      steps: [
        "Zoek in het rapport op welk adres het betreft, het prefix en het origin-AS dat het aankondigt.",
        "Vraag de aanbieder van dat adres (hosting, cloud of internetprovider) de ROA (origin-AS, maximale lengte) of de aankondiging te corrigeren; voor je eigen adresruimte herstel je de ROA in het RPKI-portaal van je registry.",
        "Overweeg tot het is opgelost de dienst te verhuizen naar een adres met een geldige route."
      ],
      providers: {
        "generic-dns":
          "Dit is geen DNS-record: ROA's publiceert de houder van de IP-adressen in de RPKI, via de regionale internetregistry (RIPE NCC, ARIN, APNIC, LACNIC, AFRINIC)."
      }
    }
  }),
  rpki_not_found: guide({
    why: "No ROA says which network may announce the address of one of your servers, so nothing tells a hijacked route from the real one.",
    steps: [
      "Find in the report which addresses have no ROA.",
      "Ask the provider of those addresses to publish ROAs for them; for your own address space, create them in your registry's RPKI portal."
    ],
    providers: {
      "generic-dns":
        "ROAs are created by the holder of the IP addresses at its regional internet registry, not at the DNS host."
    },
    references: ["rfc6811"],
    nl: {
      why: "Geen ROA zegt welk netwerk het adres van een van je servers mag aankondigen, dus niets onderscheidt een gekaapte route van de echte.",
      steps: [
        "Zoek in het rapport op welke adressen geen ROA hebben.",
        "Vraag de aanbieder van die adressen er ROA's voor te publiceren; voor je eigen adresruimte maak je ze aan in het RPKI-portaal van je registry."
      ],
      providers: {
        "generic-dns":
          "ROA's maakt de houder van de IP-adressen aan bij zijn regionale internetregistry, niet bij de DNS-host."
      }
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
