/**
 * The DMARC record grammar (RFC 7489 6.3 and 6.4, read as DMARCbis (RFC 9989) reads it: the
 * additions np, t and psd, the removed pct, rf and ri, and p optional).
 * `parseDmarc` is total: every string gives a result whose `errors` carry the offset of each problem,
 * so the API can say where a record is broken instead of only that it is.
 */
import { Schema } from "effect"
import { getDomain } from "tldts"

export const DmarcPolicies = ["none", "quarantine", "reject"] as const
export const DmarcPolicy = Schema.Literal(...DmarcPolicies)
export type DmarcPolicy = typeof DmarcPolicy.Type
export type Alignment = "r" | "s"

/** One `tag=value` pair as written, with the offset of the tag name in the record. */
export const DmarcTag = Schema.Struct({ name: Schema.String, value: Schema.String, position: Schema.Int })
export type DmarcTag = typeof DmarcTag.Type

/** A syntax problem: `position` is the 0-based character offset in the record. */
export const DmarcSyntaxError = Schema.Struct({
  position: Schema.Int,
  tag: Schema.NullOr(Schema.String),
  message: Schema.String
})
export type DmarcSyntaxError = typeof DmarcSyntaxError.Type

/** The organisational domain (RFC 7489 3.2, public suffix list); the name itself when unknown. */
export const organisationalDomainOf = (domain: string): string => getDomain(domain) ?? domain

/** RFC 7489 7.1: the name a destination publishes to accept reports for `policyDomain`. */
export const reportAuthorisationName = (policyDomain: string, destination: string) =>
  `${policyDomain}._report._dmarc.${destination}`

/** A reporting URI (RFC 7489 6.2): the URI, an optional size limit and, for mailto, the address. */
export interface DmarcUri {
  readonly uri: string
  readonly scheme: string
  readonly address: string | null
  readonly domain: string | null
  /** Size limit in bytes from the `!size[k|m|g|t]` suffix, null when absent. */
  readonly maxBytes: number | null
  readonly raw: string
}

export interface ParsedDmarc {
  readonly record: string
  readonly tags: ReadonlyArray<DmarcTag>
  readonly version: string | null
  readonly p: DmarcPolicy | null
  readonly sp: DmarcPolicy | null
  readonly np: DmarcPolicy | null
  readonly pct: number | null
  readonly rua: ReadonlyArray<DmarcUri>
  readonly ruf: ReadonlyArray<DmarcUri>
  readonly adkim: Alignment | null
  readonly aspf: Alignment | null
  readonly fo: ReadonlyArray<string> | null
  readonly rf: ReadonlyArray<string> | null
  readonly ri: number | null
  readonly t: boolean | null
  readonly psd: "y" | "n" | "u" | null
  readonly unknownTags: ReadonlyArray<string>
  readonly errors: ReadonlyArray<DmarcSyntaxError>
  /**
   * Value errors of the tags DMARCbis removed (pct, rf, ri): kept apart from `errors`, because
   * receivers following DMARCbis ignore these tags, so they do not make the record invalid.
   */
  readonly removedTagErrors: ReadonlyArray<DmarcSyntaxError>
}

/** Tags RFC 7489 defines and DMARCbis removes. */
export const REMOVED_TAGS: ReadonlySet<string> = new Set(["pct", "rf", "ri"])

const TAG_NAME = /^[A-Za-z][A-Za-z0-9_]*$/
const MAX_RI = 4_294_967_295
const SIZE_UNITS: Record<string, number> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }

/** Lenient RFC 5321 mailbox check: enough to catch typos without rejecting real addresses. */
const MAILBOX =
  /^([A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+)@((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9-]{2,63})$/

/** Checks a mailbox `local@domain`; returns the lowercased domain or null. */
export const mailboxDomain = (address: string): string | null => {
  const m = MAILBOX.exec(address)
  if (!m || address.length > 254 || m[1]!.length > 64) return null
  if (m[1]!.startsWith(".") || m[1]!.endsWith(".") || m[1]!.includes("..")) return null
  return m[2]!.toLowerCase()
}

/**
 * Parses one DMARC URI with its optional size suffix (RFC 7489 6.2: commas and `!` inside a URI
 * must be percent-encoded, so the last `!` starts the size).
 */
export const parseDmarcUri = (raw: string): { uri: DmarcUri } | { error: string } => {
  const text = raw.trim()
  if (text === "") return { error: "empty URI" }
  const bang = text.lastIndexOf("!")
  let uri = text
  let maxBytes: number | null = null
  if (bang >= 0) {
    const size = /^(\d{1,15})([kmgt]?)$/i.exec(text.slice(bang + 1))
    if (!size) return { error: `bad size limit '${text.slice(bang)}' in '${text}'` }
    maxBytes = Number(size[1]) * SIZE_UNITS[size[2]!.toLowerCase()]!
    uri = text.slice(0, bang)
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(uri)
  if (!scheme) return { error: `'${uri}' is not a URI (expected mailto:address)` }
  const name = scheme[1]!.toLowerCase()
  if (name === "mailto") {
    const rest = uri.slice(scheme[0].length)
    const address = decodeSafe(rest.split("?")[0]!)
    const domain = mailboxDomain(address)
    if (domain === null) return { error: `'${uri}' is not a valid mailto address` }
    return { uri: { uri, scheme: name, address, domain, maxBytes, raw: text } }
  }
  if (name === "https" || name === "http") {
    try {
      const url = new URL(uri)
      return {
        uri: { uri, scheme: name, address: null, domain: url.hostname.toLowerCase(), maxBytes, raw: text }
      }
    } catch {
      return { error: `'${uri}' is not a valid URL` }
    }
  }
  return { uri: { uri, scheme: name, address: null, domain: null, maxBytes, raw: text } }
}

const decodeSafe = (s: string): string => {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** Splits `text` on `sep`, keeping each piece's offset. */
const splitWithOffsets = (text: string, sep: string, base: number) => {
  const out: Array<{ text: string; position: number }> = []
  let start = 0
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || text[i] === sep) {
      out.push({ text: text.slice(start, i), position: base + start })
      start = i + 1
    }
  }
  return out
}

const leadingSpace = (s: string) => s.length - s.trimStart().length

/** Parses a DMARC record (RFC 7489 6.3 grammar, DMARCbis np/t/psd). Never throws. */
export const parseDmarc = (record: string): ParsedDmarc => {
  const errors: Array<DmarcSyntaxError> = []
  const tags: Array<DmarcTag> = []
  const seen = new Set<string>()
  for (const part of splitWithOffsets(record, ";", 0)) {
    if (part.text.trim() === "") continue
    const position = part.position + leadingSpace(part.text)
    const eq = part.text.indexOf("=")
    if (eq < 0) {
      errors.push({ position, tag: null, message: `'${part.text.trim()}' is not a tag=value pair` })
      continue
    }
    const name = part.text.slice(0, eq).trim()
    const value = part.text.slice(eq + 1).trim()
    if (!TAG_NAME.test(name)) {
      errors.push({ position, tag: null, message: `'${name}' is not a valid tag name` })
      continue
    }
    const key = name.toLowerCase()
    if (seen.has(key)) {
      errors.push({ position, tag: key, message: `duplicate tag '${key}' (the first one is used)` })
      continue
    }
    seen.add(key)
    tags.push({ name: key, value, position })
  }

  const tag = (name: string) => tags.find((t) => t.name === name)
  const valuePos = (t: DmarcTag) => {
    const raw = record.slice(t.position)
    const eq = raw.indexOf("=")
    return t.position + eq + 1 + leadingSpace(raw.slice(eq + 1))
  }
  const fail = (t: DmarcTag, message: string) => errors.push({ position: valuePos(t), tag: t.name, message })

  // RFC 7489 6.3: v MUST be the first tag and MUST be exactly DMARC1.
  let version: string | null = null
  const first = tags[0]
  if (!first || first.name !== "v") {
    errors.push({ position: first?.position ?? 0, tag: "v", message: "the record must start with v=DMARC1" })
  } else {
    version = first.value
    if (first.value !== "DMARC1") fail(first, `v must be exactly 'DMARC1', found '${first.value}'`)
  }

  const policy = (name: string): DmarcPolicy | null => {
    const t = tag(name)
    if (!t) return null
    const v = t.value.toLowerCase()
    if (v === "none" || v === "quarantine" || v === "reject") return v
    fail(t, `${name} must be none, quarantine or reject, found '${t.value}'`)
    return null
  }
  const alignment = (name: string): Alignment | null => {
    const t = tag(name)
    if (!t) return null
    const v = t.value.toLowerCase()
    if (v === "r" || v === "s") return v
    fail(t, `${name} must be r (relaxed) or s (strict), found '${t.value}'`)
    return null
  }
  const integer = (name: string, max: number): number | null => {
    const t = tag(name)
    if (!t) return null
    if (!/^\d{1,10}$/.test(t.value) || Number(t.value) > max) {
      fail(t, `${name} must be an integer from 0 to ${max}, found '${t.value}'`)
      return null
    }
    return Number(t.value)
  }
  const uris = (name: string): ReadonlyArray<DmarcUri> => {
    const t = tag(name)
    if (!t) return []
    const out: Array<DmarcUri> = []
    for (const piece of splitWithOffsets(t.value, ",", valuePos(t))) {
      const parsed = parseDmarcUri(piece.text)
      if ("error" in parsed) errors.push({ position: piece.position, tag: name, message: parsed.error })
      else out.push(parsed.uri)
    }
    return out
  }
  const colonList = (name: string, allowed: RegExp, what: string): ReadonlyArray<string> | null => {
    const t = tag(name)
    if (!t) return null
    const items = t.value.split(":").map((s) => s.trim())
    const bad = items.filter((s) => !allowed.test(s))
    if (bad.length > 0) {
      fail(t, `${name} must be ${what}, found '${bad.join("', '")}'`)
      return null
    }
    return items.map((s) => s.toLowerCase())
  }
  const flag = <A extends string>(name: string, allowed: ReadonlyArray<A>): A | null => {
    const t = tag(name)
    if (!t) return null
    const v = t.value.toLowerCase() as A
    if (allowed.includes(v)) return v
    fail(t, `${name} must be ${allowed.join(" or ")}, found '${t.value}'`)
    return null
  }

  // RFC 9989 4.7: a record without p is treated as if it said p=none, not as broken (RFC 7489 6.3
  // made p required). The check warns about it (`dmarc-no-p`); the grammar accepts it.
  const p = policy("p")
  const t = flag("t", ["y", "n"] as const)
  const known = new Set([
    "v",
    "p",
    "sp",
    "np",
    "pct",
    "rua",
    "ruf",
    "adkim",
    "aspf",
    "fo",
    "rf",
    "ri",
    "t",
    "psd"
  ])
  return {
    record,
    tags,
    version,
    p,
    sp: policy("sp"),
    np: policy("np"),
    pct: integer("pct", 100),
    rua: uris("rua"),
    ruf: uris("ruf"),
    adkim: alignment("adkim"),
    aspf: alignment("aspf"),
    fo: colonList("fo", /^[01ds]$/i, "a colon-separated list of 0, 1, d, s"),
    rf: colonList("rf", /^[A-Za-z][A-Za-z0-9-]*$/, "a colon-separated list of report formats (afrf)"),
    ri: integer("ri", MAX_RI),
    t: t === null ? null : t === "y",
    psd: flag("psd", ["y", "n", "u"] as const),
    unknownTags: tags.filter((x) => !known.has(x.name)).map((x) => x.name),
    errors: errors.filter((e) => !REMOVED_TAGS.has(e.tag ?? "")).sort((a, b) => a.position - b.position),
    removedTagErrors: errors.filter((e) => REMOVED_TAGS.has(e.tag ?? ""))
  }
}

/**
 * RFC 7489 6.6.3: only TXT records that start with `v=DMARC1` are DMARC records. The ABNF (6.4)
 * allows blanks around "=" but nothing before "v": a record with a leading space is not one.
 */
export const isDmarcRecord = (txt: string): boolean => /^v[ \t]*=[ \t]*DMARC1[ \t]*(;|$)/i.test(txt)

/** A TXT record that looks like DMARC but is not one (leading blanks): worth telling the owner. */
export const isNearDmarcRecord = (txt: string): boolean =>
  !isDmarcRecord(txt) && /^\s*v\s*=\s*DMARC1\s*(;|$)/i.test(txt)
