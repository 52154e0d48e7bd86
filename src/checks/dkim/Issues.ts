/**
 * The issues the DKIM check reports: its entries of the issue catalogue (docs/issues.md: id,
 * category, severity, whether a generator fixes it, title, description) and the knowledge base's
 * advice on each (`/ai/explain`, `/ai/fix`: impact and recommendation).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  dkim_weak_key: e(
    "email",
    "medium",
    false,
    "Weak DKIM key",
    "An RSA key below 2048 bits is weak (RFC 8301 3.2 requires at least 1024, recommends 2048).",
    nl(
      "Zwakke DKIM-sleutel",
      "Een RSA-sleutel onder 2048 bits is zwak (RFC 8301 3.2 eist minstens 1024 en raadt 2048 aan)."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  dkim_weak_key: {
    impact:
      "Keys below 2048 bits can be factored with affordable resources, letting others sign mail as you.",
    recommendation:
      "Generate a 2048-bit RSA (or Ed25519 alongside RSA) key under a new selector, switch signing, then revoke the old key (p=)."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
