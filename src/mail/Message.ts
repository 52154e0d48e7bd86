/**
 * A raw message's header section as data (pure): the fields in order, unfolded (RFC 5322 2.2.3),
 * and the readings the header analysis and the spam rules share: mailboxes, dates, the Received
 * hop SPF is evaluated for, DKIM-Signature tags and the MIME structure. Total: every input, however
 * broken, gives a `Message`; what is broken is recorded in `malformed`, never thrown.
 */

export interface Field {
  /** The name as written (case kept); compare with `lower`. */
  readonly name: string
  readonly lower: string
  /** Unfolded value, without the leading space after the colon. */
  readonly value: string
  /** The longest physical line of the field, in characters (RFC 5322 2.1.1: at most 998). */
  readonly longestLine: number
}

export interface Message {
  readonly fields: ReadonlyArray<Field>
  readonly body: string
  /** Whether a blank line separated the header section from a body (RFC 5322 2.1). */
  readonly hasSeparator: boolean
  /** Header lines that are neither `name: value` nor a continuation (RFC 5322 2.2, 3.6.8). */
  readonly malformed: ReadonlyArray<string>
}

/** RFC 5322 3.6.8: a field name is printable US-ASCII except the colon. */
const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+$/

/** Split and unfold the header section. A first line starting with "From " (mbox) is skipped. */
export const parseMessage = (raw: string): Message => {
  const match = /\r?\n\r?\n/.exec(raw)
  const head = match ? raw.slice(0, match.index) : raw
  const body = match ? raw.slice(match.index + match[0].length) : ""
  const lines = head.split(/\r?\n/)
  if (lines[0]?.startsWith("From ")) lines.shift()
  const fields: Array<Field> = []
  const malformed: Array<string> = []
  let current: { name: string; parts: Array<string>; longest: number } | undefined
  const flush = () => {
    if (!current) return
    const value = current.parts.join("").replace(/^[ \t]+/, "")
    fields.push({
      name: current.name,
      lower: current.name.toLowerCase(),
      value: value.replace(/[ \t]+$/, ""),
      longestLine: current.longest
    })
    current = undefined
  }
  for (const line of lines) {
    if (line === "") continue
    if ((line.startsWith(" ") || line.startsWith("\t")) && current) {
      // unfolding removes the CRLF only; the whitespace stays (RFC 5322 2.2.3)
      current.parts.push(line)
      current.longest = Math.max(current.longest, line.length)
      continue
    }
    const colon = line.indexOf(":")
    const name = colon > 0 ? line.slice(0, colon).replace(/[ \t]+$/, "") : ""
    if (colon <= 0 || !FIELD_NAME.test(name)) {
      flush()
      malformed.push(line.length > 80 ? `${line.slice(0, 80)}…` : line)
      continue
    }
    flush()
    current = { name, parts: [line.slice(colon + 1)], longest: line.length }
  }
  flush()
  return { fields, body, hasSeparator: match !== null, malformed }
}

/** Every value of a field, in order (topmost first). */
export const values = (message: Message, name: string): ReadonlyArray<string> => {
  const lower = name.toLowerCase()
  return message.fields.filter((f) => f.lower === lower).map((f) => f.value)
}

export const first = (message: Message, name: string): string | undefined => values(message, name)[0]

/** Comments and quoted strings removed (RFC 5322 3.2.2, 3.2.4), so what remains holds the addresses. */
const withoutCommentsAndQuotes = (value: string): string => {
  let out = ""
  let depth = 0
  let quoted = false
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!
    if (c === "\\") {
      i++
      continue
    }
    if (quoted) {
      if (c === '"') quoted = false
      continue
    }
    if (c === '"' && depth === 0) quoted = true
    else if (c === "(") depth++
    else if (c === ")" && depth > 0) depth--
    else if (depth === 0) out += c
  }
  return out
}

/** The addr-specs of an address list (From, Reply-To, To), lowercased. */
export const mailboxes = (value: string): ReadonlyArray<string> =>
  [...withoutCommentsAndQuotes(value).matchAll(/[^\s<>,;:@]+@[^\s<>,;:@]+/g)].map((m) =>
    m[0].toLowerCase().replace(/\.$/, "")
  )

/** The domain of an address (after the last @), lowercased; undefined when there is none. */
export const domainOf = (address: string): string | undefined => {
  const at = address.lastIndexOf("@")
  const domain =
    at >= 0
      ? address
          .slice(at + 1)
          .replace(/[>\s]+$/, "")
          .toLowerCase()
      : ""
  return domain === "" ? undefined : domain
}

/** The From address's domain (the one DMARC protects), when From holds exactly one mailbox. */
export const authorDomain = (m: Message): string | undefined => {
  const from = first(m, "From")
  const boxes = from === undefined ? [] : mailboxes(from)
  return boxes.length === 1 ? domainOf(boxes[0]!) : undefined
}

/** The Return-Path address: "" for the null reverse-path `<>` (bounces), undefined when absent. */
export const returnPath = (message: Message): string | undefined => {
  const value = first(message, "Return-Path")
  if (value === undefined) return undefined
  const inner = /<([^>]*)>/.exec(value)?.[1] ?? value
  return inner.trim().toLowerCase()
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
/** Obsolete zone names (RFC 5322 4.3), in minutes east of UTC; military letters count as -0000. */
const ZONES: Record<string, number> = {
  ut: 0,
  gmt: 0,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420
}
const DATE_TIME =
  /^\s*(?:(mon|tue|wed|thu|fri|sat|sun)\s*,\s*)?(\d{1,2})\s+([a-z]{3})\s+(\d{2,4})\s+(\d{1,2})\s*:\s*(\d{2})(?:\s*:\s*(\d{2}))?\s+([+-]\d{4}|[a-z]{1,3})\s*(?:\([^)]*\)\s*)?$/i

