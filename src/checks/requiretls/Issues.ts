/** The issue the REQUIRETLS check reports (docs/issues.md) and the knowledge base's advice on it. */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  requiretls_partial: e(
    "security",
    "low",
    false,
    "REQUIRETLS offered by only some mail servers",
    "Some of the domain's mail servers advertise REQUIRETLS after STARTTLS (RFC 8689) and others do not: a message sent with REQUIRETLS may go only to those that do, so it cannot fall back to the others.",
    nl(
      "REQUIRETLS op slechts een deel van de mailservers",
      "Een deel van de mailservers van het domein biedt REQUIRETLS aan na STARTTLS (RFC 8689) en een deel niet: een bericht dat met REQUIRETLS wordt verstuurd mag alleen naar de servers die het aanbieden, en kan dus niet uitwijken naar de andere."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  requiretls_partial: {
    impact:
      "Mail whose sender requires TLS all the way is refused by the servers without REQUIRETLS: while the servers with it are down, that mail is returned instead of queued at a backup.",
    recommendation:
      "Run the same MTA software and configuration on every MX: enable REQUIRETLS on all of them, or on none."
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
