/**
 * Which CAA identifiers (the issuer domain names of RFC 8659 §4.2) a certificate's issuer answers
 * to. The table is kept small and by hand from the CCADB's "CAA Identifiers (Issuer Domain
 * Names)" column, which each CA declares for its certificates (https://www.ccadb.org/, All
 * Certificate Records report); operators add issuers it lacks, a private CA above all, through
 * `CAA_ISSUERS`. An issuer neither knows is unknown: the check says so and fails nothing.
 */
import type { CaaIssuer } from "../../Config.ts"

interface KnownIssuer {
  /** Tested against the issuer's O and CN values. */
  readonly pattern: RegExp
  readonly identifiers: ReadonlyArray<string>
}

export const KNOWN_ISSUERS: ReadonlyArray<KnownIssuer> = [
  { pattern: /^Let's Encrypt$/i, identifiers: ["letsencrypt.org"] },
  { pattern: /^Google Trust Services\b/i, identifiers: ["pki.goog", "google.com"] },
  {
    pattern: /^DigiCert\b/i,
    identifiers: ["digicert.com", "symantec.com", "thawte.com", "geotrust.com", "rapidssl.com"]
  },
  {
    pattern: /^(Sectigo|COMODO CA|The USERTRUST Network)\b/i,
    identifiers: ["sectigo.com", "comodoca.com", "comodo.com", "usertrust.com", "trust-provider.com"]
  },
  { pattern: /^ZeroSSL$/i, identifiers: ["sectigo.com", "zerossl.com"] },
  { pattern: /^GlobalSign\b/i, identifiers: ["globalsign.com"] },
  { pattern: /^Amazon$/i, identifiers: ["amazon.com", "amazontrust.com", "awstrust.com", "amazonaws.com"] },
  { pattern: /^Microsoft Corporation$/i, identifiers: ["microsoft.com"] },
  { pattern: /^Entrust\b/i, identifiers: ["entrust.net", "affirmtrust.com"] },
  { pattern: /^(GoDaddy|Starfield Technologies)\b/i, identifiers: ["godaddy.com", "starfieldtech.com"] },
  { pattern: /^Buypass\b/i, identifiers: ["buypass.com", "buypass.no"] },
  { pattern: /^SSL Corporation$/i, identifiers: ["ssl.com"] },
  { pattern: /^(HARICA|Hellenic Academic and Research Institutions CA)\b/i, identifiers: ["harica.gr"] },
  { pattern: /^(Asseco Data Systems|Unizeto Technologies)\b/i, identifiers: ["certum.pl", "certum.eu"] },
  { pattern: /^Actalis\b/i, identifiers: ["actalis.it"] }
]

/** The O and CN values of a distinguished name as node prints it (`C=US, O=Let's Encrypt, CN=R3`). */
export const namesOf = (dn: string): ReadonlyArray<string> =>
  dn.split(/,\s*(?=[A-Za-z0-9.]+=)/).flatMap((part) => {
    const m = /^(O|CN)=(.*)$/.exec(part.trim())
    return m ? [m[2]!.trim()] : []
  })

/**
 * The CAA identifiers of the issuer `dn`: the configured issuers first (an operator's word wins),
 * then the table; [] when unknown.
 */
export const identifiersOf = (dn: string, configured: ReadonlyArray<CaaIssuer>): ReadonlyArray<string> => {
  const names = namesOf(dn)
  const own = configured.find((c) => names.some((n) => n.toLowerCase() === c.name.toLowerCase()))
  if (own) return own.identifiers
  return KNOWN_ISSUERS.find((k) => names.some((n) => k.pattern.test(n)))?.identifiers ?? []
}
