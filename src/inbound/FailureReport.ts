/**
 * DMARC failure reports (RFC 7489 7.3, in the Abuse Reporting Format of RFC 5965 with the
 * authentication-failure extension of RFC 6591; DMARCbis failure reporting keeps the format), read
 * from the parts of a message, and the plain-text variant some receivers send instead (an Exim
 * report: "Sender Domain:", "Sender IP Address:", then a copy of the headers). Pure.
 *
 * What is kept is what an analyst needs to find the sending path and why it failed, not what the
 * message said or to whom: the reported domain, source IP, arrival date, failure types, the
 * identities (DKIM d=/s=, SPF domain), the From *domain*, the Received chain as hosts and addresses
 * (no `for <recipient>`), and the authentication headers with every address's local part replaced
 * by `*`. Recipients, Message-IDs, the Subject and the body are dropped unless the operator keeps
 * bodies (REPORTS_KEEP_FAILURE_BODIES; docs/reports-in.md "Privacy").
 */
import { normaliseDomain } from "../records/DomainName.ts"
import { formatIp, parseIp } from "../records/IpAddress.ts"
import { Either } from "effect"

/** One Received field of the original message: who handed it on, from which address, to whom. */
export interface ReceivedHop {
  /** The `from` clause's name (the HELO, or the reverse name in parentheses when there is no HELO). */
  readonly from: string | null
  readonly ip: string | null
  readonly by: string | null
}

export interface FailureReport {
  /** `arf`: a message/feedback-report part (RFC 5965); `plain-text`: a receiver's own text. */
  readonly format: "arf" | "plain-text"
  /** The reported domain, lower case (RFC 6591 Reported-Domain, else the original's From domain). */
  readonly domain: string
  readonly sourceIp: string | null
  /** When the receiver got the original message (Arrival-Date), epoch seconds. */
  readonly arrival: number | null
  /** RFC 6591 3.2.2 Auth-Failure values (`dkim`, `spf`, `dmarc`, `bodyhash`, `revoked`, `signature`, `adsp`), sorted. */
  readonly failures: ReadonlyArray<string>
  /** RFC 7489 7.3.1 Identity-Alignment: which mechanisms aligned (`none`, `dkim`, `spf`, `dkim,spf`). */
  readonly identityAlignment: string | null
  readonly deliveryResult: string | null
  /** The report's own Authentication-Results fields (RFC 5965 3.2), local parts hidden. */
  readonly authenticationResults: ReadonlyArray<string>
  readonly dkimDomain: string | null
  readonly dkimSelector: string | null
  /** RFC 6591 3.2.3 SPF-DNS: the SPF record the receiver evaluated. */
  readonly spfDns: string | null
  /** The domain of the original's From (never its local part). */
  readonly fromDomain: string | null
  /** The domain of the original's envelope sender (Original-Mail-From). */
  readonly mailFromDomain: string | null
  /** The reporter's program (User-Agent), as a hint of who sent the report. */
  readonly userAgent: string | null
  /** The original's Received chain, newest first. */
  readonly routing: ReadonlyArray<ReceivedHop>
  /** The original's Authentication-Results, ARC-Authentication-Results, Received-SPF and DKIM-Signature (d= and s= only). */
  readonly authHeaders: ReadonlyArray<string>
  /** The original's Subject: kept only with the bodies. */
  readonly subject: string | null
  /** The original as the report carried it (headers, and the body when included): only with the bodies. */
  readonly original: string | null
}

/** The parts of a report message, as the MIME parser gives them. */
export interface FailureParts {
  /** The text of the message/feedback-report part. */
  readonly feedback: string | undefined
  /** The original: a message/rfc822 or text/rfc822-headers part. */
  readonly original: string | undefined
  /** The human-readable text part. */
  readonly text: string | undefined
}

/** A header block (RFC 5322 2.2: unfolded) as [lower-case name, value] pairs, in order. */
export const headerFields = (block: string): ReadonlyArray<readonly [string, string]> => {
  const fields: Array<[string, string]> = []
  for (const line of block.split(/\r?\n/)) {
    if (line.trim() === "") {
      if (fields.length > 0) break
      continue
    }
    const last = fields[fields.length - 1]
    if (/^[ \t]/.test(line)) {
      if (last !== undefined) last[1] = `${last[1]} ${line.trim()}`
      continue
    }
    const colon = line.indexOf(":")
    if (colon <= 0 || /\s/.test(line.slice(0, colon).trim())) continue
    fields.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()])
  }
  return fields
}

const first = (fields: ReadonlyArray<readonly [string, string]>, name: string) => {
  const value = fields.find(([n]) => n === name)?.[1]
  return value === undefined || value === "" ? null : value
}
const all = (fields: ReadonlyArray<readonly [string, string]>, name: string) =>
  fields.filter(([n]) => n === name).map(([, v]) => v)

