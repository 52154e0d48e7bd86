/**
 * The SPF record grammar of RFC 7208 section 12 (ABNF), with the semantic rules of sections 4.5,
 * 4.6, 5, 6 and 7 that can be checked without evaluating the record. Total: `parse` never throws and
 * reports every problem with its character position, and still returns every term it understood so a
 * broken record can be shown and counted.
 */
import { Schema } from "effect"
import { parseIp4, parseIp6 } from "./SpfIp.ts"

export type Qualifier = "+" | "-" | "~" | "?"
export const MechanismNames = ["all", "include", "a", "mx", "ptr", "ip4", "ip6", "exists"] as const
export type MechanismName = (typeof MechanismNames)[number]

export interface Mechanism {
  readonly kind: "mechanism"
  readonly name: MechanismName
  /** Qualifier as written; `undefined` means the default `+` (RFC 7208 4.6.2). */
  readonly qualifier: Qualifier | undefined
  /** Target for include, exists, and optionally a, mx, ptr (macro-string as written). */
  readonly domain: string | undefined
  /** Network for ip4 / ip6, as written. */
  readonly ip: string | undefined
  readonly cidr4: number | undefined
  readonly cidr6: number | undefined
}

export interface Modifier {
  readonly kind: "modifier"
  /** Lower-cased name: `redirect`, `exp` or an unknown modifier (which is ignored, 6). */
  readonly name: string
  readonly value: string
}

export type Term = Mechanism | Modifier

export interface Located<T> {
  readonly term: T
  /** Character offset of the term in the record. */
  readonly position: number
  readonly text: string
}

export const SpfProblem = Schema.Struct({ position: Schema.Int, term: Schema.String, message: Schema.String })
export type SpfProblem = typeof SpfProblem.Type

export interface ParsedSpf {
  readonly record: string
  readonly terms: ReadonlyArray<Located<Term>>
  /** Syntax or semantic errors; each of them makes check_host() return permerror. */
  readonly errors: ReadonlyArray<SpfProblem>
  /** Valid but risky or deprecated constructs. */
  readonly warnings: ReadonlyArray<SpfProblem>
}

export const effectiveQualifier = (m: Mechanism): Qualifier => m.qualifier ?? "+"

/** RFC 7208 4.5: the version section is exactly `v=spf1` (any case) ended by a space or the end. */
export const isSpfRecord = (txt: string): boolean => /^v=spf1(?: |$)/i.test(txt)

/**
 * RFC 7208 4.5: pick the SPF record among a name's TXT strings; more than one is permerror. Several
 * are listed sorted: an RRset has no order (RFC 2181 5), and a resolver that rotates it would
 * otherwise change which record a result names first from one scan to the next.
 */
export const selectSpf = (
  txts: ReadonlyArray<string>
):
  | { readonly _tag: "none" }
  | { readonly _tag: "one"; readonly record: string }
  | { readonly _tag: "multiple"; readonly records: ReadonlyArray<string> } => {
  const records = txts.filter(isSpfRecord)
  if (records.length === 0) return { _tag: "none" }
  if (records.length === 1) return { _tag: "one", record: records[0]! }
  return { _tag: "multiple", records: [...records].sort() }
}

const MACRO_LETTERS = "slodiphcrtv"
const EXP_ONLY_LETTERS = "crt"
const DELIMITERS = ".-+,/_="

