/**
 * The sources behind a report's findings: the RFC, W3C/WHATWG specification or mailbox-provider
 * page each section and each issue of the catalogue rests on.
 *
 * An issue's sources are derived, not listed by hand per issue: the RFCs its catalogue description
 * names ("RFC 2182", "RFC 1035 3.3.13") and the other documents it names (NIST SP 800-57, M3AAWG,
 * DMARCbis); else the source its id prefix rests on (`BY_PREFIX`); else (Everything.ts) the primary
 * sources of its section. So every catalogue entry, including ones added later, has at least one
 * citation (test/report/sections.test.ts).
 */
import { Schema } from "effect"
import { registry } from "../checks/index.ts"
import { rfc, type Source } from "../kernel/Source.ts"

export const Citation = Schema.Struct({
  /** Stable key, e.g. `rfc7208`: findings refer to citations by it. */
  id: Schema.String,
  title: Schema.String,
  url: Schema.String,
  /** The report sections that rest on this source. */
  sections: Schema.Array(Schema.String),
  /** The catalogue issue ids of this report that cite it. */
  issues: Schema.Array(Schema.String)
})
export type Citation = typeof Citation.Type

/**
 * The shared bibliography: the sources several checks cite, or that catalogue descriptions name
 * (`NAMED`, `BY_PREFIX`). A source only one check rests on is declared by that check
 * (`about.citations`, e.g. RFC 9460 by the HTTPS record check).
 */
export const bibliography: Readonly<Record<string, Source>> = {
  ...Object.fromEntries([
    rfc(1034, "Domain names - concepts and facilities"),
    rfc(1035, "Domain names - implementation and specification"),
    rfc(1912, "Common DNS operational and configuration errors"),
    rfc(2182, "Selection and operation of secondary DNS servers"),
    rfc(2818, "HTTP over TLS"),
    rfc(3207, "SMTP service extension for secure SMTP over TLS (STARTTLS)"),
    rfc(3596, "DNS extensions to support IP version 6"),
    rfc(4033, "DNS security introduction and requirements"),
    rfc(4034, "Resource records for the DNS security extensions"),
    rfc(4035, "Protocol modifications for the DNS security extensions"),
    rfc(5321, "Simple Mail Transfer Protocol"),
    rfc(5358, "Preventing use of recursive nameservers in reflector attacks"),
    rfc(5782, "DNS blacklists and whitelists"),
    rfc(6376, "DomainKeys Identified Mail (DKIM) signatures"),
    rfc(6698, "The DNS-based authentication of named entities (DANE) TLSA protocol"),
    rfc(6781, "DNSSEC operational practices, version 2"),
    rfc(6811, "BGP prefix origin validation"),
    rfc(6797, "HTTP strict transport security (HSTS)"),
    rfc(7034, "HTTP header field X-Frame-Options"),
    rfc(7208, "Sender Policy Framework (SPF)"),
    rfc(7489, "Domain-based Message Authentication, Reporting, and Conformance (DMARC)"),
    rfc(7505, 'A "null MX" no service resource record for domains that accept no mail'),
    rfc(7672, "SMTP security via opportunistic DANE TLS"),
    rfc(7766, "DNS transport over TCP - implementation requirements"),
    rfc(8301, "Cryptographic algorithm and key usage update to DKIM"),
    rfc(8460, "SMTP TLS reporting"),
    rfc(8461, "SMTP MTA strict transport security (MTA-STS)"),
    rfc(8624, "Algorithm implementation requirements and usage guidance for DNSSEC"),
    rfc(8659, "DNS certification authority authorization (CAA) resource record"),
    rfc(9110, "HTTP semantics"),
    rfc(9116, "A file format to aid in security vulnerability disclosure"),
    rfc(9082, "Registration Data Access Protocol (RDAP) query format"),
    rfc(9083, "JSON responses for the Registration Data Access Protocol (RDAP)"),
    rfc(9224, "Finding the authoritative Registration Data Access Protocol (RDAP) service"),
    rfc(9276, "Guidance for NSEC3 parameter settings"),
    rfc(9525, "Service identity in TLS"),
    rfc(6066, "TLS extensions: extension definitions"),
    rfc(7627, "TLS session hash and extended master secret extension"),
    rfc(7919, "Negotiated finite field Diffie-Hellman ephemeral parameters for TLS"),
    rfc(8446, "The Transport Layer Security (TLS) protocol version 1.3"),
    rfc(8996, "Deprecating TLS 1.0 and TLS 1.1")
  ]),
  ncsc_tls: {
    title: "NCSC-NL: ICT-beveiligingsrichtlijnen voor Transport Layer Security (TLS), 2025-05",
    url: "https://www.ncsc.nl/wat-kun-je-zelf-doen/documenten/publicaties/2025/juni/01/ict-beveiligingsrichtlijnen-voor-transport-layer-security-2025-05"
  },
  dmarcbis: {
    title: "DMARCbis: Domain-based Message Authentication, Reporting, and Conformance, IETF draft",
    url: "https://datatracker.ietf.org/doc/draft-ietf-dmarc-dmarcbis/"
  },
  m3aawg: {
    title: "M3AAWG: Best practices for managing SMTP reverse DNS",
    url: "https://www.m3aawg.org/sites/default/files/m3aawg-managing-smtp-reverse-dns-2019-01.pdf"
  },
  nist_sp800_57: {
    title: "NIST SP 800-57 Part 1 Rev. 5: Recommendation for key management",
    url: "https://csrc.nist.gov/pubs/sp/800/57/pt1/r5/final"
  },
  csp3: { title: "W3C: Content Security Policy Level 3", url: "https://www.w3.org/TR/CSP3/" },
  fetch_nosniff: {
    title: "WHATWG Fetch: X-Content-Type-Options",
    url: "https://fetch.spec.whatwg.org/#x-content-type-options-header"
  },
  referrer_policy: { title: "W3C: Referrer Policy", url: "https://www.w3.org/TR/referrer-policy/" }
}

