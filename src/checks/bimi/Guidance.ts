/**
 * What a domain owner does about a BIMI issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). BIMI is optional: the steps are for owners who want their logo shown.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  bimi_invalid: guide({
    why: "The domain publishes a BIMI record, but mailbox providers cannot use it, so your logo is not shown next to your mail. Delivery is not affected.",
    steps: [
      "Make sure DMARC is enforcing (p=quarantine or p=reject, without pct below 100): BIMI requires it.",
      "Publish the logo as an SVG Tiny Portable/Secure file over HTTPS and put its address in the record's l= tag.",
      "Where the provider requires one (Gmail, Apple Mail), obtain a Verified Mark Certificate or Common Mark Certificate and put its address in a=.",
      "Scan again: the report lists what is still missing."
    ],
    record: 'default._bimi.{domain} TXT "v=BIMI1; l=https://{domain}/logo.svg; a=https://{domain}/vmc.pem"',
    references: ["bimi", "https://bimigroup.org/implementation-guide/"],
    nl: {
      why: "Het domein publiceert een BIMI-record, maar mailboxproviders kunnen het niet gebruiken, dus je logo verschijnt niet naast je mail. De aflevering van je mail heeft er geen last van.",
      steps: [
        "Zorg dat DMARC handhaaft (p=quarantine of p=reject, zonder pct onder 100): BIMI vereist dat.",
        "Publiceer het logo als SVG Tiny Portable/Secure-bestand via HTTPS en zet het adres ervan in de tag l= van het record.",
        "Waar de provider er een eist (Gmail, Apple Mail): vraag een Verified Mark Certificate of Common Mark Certificate aan en zet het adres ervan in a=.",
        "Scan opnieuw: het rapport noemt wat nog ontbreekt."
      ]
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
