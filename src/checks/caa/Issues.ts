/**
 * The issues the CAA check reports: its entries of the issue catalogue (docs/issues.md) and the
 * knowledge base's advice on each (`/ai/explain`, `/ai/fix`).
 */
import { type Advice, e, type Entry, nl } from "../../kernel/Declaration.ts"

export const issues = {
  caa_forbids_issuer: e(
    "security",
    "high",
    false,
    "CAA forbids the CA that issued a served certificate",
    "The CAA records that govern a host name do not permit the certificate authority whose certificate the host serves (RFC 8659), so that CA must refuse the next renewal.",
    nl(
      "CAA verbiedt de CA die een gebruikt certificaat uitgaf",
      "De CAA-records die voor een hostnaam gelden staan de certificaatautoriteit niet toe waarvan de host het certificaat gebruikt (RFC 8659), dus die CA moet de volgende verlenging weigeren."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  caa_forbids_issuer: {
    impact:
      "The certificate in use cannot be renewed by the CA that issued it: when it expires, browsers or sending mail servers meet an expired certificate.",
    recommendation:
      'Add a CAA issue record for the CA you use (for a wildcard certificate an issuewild record), for example 0 issue "letsencrypt.org", or move to a CA the records permit.'
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