/** Does a macro-string contain any macro expansion (`%{...}`) that depends on the message? */
export const hasMacro = (text: string): boolean => /%\{/.test(text)

/**
 * RFC 7208 section 7.1: checks a `macro-string`. Returns problems relative to `offset`.
 * `inExp`: the `c`, `r`, `t` letters are allowed only in explanation text (7.2).
 */
export const checkMacroString = (
  text: string,
  offset: number,
  term: string,
  inExp = false
): Array<SpfProblem> => {
  const problems: Array<SpfProblem> = []
  const fail = (at: number, message: string) => problems.push({ position: offset + at, term, message })
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (ch < 0x21 || ch > 0x7e) {
      fail(i, `invalid character ${JSON.stringify(text[i])} (only visible ASCII is allowed)`)
      continue
    }
    if (text[i] !== "%") continue
    const next = text[i + 1]
    if (next === "%" || next === "_" || next === "-") {
      i++
      continue
    }
    if (next !== "{") {
      fail(i, `'%' must start a macro ('%{', '%%', '%_' or '%-')`)
      continue
    }
    const close = text.indexOf("}", i + 2)
    if (close < 0) {
      fail(i, "unterminated macro: missing '}'")
      return problems
    }
    const body = text.slice(i + 2, close)
    const m = /^([a-zA-Z])([0-9]*)(r?)(.*)$/i.exec(body)
    const letter = m?.[1]?.toLowerCase()
    if (!m || !letter || !MACRO_LETTERS.includes(letter)) {
      fail(i, `unknown macro letter in '%{${body}}' (allowed: s l o d i p h c r t v)`)
    } else {
      if (!inExp && EXP_ONLY_LETTERS.includes(letter))
        fail(i, `macro letter '${letter}' is allowed only in the exp explanation (RFC 7208 7.2)`)
      if (m[2] !== "" && Number(m[2]) === 0)
        fail(i, `macro '%{${body}}': the digit transformer must be nonzero`)
      const delims = m[4] ?? ""
      if ([...delims].some((d) => !DELIMITERS.includes(d)))
        fail(i, `macro '%{${body}}': invalid delimiter (allowed: . - + , / _ =)`)
    }
    i = close
  }
  return problems
}

/**
 * RFC 7208 section 7.1 `domain-spec = macro-string domain-end`: the name must end with a
 * top label containing a letter (or with a macro), so `include:example` and IP literals are errors.
 */
export const checkDomainSpec = (spec: string, offset: number, term: string): Array<SpfProblem> => {
  if (spec.length === 0) return [{ position: offset, term, message: "empty domain" }]
  const problems = checkMacroString(spec, offset, term)
  if (problems.length > 0) return problems
  const endsWithMacro = /(?:%\{[^}]*\}|%%|%_|%-)$/.test(spec)
  if (endsWithMacro) return problems
  const labels = spec.replace(/\.$/, "").split(".")
  const top = labels[labels.length - 1] ?? ""
  const toplabel = /^(?:[a-zA-Z0-9]*[a-zA-Z][a-zA-Z0-9]*|[a-zA-Z0-9]+-[a-zA-Z0-9-]*[a-zA-Z0-9])$/
  if (labels.length < 2 || !toplabel.test(top))
    problems.push({
      position: offset,
      term,
      message: `'${spec}' is not a domain name (it needs a dot and a top-level label with a letter)`
    })
  else if (!hasMacro(spec)) {
    if (labels.some((l) => l.length === 0))
      problems.push({ position: offset, term, message: `'${spec}' has an empty label` })
    else if (labels.some((l) => l.length > 63))
      problems.push({ position: offset, term, message: `'${spec}' has a label longer than 63 characters` })
    else if (spec.replace(/\.$/, "").length > 253)
      problems.push({ position: offset, term, message: `'${spec}' is longer than 253 characters` })
  }
  return problems
}

const CIDR = (max: number) => (text: string) =>
  /^(?:0|[1-9][0-9]*)$/.test(text) && text.length <= 3 && Number(text) <= max ? Number(text) : undefined
const cidr4 = CIDR(32)
const cidr6 = CIDR(128)

interface TermOutcome {
  readonly term?: Term
  readonly errors: Array<SpfProblem>
  readonly warnings: Array<SpfProblem>
}

