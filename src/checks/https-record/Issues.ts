/** The issue the HTTPS record check reports (docs/issues.md) and the knowledge base's advice on it. */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  https_record_mismatch: e(
    "dns",
    "low",
    false,
    "HTTPS record does not match the server",
    "The HTTPS record (RFC 9460) names a protocol the server does not negotiate or an address hint that is not the site's, or does not parse: browsers that trust it try the wrong thing first.",
    nl(
      "HTTPS-record klopt niet met de server",
      "Het HTTPS-record (RFC 9460) noemt een protocol dat de server niet onderhandelt of een adreshint die niet van de site is."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  https_record_mismatch: {
    impact:
      "Browsers that read the record try a protocol or an address the server does not serve, then fall back: slower connections, or failures where the fallback is blocked.",
    recommendation:
      "Make the record say what the server does: list in alpn only protocols it negotiates, and in ipv4hint/ipv6hint only its A/AAAA addresses (or leave the hints out)."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
