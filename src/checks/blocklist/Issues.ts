/**
 * The issues the blocklist check reports: its entries of the issue catalogue (docs/issues.md: id,
 * category, severity, whether a generator fixes it, title, description) and the knowledge base's
 * advice on each (`/ai/explain`, `/ai/fix`: impact and recommendation).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  blocklisted: e(
    "security",
    "high",
    false,
    "Mail server on a blocklist",
    "A mail server address is listed on a high-severity DNS blocklist.",
    nl(
      "Mailserver op een blokkadelijst",
      "Een adres van een mailserver staat op een DNS-blokkadelijst met hoge ernst."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  blocklisted: {
    impact: "Receivers consulting that list reject or junk your mail.",
    recommendation:
      "Find and stop the cause (compromised account, open relay, bad list), then request delisting on the blocklist's site."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
