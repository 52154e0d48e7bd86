/**
 * The issues the FCrDNS check reports: its entries of the issue catalogue (docs/issues.md: id,
 * category, severity, whether a generator fixes it, title, description) and the knowledge base's
 * advice on each (`/ai/explain`, `/ai/fix`: impact and recommendation).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  ptr_missing: e(
    "dns",
    "medium",
    false,
    "Mail server address has no PTR",
    "Receivers reject or penalise mail from addresses without reverse DNS (RFC 1912 2.1, M3AAWG).",
    nl(
      "Adres van een mailserver heeft geen PTR",
      "Ontvangers weigeren of benadelen mail van adressen zonder reverse DNS (RFC 1912 2.1, M3AAWG)."
    )
  ),
  fcrdns_mismatch: e(
    "dns",
    "medium",
    false,
    "Reverse DNS is not forward-confirmed",
    "The PTR name of a mail server address does not resolve back to that address.",
    nl(
      "Reverse DNS is niet voorwaarts bevestigd",
      "De PTR-naam van een mailserveradres verwijst niet terug naar dat adres."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  ptr_missing: {
    impact: "Large receivers reject or junk mail from addresses without reverse DNS.",
    recommendation:
      "Ask whoever runs the address block (hosting provider or ISP) to set a PTR naming the mail server's host name."
  },
  fcrdns_mismatch: {
    impact: "Receivers that require forward-confirmed reverse DNS reject or penalise the server's mail.",
    recommendation:
      "Make the PTR name resolve (A/AAAA) back to the same address, or change the PTR to a name that does."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
