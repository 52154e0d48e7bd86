/**
 * CAA (RFC 8659): which certification authorities a domain permits to issue for a name. Pure: the
 * relevant record set is chosen from the answers of the names climbed (§3), and a CA, known by its
 * CAA identifiers (the issuer domain names it recognises as its own), is judged against it (§4).
 */
import { readIssuerProperty } from "./CaaParameters.ts"
import type { CaaData } from "./DnsRdata.ts"

export type CaaRecord = CaaData

/** The CAA answer at one name of the climb: its records (none: the name holds no CAA), or unknown. */
export type CaaLookup =
  | { readonly name: string; readonly outcome: "records"; readonly records: ReadonlyArray<CaaRecord> }
  | { readonly name: string; readonly outcome: "unknown"; readonly reason: string }

/** The relevant CAA set of a name (RFC 8659 §3), or none anywhere up the tree, or unknown. */
export type RelevantSet =
  | { readonly kind: "found"; readonly at: string; readonly records: ReadonlyArray<CaaRecord> }
  | { readonly kind: "none" }
  | { readonly kind: "unknown"; readonly at: string; readonly reason: string }

const bare = (name: string) => name.toLowerCase().replace(/\.$/, "")

/**
 * The names a CA asks for `name`'s CAA set, nearest first: the name and each parent up to, not
 * including, the root (RFC 8659 §3). A wildcard name is searched from its base, the name with the
 * `*` label removed (CA/Browser Forum Baseline Requirements 3.2.2.8).
 */
export const climb = (name: string): ReadonlyArray<string> => {
  const labels = bare(name)
    .split(".")
    .filter((l) => l.length > 0)
  const start = labels[0] === "*" ? 1 : 0
  const out: Array<string> = []
  for (let i = start; i < labels.length; i++) out.push(labels.slice(i).join("."))
  return out
}

/**
 * RFC 8659 §3: the first name of the climb whose CAA RRset is not empty holds the relevant set. A
 * lookup that failed before any set was found leaves the answer unknown: the set it might hold
 * would decide.
 */
export const relevantSet = (lookups: ReadonlyArray<CaaLookup>): RelevantSet => {
  for (const l of lookups) {
    if (l.outcome === "unknown") return { kind: "unknown", at: bare(l.name), reason: l.reason }
    if (l.records.length > 0) return { kind: "found", at: bare(l.name), records: l.records }
  }
  return { kind: "none" }
}