/**
 * An RFC 5322 3.3 date-time (with the obsolete forms of 4.3) as epoch milliseconds; undefined
 * when it is not one or names an impossible moment (31 Feb, 25:00).
 */
export const parseDateTime = (value: string): number | undefined => {
  const m = DATE_TIME.exec(value)
  if (!m) return undefined
  const day = Number(m[2])
  const month = MONTHS.indexOf(m[3]!.toLowerCase())
  let year = Number(m[4])
  if (m[4]!.length === 2)
    year += year < 50 ? 2000 : 1900 // RFC 5322 4.3
  else if (m[4]!.length === 3) year += 1900
  const hour = Number(m[5])
  const minute = Number(m[6])
  const second = m[7] === undefined ? 0 : Number(m[7])
  const zone = m[8]!.toLowerCase()
  const offset = /^[+-]\d{4}$/.test(zone)
    ? (zone.startsWith("-") ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5)))
    : ZONES[zone]
  if (month < 0 || offset === undefined || hour > 23 || minute > 59 || second > 60) return undefined
  if (/^[+-]\d{4}$/.test(zone) && Number(zone.slice(3, 5)) > 59) return undefined
  const utc = Date.UTC(year, month, day, hour, minute, Math.min(second, 59))
  if (new Date(utc).getUTCDate() !== day) return undefined
  return utc - offset * 60_000
}

/** A Received field as SPF needs it: the peer the receiving server talked to (RFC 5321 4.4). */
export interface Hop {
  readonly ip: string | undefined
  readonly helo: string | undefined
  /** The peer's reverse-DNS name as the receiver recorded it; null: it recorded none; undefined: not said. */
  readonly rdns: string | null | undefined
  readonly envelopeFrom: string | undefined
  /** The time stamp after the last ";" (RFC 5321 4.4), epoch ms. */
  readonly at: number | undefined
  readonly by: string | undefined
}

/**
 * The from clause as the common MTAs write it (RFC 5321 4.4 leaves the comment free-form):
 * - Postfix, Sendmail, Microsoft: `from HELO (RDNS [IP])`, `(unknown [IP])` or `([IP])` without rDNS;
 * - Exim: `from RDNS ([IP] helo=HELO)`, or `from [IP] (helo=HELO)` without rDNS.
 */
export const parseReceived = (value: string): Hop => {
  const fromClause = /^\s*from\s+([^\s()]+)\s*(\(((?:[^()]|\([^()]*\))*)\))?/i.exec(value)
  const literal = /\[(?:ipv6:)?([0-9a-f:.]+)\]/i
  const token = fromClause?.[1]
  const comment = fromClause?.[3]
  const tokenLiteral = token === undefined ? undefined : literal.exec(token)?.[1]
  const ip = (comment === undefined ? undefined : literal.exec(comment)?.[1]) ?? tokenLiteral
  const exim = comment === undefined ? undefined : /\bhelo=([^\s()\]]+)/i.exec(comment)?.[1]
  const named = comment === undefined ? undefined : /^\s*([^\s[\]]+)?\s*\[/.exec(comment)
  const rdns =
    exim !== undefined
      ? tokenLiteral !== undefined
        ? null
        : (token ?? null)
      : named === null || named === undefined
        ? undefined
        : named[1] === undefined || named[1].toLowerCase() === "unknown"
          ? null
          : named[1]
  const envelope = /envelope-from\s*[=:]?\s*<?([^\s<>;]*)>?/i.exec(value)?.[1]
  const semicolon = value.lastIndexOf(";")
  return {
    ip,
    helo: exim ?? token,
    rdns: typeof rdns === "string" ? rdns.toLowerCase().replace(/\.$/, "") : rdns,
    envelopeFrom: envelope === undefined ? undefined : envelope.toLowerCase(),
    at: semicolon >= 0 ? parseDateTime(value.slice(semicolon + 1)) : undefined,
    by: /\bby\s+([^\s();]+)/i.exec(value)?.[1]?.toLowerCase()
  }
}

/**
 * The hop SPF is evaluated for: the newest Received field that records a connecting peer (a
 * `from` clause). It was written by the receiving side, the one party the reader trusts: every
 * older Received field may have been written by the sender itself. Internal hand-offs without a
 * `from` clause ("Received: by ... with SMTP id") are skipped.
 */
export const trustedHop = (message: Message): Hop | undefined => {
  const received = values(message, "Received").find((v) => /^\s*from\s/i.test(v))
  return received === undefined ? undefined : parseReceived(received)
}

/** The tags of a DKIM-Signature field (RFC 6376 3.5), names lowercased, values without whitespace. */
export const dkimTags = (value: string): Readonly<Record<string, string>> => {
  const tags: Record<string, string> = {}
  for (const part of value.split(";")) {
    const eq = part.indexOf("=")
    if (eq <= 0) continue
    tags[part.slice(0, eq).trim().toLowerCase()] = part.slice(eq + 1).replace(/\s+/g, "")
  }
  return tags
}

/** The `name=value` parameters of a MIME header such as Content-Type (RFC 2045 5.1), names lowercased. */
export const mimeParameters = (value: string): Readonly<Record<string, string>> => {
  const params: Record<string, string> = {}
  for (const m of value.matchAll(/;\s*([^\s=;]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^;\s]+)/g))
    params[m[1]!.toLowerCase()] = m[3] ?? m[2]!
  return params
}