/** Every address's local part replaced by `*`: the domain is the analyst's, the mailbox a person's. */
export const hideLocalParts = (text: string): string =>
  // a local part may hold `=` (a VERP bounce address): only a leading `key=` (`smtp.mailfrom=`) stays
  text.replace(
    /(^|[\s<>"(),;:[\]])((?:[a-z][a-z0-9._-]*=)?)[^\s<>"(),;:[\]@]*@(?=[a-z0-9-]+(\.[a-z0-9-]+)+)/gi,
    "$1$2*@"
  )

/** The domain of an address (`Name <user@example.com>`, `user@example.com`), lower case; null without one. */
export const addressDomain = (value: string | null): string | null => {
  if (value === null) return null
  const match = /@([a-z0-9.-]+[a-z0-9])\s*>?\s*$/i.exec(value.trim()) ?? /@([a-z0-9.-]+[a-z0-9])/i.exec(value)
  return match === null ? null : domainOrNull(match[1]!)
}

const domainOrNull = (text: string): string | null =>
  Either.getOrNull(normaliseDomain(text.trim().replace(/\.$/, "")))

const ipOrNull = (text: string | null): string | null => {
  if (text === null) return null
  const bare = text
    .trim()
    .replace(/^\[|\]$/g, "")
    .replace(/^ipv6:/i, "")
  const ip = parseIp(bare) ?? parseIp(bare.replace(/^::ffff:/i, ""))
  return ip === undefined ? null : formatIp(ip)
}

const seconds = (text: string | null): number | null => {
  if (text === null) return null
  const ms = Date.parse(text.replace(/\s+\([^)]*\)\s*$/, ""))
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000)
}

/** One Received field read as hops (RFC 5321 4.4): the `from` name, its address literal, the `by` host. */
export const receivedHop = (value: string): ReceivedHop => {
  const from = /\bfrom\s+(\S+)(?:\s+\(([^)]*)\))?/i.exec(value)
  const by = /\bby\s+([^\s;()]+)/i.exec(value)
  const literal = from?.[2] !== undefined ? /\[([^\]]+)\]/.exec(from[2]) : null
  const inName = from?.[1] !== undefined ? /^\[([^\]]+)\]$/.exec(from[1]) : null
  const ip = ipOrNull(literal?.[1] ?? inName?.[1] ?? (from?.[2] !== undefined ? from[2].trim() : null))
  const name = from?.[1] !== undefined && inName === null ? from[1].toLowerCase() : null
  return { from: name, ip, by: by?.[1]?.toLowerCase() ?? null }
}

const AUTH_HEADERS = ["authentication-results", "arc-authentication-results", "received-spf"]

/** The original's authentication headers, reduced: DKIM-Signature to its d= and s=, local parts hidden. */
const authHeadersOf = (fields: ReadonlyArray<readonly [string, string]>): ReadonlyArray<string> => {
  const kept: Array<string> = []
  for (const [name, value] of fields) {
    if (AUTH_HEADERS.includes(name)) kept.push(`${name}: ${hideLocalParts(value)}`)
    else if (name === "dkim-signature") {
      const d = /(?:^|;)\s*d\s*=\s*([^;\s]+)/i.exec(value)?.[1] ?? "?"
      const s = /(?:^|;)\s*s\s*=\s*([^;\s]+)/i.exec(value)?.[1] ?? "?"
      kept.push(`dkim-signature: d=${d.toLowerCase()}; s=${s}`)
    }
  }
  return kept
}

/** The RFC 6591 Auth-Failure types, known ones only. */
const FAILURE_TYPES = ["adsp", "bodyhash", "dkim", "dmarc", "revoked", "signature", "spf"]

/** Failure types said in Authentication-Results (`dkim=fail`, `spf=softfail`, `dmarc=fail`). */
const failuresInResults = (results: ReadonlyArray<string>): ReadonlyArray<string> => {
  const found = new Set<string>()
  for (const r of results)
    for (const m of r.matchAll(/\b(dkim|spf|dmarc)\s*=\s*(fail|softfail|permerror|temperror)\b/gi))
      found.add(m[1]!.toLowerCase())
  return [...found]
}

/** The Exim plain-text report's fields ("Sender Domain: example.com"), as [lower-case name, value]. */
const plainFields = (text: string) =>
  [...text.matchAll(/^[ \t]*([A-Za-z][A-Za-z -]{2,40}):[ \t]*(.+)$/gm)].map(
    (m) => [m[1]!.trim().toLowerCase(), m[2]!.trim()] as const
  )

/** The copy of the original's headers a plain-text report quotes after its own text. */
const quotedHeaders = (text: string): string | undefined => {
  const at = text.search(/^(Received|Return-Path|From|Authentication-Results|DKIM-Signature):/im)
  return at < 0 ? undefined : text.slice(at)
}

