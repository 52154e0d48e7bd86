/**
 * The issues the MTA-STS check reports: its entries of the issue catalogue (docs/issues.md: id,
 * category, severity, whether a generator fixes it, title, description) and the knowledge base's
 * advice on each (`/ai/explain`, `/ai/fix`: impact and recommendation).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  mta_sts_missing: e(
    "email",
    "low",
    false,
    "No MTA-STS",
    "Without MTA-STS senders fall back to plaintext when STARTTLS is stripped (RFC 8461).",
    nl(
      "Geen MTA-STS",
      "Zonder MTA-STS vallen verzenders terug op onversleutelde aflevering als STARTTLS wordt weggefilterd (RFC 8461)."
    )
  ),
  mta_sts_testing: e(
    "email",
    "low",
    false,
    "MTA-STS in testing mode",
    "The policy mode=testing reports failures but does not enforce TLS.",
    nl("MTA-STS in testmodus", "mode=testing rapporteert fouten maar dwingt TLS niet af.")
  ),
  mta_sts_invalid: e(
    "email",
    "medium",
    false,
    "MTA-STS policy is broken",
    "The _mta-sts record is published but the policy cannot be fetched, is invalid, or does not cover the MX hosts.",
    nl(
      "MTA-STS-beleid is kapot",
      "Het _mta-sts-record is gepubliceerd, maar het beleid kan niet worden opgehaald, is ongeldig of dekt de MX-hosts niet."
    )
  ),
  tls_rpt_missing: e(
    "email",
    "low",
    false,
    "No TLS-RPT record",
    "Without _smtp._tls reports you do not learn of failed TLS deliveries (RFC 8460).",
    nl(
      "Geen TLS-RPT-record",
      "Zonder _smtp._tls-rapporten hoor je niet van mislukte TLS-afleveringen (RFC 8460)."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  mta_sts_missing: {
    impact:
      "An attacker on the path can strip STARTTLS and read or alter mail sent to you; senders will not notice.",
    recommendation:
      "Publish _mta-sts TXT (v=STSv1; id=...) and a policy at https://mta-sts.<domain>/.well-known/mta-sts.txt listing your MX hosts, first in mode testing, then enforce."
  },
  mta_sts_testing: {
    impact: "Failures are reported but mail is still delivered without TLS when STARTTLS is stripped.",
    recommendation: "Switch the policy to mode: enforce once TLS-RPT reports show no failures."
  },
  mta_sts_invalid: {
    impact:
      "Senders cannot apply the policy; with enforce and MX hosts not covered, senders may refuse to deliver to you.",
    recommendation:
      "Serve the policy over HTTPS with a valid certificate at mta-sts.<domain>, list every MX host, and change the id in the TXT record after each edit."
  },
  tls_rpt_missing: {
    impact: "TLS delivery failures to your servers (expired certificate, MTA-STS mismatch) stay invisible.",
    recommendation: 'Publish _smtp._tls TXT "v=TLSRPTv1; rua=mailto:tls-reports@<domain>".'
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