/** One `issue`/`issuewild` value (RFC 8659 §4.2): the issuer domain name (null for `;` alone) and parameters. */
export interface IssueValue {
  readonly issuer: string | null
  readonly parameters: ReadonlyArray<readonly [string, string]>
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i

/**
 * `issuer-domain-name [; parameters]` (RFC 8659 §4.2, read by `readIssuerProperty`); null when
 * malformed, which authorises no CA (§4.2: a CA must not treat a value it cannot parse as its own).
 */
export const parseIssueValue = (value: string): IssueValue | null => {
  const read = readIssuerProperty(value)
  return read.grammatical
    ? { issuer: read.issuer, parameters: read.parameters.map((p) => [p.key, p.value] as const) }
    : null
}

/** The property tags this reading recognises (RFC 8659 §4, RFC 9495 `issuemail`, CA/B contacts). */
export const KNOWN_TAGS: ReadonlyArray<string> = [
  "issue",
  "issuewild",
  "iodef",
  "issuemail",
  "issuevmc",
  "contactemail",
  "contactphone"
]

/** Issuer Critical flag (RFC 8659 §4.1: bit 0, the most significant bit of the flags octet). */
export const isCritical = (r: CaaRecord) => (r.flags & 0x80) !== 0

export type CaaDecision =
  | {
      readonly verdict: "permitted"
      readonly tag: "issue" | "issuewild" | null
      readonly detail: string
      /** The issuer domain name that permits the CA (absent when no property restricts issuance). */
      readonly issuer?: string
    }
  | { readonly verdict: "forbidden"; readonly tag: "issue" | "issuewild" | null; readonly detail: string }
  /** The set restricts issuance and the CA's identifiers are not known: it cannot be judged. */
  | { readonly verdict: "unknown"; readonly tag: "issue" | "issuewild"; readonly detail: string }

/** The issuer domain names a relevant set's properties of `tag` permit (`;` and malformed ones: none). */
export const permittedIssuers = (records: ReadonlyArray<CaaRecord>, tag: "issue" | "issuewild") =>
  records
    .filter((r) => r.tag.toLowerCase() === tag)
    .flatMap((r) => {
      const v = parseIssueValue(r.value)
      return v?.issuer ? [v.issuer] : []
    })

/**
 * May a CA known by `identifiers` issue for a name whose relevant set is `records` (RFC 8659 §4)?
 * An unrecognised property marked critical forbids issuance (§4.1). For a wildcard certificate the
 * `issuewild` properties decide when there are any, else the `issue` ones (§4.3); for another name
 * the `issue` ones (§4.2). Without such properties the set does not restrict issuance. Tags are
 * compared case-insensitively (§4.1), issuer domain names too (they are domain names).
 * `identifiers` empty means the CA is not known: unknown unless the set forbids every CA.
 */
export const decide = (
  records: ReadonlyArray<CaaRecord>,
  identifiers: ReadonlyArray<string>,
  wildcard: boolean
): CaaDecision => {
  const critical = records.find((r) => isCritical(r) && !KNOWN_TAGS.includes(r.tag.toLowerCase()))
  if (critical)
    return {
      verdict: "forbidden",
      tag: null,
      detail: `a critical CAA property '${critical.tag}' is not understood, so no CA may issue (RFC 8659 4.1)`
    }
  const hasTag = (t: string) => records.some((r) => r.tag.toLowerCase() === t)
  const tag: "issue" | "issuewild" | null =
    wildcard && hasTag("issuewild") ? "issuewild" : hasTag("issue") ? "issue" : null
  if (tag === null)
    return {
      verdict: "permitted",
      tag: null,
      detail: "the CAA set does not restrict issuance (no issue property)"
    }
  const permitted = permittedIssuers(records, tag)
  if (permitted.length === 0)
    return { verdict: "forbidden", tag, detail: `CAA ${tag} permits no CA (an empty or unreadable value)` }
  if (identifiers.length === 0)
    return {
      verdict: "unknown",
      tag,
      detail: `CAA ${tag} permits ${permitted.join(", ")}; the issuer is not known`
    }
  const wanted = identifiers.map(bare)
  const match = permitted.find((p) => wanted.includes(bare(p)))
  return match
    ? { verdict: "permitted", tag, detail: `CAA ${tag} permits ${match}`, issuer: match }
    : {
        verdict: "forbidden",
        tag,
        detail: `CAA ${tag} permits ${permitted.join(", ")}, not ${wanted.join(" / ")}`
      }
}

/**
 * How a certificate covers `host` (RFC 6125 6.4.3): by the name itself, by a wildcard one label
 * up (then `issuewild` applies, RFC 8659 §4.3), or not at all (null).
 */
export const coveringName = (host: string, dnsNames: ReadonlyArray<string>): string | null => {
  const h = bare(host)
  const names = dnsNames.map(bare)
  if (names.includes(h)) return h
  const dot = h.indexOf(".")
  const wildcard = dot < 0 ? null : `*.${h.slice(dot + 1)}`
  return wildcard !== null && names.includes(wildcard) ? wildcard : null
}

/** A certificate issuer (its organisation or common name) and the CAA identifiers it answers to. */
export interface CaaIssuer {
  readonly name: string
  readonly identifiers: ReadonlyArray<string>
}

/**
 * One `CAA_ISSUERS` entry, `Issuer Name=caa.domain[ other.domain]`: an issuer the CA table does
 * not know, such as a private CA. Null when malformed.
 */
export const parseCaaIssuer = (item: string): CaaIssuer | null => {
  const eq = item.lastIndexOf("=")
  const name = eq < 0 ? "" : item.slice(0, eq).trim()
  const identifiers =
    eq < 0
      ? []
      : item
          .slice(eq + 1)
          .trim()
          .toLowerCase()
          .split(/\s+/)
          .filter(Boolean)
  const valid = identifiers.every((d) => d.split(".").every((l) => LABEL.test(l)))
  return name === "" || identifiers.length === 0 || !valid ? null : { name, identifiers }
}