const parseTerm = (text: string, at: number): TermOutcome => {
  const errors: Array<SpfProblem> = []
  const warnings: Array<SpfProblem> = []
  const err = (message: string, offset = 0) => errors.push({ position: at + offset, term: text, message })
  const warn = (message: string, offset = 0) => warnings.push({ position: at + offset, term: text, message })

  // RFC 7208 4.6.1: `name "="` makes a modifier; mechanisms use ':' or '/' after their name
  const mod = /^([a-zA-Z][a-zA-Z0-9\-_.]*)=(.*)$/s.exec(text)
  if (mod) {
    const name = mod[1]!.toLowerCase()
    const value = mod[2]!
    const valueAt = name.length + 1
    if (name === "redirect" || name === "exp") {
      errors.push(...checkDomainSpec(value, at + valueAt, text))
    } else {
      errors.push(...checkMacroString(value, at + valueAt, text))
      if ((MechanismNames as ReadonlyArray<string>).includes(name))
        warn(`'${name}=' is an unknown modifier and is ignored; did you mean '${name}:'?`)
      else warn(`unknown modifier '${name}' is ignored (RFC 7208 6)`)
    }
    return { term: { kind: "modifier", name, value }, errors, warnings }
  }

  let q: Qualifier | undefined
  let rest = text
  if ("+-~?".includes(text[0] ?? "x") && text.length > 0) {
    q = text[0] as Qualifier
    rest = text.slice(1)
  }
  const off = q ? 1 : 0
  const nameMatch = /^[a-zA-Z0-9]+/.exec(rest)
  const rawName = nameMatch?.[0] ?? ""
  const name = rawName.toLowerCase()
  if (!(MechanismNames as ReadonlyArray<string>).includes(name)) {
    err(rawName === "" ? `'${text}' is not a mechanism or modifier` : `unknown mechanism '${rawName}'`, off)
    return { errors, warnings }
  }
  const mech = name as MechanismName
  const after = rest.slice(rawName.length)
  const argAt = off + rawName.length
  const base = { kind: "mechanism" as const, name: mech, qualifier: q }
  const none = { domain: undefined, ip: undefined, cidr4: undefined, cidr6: undefined }
  /** The term whose argument is ':domain-spec' (RFC 7208 5.2, 5.5, 5.7), or `missing` when it is not. */
  const domainTerm = (missing: string): TermOutcome => {
    if (!after.startsWith(":")) {
      err(missing, argAt)
      return { errors, warnings }
    }
    const domain = after.slice(1)
    errors.push(...checkDomainSpec(domain, at + argAt + 1, text))
    return { term: { ...base, ...none, domain }, errors, warnings }
  }

  switch (mech) {
    case "all":
      if (after !== "") err(`'all' takes no argument`, argAt)
      return { term: { ...base, ...none }, errors, warnings }
    case "include":
    case "exists":
      return domainTerm(`'${mech}' needs ':domain'`)
    case "ptr":
      warn("'ptr' is slow and unreliable and SHOULD NOT be used (RFC 7208 5.5)")
      if (after === "") return { term: { ...base, ...none }, errors, warnings }
      return domainTerm(`'ptr' takes an optional ':domain' and no CIDR length`)
    case "a":
    case "mx": {
      // dual-cidr-length is taken from the end: '/' is also a legal macro-literal character
      const dual = /(?:\/([0-9]+))?(?:\/\/([0-9]+))?$/.exec(after)!
      const head = after.slice(0, dual.index)
      let c4: number | undefined
      let c6: number | undefined
      if (dual[1] !== undefined) {
        c4 = cidr4(dual[1])
        if (c4 === undefined) err(`invalid IPv4 CIDR length '/${dual[1]}' (0-32)`, argAt + head.length)
      }
      if (dual[2] !== undefined) {
        c6 = cidr6(dual[2])
        if (c6 === undefined) err(`invalid IPv6 CIDR length '//${dual[2]}' (0-128)`, argAt + head.length)
      }
      let domain: string | undefined
      if (head !== "") {
        if (!head.startsWith(":")) {
          err(`'${mech}' takes an optional ':domain' and CIDR lengths`, argAt)
          return { errors, warnings }
        }
        domain = head.slice(1)
        errors.push(...checkDomainSpec(domain, at + argAt + 1, text))
      }
      if (c4 !== undefined && c4 < 8) warn(`'/${c4}' authorises a very large IPv4 range`)
      return { term: { ...base, domain, ip: undefined, cidr4: c4, cidr6: c6 }, errors, warnings }
    }
    case "ip4":
    case "ip6": {
      if (!after.startsWith(":")) {
        err(`'${mech}' needs ':address'`, argAt)
        return { errors, warnings }
      }
      const value = after.slice(1)
      const slash = value.indexOf("/")
      const ip = slash < 0 ? value : value.slice(0, slash)
      const len = slash < 0 ? undefined : value.slice(slash + 1)
      const four = mech === "ip4"
      if ((four ? parseIp4(ip) : parseIp6(ip)) === undefined)
        err(`'${ip}' is not a valid ${four ? "IPv4" : "IPv6"} address`, argAt + 1)
      let prefix: number | undefined
      if (len !== undefined) {
        prefix = four ? cidr4(len) : cidr6(len)
        if (prefix === undefined)
          err(`invalid CIDR length '/${len}' (0-${four ? 32 : 128})`, argAt + 1 + (slash < 0 ? 0 : slash))
      }
      if (prefix !== undefined && prefix < (four ? 8 : 16))
        warn(`'/${prefix}' authorises a very large range of addresses`)
      return {
        term: {
          ...base,
          domain: undefined,
          ip,
          cidr4: four ? prefix : undefined,
          cidr6: four ? undefined : prefix
        },
        errors,
        warnings
      }
    }
  }
}