/**
 * Why a message is not taken: `unsupported`, it is no failure report (or another kind of feedback);
 * `schema`, a failure report that lacks what one must say.
 */
export interface FailureRefusal {
  readonly kind: "unsupported" | "schema"
  readonly message: string
}

/** What was read from a report, or why it is not taken. */
export type FailureRead = Either.Either<FailureReport, FailureRefusal>

const unsupported = (message: string): FailureRead => Either.left({ kind: "unsupported", message })

/**
 * A failure report from a message's parts. `keepBodies`: keep the Subject and the original as
 * carried (REPORTS_KEEP_FAILURE_BODIES). A report without any reported domain, or an ARF part whose
 * Feedback-Type is not `auth-failure` (RFC 6591 3.1), is refused naming why.
 */
export const readFailureReport = (parts: FailureParts, keepBodies: boolean): FailureRead => {
  const arf = parts.feedback === undefined ? undefined : headerFields(parts.feedback)
  if (arf !== undefined) {
    const type = first(arf, "feedback-type")?.toLowerCase() ?? null
    if (type !== "auth-failure")
      return type === null
        ? Either.left({ kind: "schema", message: "the feedback report has no Feedback-Type (RFC 5965 3.1)" })
        : unsupported(
            `the feedback report is of type '${type.slice(0, 40)}', not auth-failure (RFC 6591 3.1): this service takes DMARC failure reports only`
          )
  }
  const plain = arf === undefined && parts.text !== undefined ? plainFields(parts.text) : []
  const originalText =
    parts.original ?? (arf === undefined && parts.text ? quotedHeaders(parts.text) : undefined)
  const original = originalText === undefined ? [] : headerFields(originalText)
  // without an ARF part, only a report that says which domain it is about in its own words
  if (arf === undefined && !plain.some(([n]) => n === "sender domain"))
    return unsupported(
      "the message is not a failure report: no message/feedback-report part (RFC 6591), and no plain-text report naming a Sender Domain"
    )
  const field = (name: string) => (arf === undefined ? null : first(arf, name))
  const plainField = (name: string) => plain.find(([n]) => n === name)?.[1] ?? null
  const fromDomain = addressDomain(first(original, "from"))
  const reported = field("reported-domain") ?? plainField("sender domain")
  const domain = (reported === null ? null : domainOrNull(reported)) ?? fromDomain
  if (domain === null)
    return Either.left({
      kind: "schema",
      message:
        "the failure report names no domain (no Reported-Domain, RFC 6591 3.2.1, and no From in the original)"
    })
  const authenticationResults =
    arf === undefined ? [] : all(arf, "authentication-results").map(hideLocalParts)
  const originalResults = all(original, "authentication-results")
  const declared = (field("auth-failure") ?? "")
    .split(/[\s,]+/)
    .map((t) => t.toLowerCase())
    .filter((t) => FAILURE_TYPES.includes(t))
  const plainFailures = [
    ...(/^no$/i.test(plainField("spf alignment") ?? "") ? ["spf"] : []),
    ...(/^no$/i.test(plainField("dkim alignment") ?? "") ? ["dkim"] : [])
  ]
  const inferred = failuresInResults([...authenticationResults, ...originalResults])
  // a DMARC failure report is about a DMARC failure, whatever else it names (RFC 7489 7.3)
  const failures = [
    ...new Set(
      declared.length > 0
        ? declared
        : plainFailures.length > 0
          ? [...plainFailures, "dmarc"]
          : inferred.length > 0
            ? inferred
            : ["dmarc"]
    )
  ].sort()
  const sourceIp =
    ipOrNull(field("source-ip")) ??
    ipOrNull(plainField("sender ip address")) ??
    all(original, "received")
      .map(receivedHop)
      .find((h) => h.ip !== null)?.ip ??
    null
  return Either.right({
    format: arf === undefined ? "plain-text" : "arf",
    domain,
    sourceIp,
    arrival: seconds(field("arrival-date") ?? field("received-date") ?? plainField("received date")),
    failures,
    identityAlignment: field("identity-alignment")?.toLowerCase().replace(/\s+/g, "") ?? null,
    deliveryResult: field("delivery-result")?.toLowerCase() ?? null,
    authenticationResults,
    dkimDomain: domainOrNull(field("dkim-domain") ?? ""),
    dkimSelector: field("dkim-selector"),
    spfDns: field("spf-dns"),
    fromDomain,
    mailFromDomain: addressDomain(field("original-mail-from")),
    userAgent: field("user-agent"),
    routing: all(original, "received").map(receivedHop),
    authHeaders: authHeadersOf(original),
    subject: keepBodies ? first(original, "subject") : null,
    original: keepBodies ? (originalText ?? null) : null
  })
}
