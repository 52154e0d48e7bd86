/**
 * The issues the BIMI check reports: its entries of the issue catalogue (docs/issues.md: id,
 * category, severity, whether a generator fixes it, title, description) and the knowledge base's
 * advice on each (`/ai/explain`, `/ai/fix`: impact and recommendation).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  bimi_invalid: e(
    "email",
    "info",
    false,
    "BIMI record has problems",
    "The BIMI logo or its authority evidence cannot be used by mailbox providers.",
    nl(
      "BIMI-record heeft problemen",
      "Het BIMI-logo of het bewijs van zeggenschap erover kan niet door mailboxaanbieders worden gebruikt."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  bimi_invalid: {
    impact: "Mailbox providers do not show your logo; nothing else about delivery changes.",
    recommendation:
      "Fix the points GET /email/bimi lists: an SVG Tiny PS logo over HTTPS, an enforcing DMARC policy, and a VMC or CMC where the provider requires one."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