/**
 * Parses one SPF record (RFC 7208 section 12). The record must start with `v=spf1`; terms are
 * separated by single or repeated spaces (SP only). `redirect` and `exp` may appear once each (6).
 */
export const parse = (record: string): ParsedSpf => {
  const errors: Array<SpfProblem> = []
  const warnings: Array<SpfProblem> = []
  const terms: Array<Located<Term>> = []
  if (!isSpfRecord(record)) {
    errors.push({ position: 0, term: record.slice(0, 10), message: "record does not start with 'v=spf1'" })
    return { record, terms, errors, warnings }
  }
  let i = 6
  while (i < record.length) {
    const ch = record[i]!
    if (ch === " ") {
      i++
      continue
    }
    if (ch === "\t" || ch === "\r" || ch === "\n") {
      // only SP separates terms (RFC 7208 12); a tab or line break usually comes from a copy-paste
      errors.push({ position: i, term: JSON.stringify(ch), message: "terms must be separated by spaces" })
      i++
      continue
    }
    let j = i
    while (j < record.length && !" \t\r\n".includes(record[j]!)) j++
    const text = record.slice(i, j)
    const outcome = parseTerm(text, i)
    errors.push(...outcome.errors)
    warnings.push(...outcome.warnings)
    if (outcome.term) terms.push({ term: outcome.term, position: i, text })
    i = j
  }
  for (const name of ["redirect", "exp"]) {
    const seen = terms.filter((t) => t.term.kind === "modifier" && t.term.name === name)
    for (const extra of seen.slice(1))
      errors.push({
        position: extra.position,
        term: extra.text,
        message: `'${name}' may appear only once (RFC 7208 6)`
      })
  }
  const mechanisms = terms.filter((t) => t.term.kind === "mechanism")
  const allAt = mechanisms.findIndex((t) => t.term.kind === "mechanism" && t.term.name === "all")
  if (allAt >= 0) {
    for (const later of mechanisms.slice(allAt + 1))
      warnings.push({
        position: later.position,
        term: later.text,
        message: "terms after 'all' are never evaluated"
      })
    const redirect = terms.find((t) => t.term.kind === "modifier" && t.term.name === "redirect")
    if (redirect)
      warnings.push({
        position: redirect.position,
        term: redirect.text,
        message: "'redirect' is ignored because the record has an 'all' mechanism (RFC 7208 6.1)"
      })
  }
  errors.sort((a, b) => a.position - b.position)
  warnings.sort((a, b) => a.position - b.position)
  return { record, terms, errors, warnings }
}

/** Prints a term in canonical form (lower-case names, the qualifier as written). */
export const printTerm = (term: Term): string => {
  if (term.kind === "modifier") return `${term.name}=${term.value}`
  let out = `${term.qualifier ?? ""}${term.name}`
  if (term.name === "ip4" || term.name === "ip6") {
    out += `:${term.ip ?? ""}`
    const len = term.name === "ip4" ? term.cidr4 : term.cidr6
    if (len !== undefined) out += `/${len}`
    return out
  }
  if (term.domain !== undefined) out += `:${term.domain}`
  if (term.cidr4 !== undefined) out += `/${term.cidr4}`
  if (term.cidr6 !== undefined) out += `//${term.cidr6}`
  return out
}

/** Prints a record: `v=spf1` and the terms separated by one space. */
export const print = (terms: ReadonlyArray<Term>): string => ["v=spf1", ...terms.map(printTerm)].join(" ")
