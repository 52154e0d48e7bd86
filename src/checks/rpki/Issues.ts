/**
 * The issues the RPKI check reports: its entries of the issue catalogue (docs/issues.md) and the
 * knowledge base's advice on each (`/ai/explain`, `/ai/fix`).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  rpki_invalid: e(
    "security",
    "high",
    false,
    "Route to a server is RPKI-invalid",
    "The route to a web, mail or name server address is announced by an AS, or with a prefix length, that its ROAs do not authorise (RFC 6811): networks that validate routes drop it.",
    nl(
      "Route naar een server is RPKI-ongeldig",
      "De route naar een adres van een web-, mail- of nameserver wordt aangekondigd door een AS, of met een prefixlengte, die de ROA's niet toestaan (RFC 6811): netwerken die routes valideren laten haar vallen."
    )
  ),
  rpki_not_found: e(
    "security",
    "low",
    false,
    "Route to a server has no ROA",
    "No ROA covers the route to a web, mail or name server address (RFC 6811 not-found), so a hijack of that route cannot be told from the real one.",
    nl(
      "Route naar een server heeft geen ROA",
      "Geen ROA dekt de route naar een adres van een web-, mail- of nameserver (RFC 6811 not-found), dus een kaping van die route is niet van de echte te onderscheiden."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  rpki_invalid: {
    impact:
      "Networks that validate routes (most large ones) discard the route: the server is unreachable from them.",
    recommendation:
      "Ask the network that announces the address (hosting or ISP) to fix the ROA, or the announcement, so that the origin AS and prefix length match a ROA."
  },
  rpki_not_found: {
    impact:
      "Anyone can announce the address's prefix and be believed: traffic to the server can be hijacked.",
    recommendation:
      "Ask the holder of the address block (hosting or ISP) to publish ROAs for it in the RPKI of its regional registry."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