/** Every source a section or issue may cite, by key: the bibliography and what each check declares. */
export const sources: Readonly<Record<string, Source>> = Object.assign(
  {},
  bibliography,
  ...registry.map((check) => check.about.citations ?? {})
)

/** Documents named in catalogue descriptions other than by RFC number. */
const NAMED: ReadonlyArray<readonly [RegExp, string]> = [
  [/NIST SP 800-57/, "nist_sp800_57"],
  [/M3AAWG/, "m3aawg"],
  [/DMARCbis/, "dmarcbis"],
  [/NCSC-NL/, "ncsc_tls"]
]

/**
 * The specific source of issues whose description names none, by id prefix (a finding then cites
 * what it rests on rather than every source of its section).
 */
const BY_PREFIX: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ["ipv6_", ["rfc3596"]],
  ["https_", ["rfc2818", "rfc9525"]],
  ["hsts_", ["rfc6797"]],
  ["xcto_", ["fetch_nosniff"]],
  ["frame_", ["rfc7034", "csp3"]],
  ["referrer_", ["referrer_policy"]],
  ["csp_", ["csp3"]],
  ["http_redirect_", ["rfc9110", "rfc6797"]],
  ["www_", ["rfc9110", "rfc6797"]],
  ["security_txt_", ["rfc9116"]],
  ["mx_cert_", ["rfc9525"]],
  ["dmarc_", ["rfc7489"]],
  ["spf_", ["rfc7208"]],
  ["dkim_", ["rfc6376"]],
  ["mta_sts_", ["rfc8461"]],
  ["bimi_", ["bimi"]],
  ["blocklisted", ["rfc5782"]],
  ["fcrdns_", ["rfc1912", "m3aawg"]],
  ["dnssec_", ["rfc4035"]],
  ["dns_no_such_domain", ["rfc1035"]],
  ["web_tls_", ["ncsc_tls", "rfc8446"]]
]

/** The sources an issue cites: those its description names, else the one its id prefix rests on. */
export const sourcesOfIssue = (id: string, description: string): ReadonlyArray<string> => {
  const named = sourcesNamedIn(description)
  return named.length > 0 ? named : (BY_PREFIX.find(([prefix]) => id.startsWith(prefix))?.[1] ?? [])
}

/** The source keys a catalogue description names (unknown RFC numbers get a generic entry). */
export const sourcesNamedIn = (description: string): ReadonlyArray<string> => [
  ...new Set([
    ...[...description.matchAll(/\bRFC ?(\d{3,5})\b/g)].map((m) => `rfc${m[1]}`),
    ...NAMED.filter(([pattern]) => pattern.test(description)).map(([, key]) => key)
  ])
]

/** A source by key; an RFC missing from the table still gets its rfc-editor.org page. */
export const sourceOf = (key: string): Source =>
  sources[key] ??
  (/^rfc\d+$/.test(key)
    ? { title: `RFC ${key.slice(3)}`, url: `https://www.rfc-editor.org/rfc/${key}` }
    : { title: key, url: "" })

/** One citation use: a section, or an issue of a section, resting on some sources. */
export interface CitationUse {
  readonly section: string
  readonly issue?: string
  readonly sources: ReadonlyArray<string>
}

/** The citations of a report, ordered by key, each naming the sections and issues that use it. */
export const citationsOf = (uses: ReadonlyArray<CitationUse>): ReadonlyArray<Citation> => {
  const byKey = new Map<string, { sections: Set<string>; issues: Set<string> }>()
  for (const use of uses)
    for (const key of use.sources) {
      const entry = byKey.get(key) ?? { sections: new Set<string>(), issues: new Set<string>() }
      entry.sections.add(use.section)
      if (use.issue !== undefined) entry.issues.add(use.issue)
      byKey.set(key, entry)
    }
  return [...byKey.keys()]
    .sort() // code-unit order: the same on every machine
    .map((id) => ({
      id,
      ...sourceOf(id),
      sections: [...byKey.get(id)!.sections].sort(),
      issues: [...byKey.get(id)!.issues].sort()
    }))
}
