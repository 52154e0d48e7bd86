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
  ),
  caa_parameter_syntax: e(
    "security",
    "low",
    false,
    "CAA issuer property has a syntax error",
    "An issue, issuewild or issuemail value of the CAA records that govern a host breaks the grammar of RFC 8659 4.2 (issuer; key=value; ...) or RFC 8657 (accounturi, validationmethods): a CA reads a malformed value as permitting no CA, so it may refuse to issue.",
    nl(
      "CAA-uitgeverseigenschap bevat een syntaxfout",
      "Een issue-, issuewild- of issuemail-waarde van de CAA-records die voor een host gelden volgt de grammatica van RFC 8659 4.2 (uitgever; sleutel=waarde; ...) of RFC 8657 (accounturi, validationmethods) niet: een CA leest een onjuiste waarde als een die geen enkele CA toestaat, en kan dus weigeren uit te geven."
    )
  )
} satisfies Record<string, Entry>

export const advice = {
  caa_forbids_issuer: {
    impact:
      "The certificate in use cannot be renewed by the CA that issued it: when it expires, browsers or sending mail servers meet an expired certificate.",
    recommendation:
      'Add a CAA issue record for the CA you use (for a wildcard certificate an issuewild record), for example 0 issue "letsencrypt.org", or move to a CA the records permit.'
  },
  caa_parameter_syntax: {
    impact:
      "A CA that cannot read the value treats it as naming no CA, so a renewal may be refused, or a restriction you meant (one ACME account, one validation method) is not applied.",
    recommendation:
      'Write each value as issuer; key=value; key=value, without a trailing ";" or spaces inside values, for example 0 issue "letsencrypt.org; validationmethods=dns-01".'
  }
} satisfies { readonly [I in keyof typeof issues]: Advice }
