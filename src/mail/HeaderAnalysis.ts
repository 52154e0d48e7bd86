/**
 * What is wrong with a message's headers and authentication, as findings (pure): each finding is
 * an issue (breaks a standard or a mailbox provider's requirement) or a warning (legal but risky),
 * and most carry the fix, which becomes a suggestion with a priority.
 *
 * Sources: RFC 5322 3.6 (field counts, Date, Message-ID), RFC 2045/2046 (MIME), RFC 7489
 * (alignment), RFC 8058 (one-click unsubscribe) and the bulk-sender rules of Gmail and Yahoo
 * (February 2024: SPF and DKIM, DMARC with alignment, one-click unsubscribe for 5000+/day).
 */
import { organisationalDomainOf } from "../records/DmarcRecord.ts"
import {
  authorDomain,
  domainOf,
  first,
  mailboxes,
  type Message,
  mimeParameters,
  parseDateTime,
  returnPath,
  trustedHop,
  values
} from "./Message.ts"
import type { AuthVerdicts } from "./Verdicts.ts"

export type Priority = "high" | "medium" | "low"

export interface Finding {
  readonly level: "issue" | "warning"
  readonly text: string
  readonly fix?: string
  readonly priority: Priority
}

const issue = (text: string, fix: string | undefined, priority: Priority = "high"): Finding =>
  fix === undefined ? { level: "issue", text, priority } : { level: "issue", text, fix, priority }
const warning = (text: string, fix: string | undefined, priority: Priority = "medium"): Finding =>
  fix === undefined ? { level: "warning", text, priority } : { level: "warning", text, fix, priority }

/** RFC 5322 3.6: fields that must appear exactly once, and those that may appear at most once. */
const EXACTLY_ONCE = ["Date", "From"]
const AT_MOST_ONCE = [
  "Sender",
  "Reply-To",
  "To",
  "Cc",
  "Bcc",
  "Message-ID",
  "In-Reply-To",
  "References",
  "Subject"
]
const TRANSFER_ENCODINGS = ["7bit", "8bit", "binary", "quoted-printable", "base64"]

const relaxedAligned = (a: string, b: string) => organisationalDomainOf(a) === organisationalDomainOf(b)

const structure = (m: Message): Array<Finding> => {
  const out: Array<Finding> = []
  for (const name of EXACTLY_ONCE) {
    const n = values(m, name).length
    if (n === 0)
      out.push(
        issue(
          `No ${name} header (RFC 5322 3.6 requires exactly one)`,
          `Have the sending application add a ${name} header.`
        )
      )
    else if (n > 1)
      out.push(
        issue(`${n} ${name} headers (RFC 5322 3.6 allows exactly one)`, `Send a single ${name} header.`)
      )
  }
  for (const name of AT_MOST_ONCE) {
    const n = values(m, name).length
    if (n > 1)
      out.push(
        issue(
          `${n} ${name} headers (RFC 5322 3.6 allows at most one)`,
          `Send at most one ${name} header.`,
          "medium"
        )
      )
  }
  if (m.malformed.length > 0)
    out.push(
      issue(
        `${m.malformed.length} header line(s) are not "Name: value" (first: ${JSON.stringify(m.malformed[0])})`,
        "Fix the code that writes the headers; receivers may drop or misread the rest of the header section.",
        "medium"
      )
    )
  const long = m.fields.filter((f) => f.longestLine > 998)
  if (long.length > 0)
    out.push(
      issue(
        `Header line longer than 998 characters in ${long[0]!.name} (RFC 5322 2.1.1)`,
        "Fold long header values over several lines.",
        "medium"
      )
    )
  if (m.fields.some((f) => /[^\x00-\x7f]/.test(f.value)))
    out.push(
      warning(
        "Raw non-ASCII characters in the headers: only valid with SMTPUTF8 (RFC 6532); other servers may reject or mangle them",
        "Encode non-ASCII header text as RFC 2047 encoded words.",
        "low"
      )
    )
  return out
}

const identity = (m: Message): Array<Finding> => {
  const out: Array<Finding> = []
  const id = first(m, "Message-ID")
  if (id === undefined)
    out.push(
      issue(
        "No Message-ID header: Gmail rejects such messages (RFC 5322 3.6.4 says SHOULD)",
        "Generate a Message-ID such as <unique-id@your-domain> when the message is created.",
        "high"
      )
    )
  else if (!/^\s*<[^<>@\s]+@[^<>@\s]+>\s*$/.test(id))
    out.push(
      issue(
        `Message-ID ${JSON.stringify(id.slice(0, 100))} is not of the form <id@domain> (RFC 5322 3.6.4)`,
        "Generate Message-IDs as <unique-id@your-domain>.",
        "medium"
      )
    )
  const date = first(m, "Date")
  if (date !== undefined) {
    const at = parseDateTime(date)
    const received = trustedHop(m)?.at
    if (at === undefined)
      out.push(
        issue(
          `Date ${JSON.stringify(date.slice(0, 100))} is not an RFC 5322 date-time`,
          'Write dates as "Mon, 23 Nov 2026 20:00:00 +0000".',
          "medium"
        )
      )
    else if (received !== undefined && Math.abs(at - received) > 3 * 3_600_000)
      out.push(
        warning(
          `Date is ${Math.round((at - received) / 3_600_000)} h from the time the receiving server stamped`,
          "Synchronise the sending host's clock (NTP) and write its time zone offset correctly.",
          "medium"
        )
      )
  }
  if (first(m, "Subject") === undefined)
    out.push(warning("No Subject header", "Give every message a subject.", "low"))
  if (first(m, "To") === undefined && first(m, "Cc") === undefined)
    out.push(
      warning("No To or Cc header", "Address the recipients in To (Bcc-only mail scores as spam).", "low")
    )
  return out
}

const alignment = (m: Message, auth: AuthVerdicts): Array<Finding> => {
  const out: Array<Finding> = []
  const author = authorDomain(m)
  const from = first(m, "From")
  if (from !== undefined && mailboxes(from).length !== 1)
    out.push(
      issue(
        "From does not hold exactly one address: DMARC cannot evaluate it (RFC 7489 6.6.1)",
        "Put exactly one address in From.",
        "high"
      )
    )
  const envelope = returnPath(m)
  const envelopeDomain = envelope === undefined || envelope === "" ? undefined : domainOf(envelope)
  if (author !== undefined && envelopeDomain !== undefined && !relaxedAligned(author, envelopeDomain))
    out.push(
      warning(
        `Return-Path domain ${envelopeDomain} differs from the From domain ${author}: SPF cannot align for DMARC`,
        `Use a bounce address under ${organisationalDomainOf(author)} (a custom MAIL FROM / return-path domain at your provider).`,
        "medium"
      )
    )
  if (auth.dkim.length === 0)
    out.push(
      issue(
        "The message has no DKIM signature",
        `Sign outgoing mail with DKIM under ${author ?? "your domain"} and publish the key.`,
        "high"
      )
    )
  else if (
    author !== undefined &&
    !auth.dkim.some((s) => s.result === "pass" && relaxedAligned(s.domain, author)) &&
    // an aligned signature whose key could not be looked up may be valid: reported as a warning below
    !auth.dkim.some((s) => s.result === "temperror" && relaxedAligned(s.domain, author))
  )
    out.push(
      issue(
        `No valid DKIM signature aligned with ${author} (d= ${[...new Set(auth.dkim.map((s) => s.domain))].join(", ")})`,
        `Sign with d=${organisationalDomainOf(author)} (or a subdomain of it), not only your provider's domain.`,
        "high"
      )
    )
  for (const s of auth.dkim.filter((s) => s.result !== "pass")) {
    const text = `DKIM signature d=${s.domain} s=${s.selector}: ${s.result}${s.comment ? ` (${s.comment})` : ""}`
    if (s.result === "temperror")
      // the key could not be looked up: nothing is known about the signature
      out.push(warning(text, "The key lookup failed; try again later.", "low"))
    else
      out.push(
        issue(
          text,
          s.comment === "no key"
            ? `Publish the public key at ${s.selector}._domainkey.${s.domain}, or sign with a selector that has one.`
            : "Check that the message was not modified after signing and that the published key matches the signing key.",
          "high"
        )
      )
  }
  switch (auth.spf.result) {
    case "fail":
    case "softfail":
      out.push(
        issue(
          `SPF ${auth.spf.result}: ${auth.spf.details}`,
          `Add the sending server (${auth.spf.ip ?? "its address"}) to the SPF record of ${auth.spf.domain ?? "the envelope domain"}, or send through a server it lists.`,
          "high"
        )
      )
      break
    case "none":
      out.push(
        issue(
          `No SPF record for ${auth.spf.domain ?? "the envelope domain"}`,
          "Publish an SPF record listing your sending servers, ending in -all or ~all.",
          "high"
        )
      )
      break
    case "permerror":
      out.push(
        issue(
          `SPF permerror: ${auth.spf.details}`,
          "Fix the SPF record (syntax, more than 10 DNS lookups, or more than one record).",
          "high"
        )
      )
      break
    case "temperror":
      out.push(warning(`SPF could not be evaluated: ${auth.spf.details}`, undefined, "low"))
      break
    case "not-evaluated":
      out.push(
        warning(
          auth.spf.details,
          "Paste the message with all its Received headers, as the recipient's mailbox shows it.",
          "low"
        )
      )
      break
  }
  if (auth.dmarc.result === "none")
    out.push(
      issue(
        `No DMARC record for ${auth.dmarc.domain ?? author ?? "the From domain"}`,
        'Publish _dmarc TXT "v=DMARC1; p=none; rua=mailto:..." and move to quarantine or reject once reports are clean.',
        "high"
      )
    )
  else if (auth.dmarc.result === "fail")
    out.push(
      issue(
        `DMARC fail (policy ${auth.dmarc.policy ?? "unknown"}): neither SPF nor DKIM passed aligned with ${author ?? "the From domain"}`,
        "Make DKIM pass with d= of the From domain, or SPF pass for a Return-Path under it.",
        "high"
      )
    )
  else if (auth.dmarc.result === "temperror")
    out.push(warning(`DMARC could not be evaluated: ${auth.dmarc.details}`, undefined, "low"))
  if (auth.arc.result === "fail")
    out.push(
      warning(
        `ARC chain fails: ${auth.arc.details}`,
        "A forwarder broke the ARC chain; receivers will not trust its authentication results.",
        "low"
      )
    )
  return out
}

/** Bulk mail (a list or a campaign): RFC 8058 one-click unsubscribe, signed (Gmail/Yahoo 2024). */
const bulk = (m: Message, auth: AuthVerdicts): Array<Finding> => {
  const out: Array<Finding> = []
  const unsubscribe = first(m, "List-Unsubscribe")
  const post = first(m, "List-Unsubscribe-Post")
  const precedence = (first(m, "Precedence") ?? "").trim().toLowerCase()
  const looksBulk =
    unsubscribe !== undefined ||
    first(m, "List-Id") !== undefined ||
    precedence === "bulk" ||
    precedence === "list" ||
    first(m, "Feedback-ID") !== undefined
  if (!looksBulk) return out
  if (unsubscribe === undefined) {
    out.push(
      issue(
        "Bulk message without List-Unsubscribe: Gmail and Yahoo require one-click unsubscribe from bulk senders",
        "Add List-Unsubscribe: <https://...> and List-Unsubscribe-Post: List-Unsubscribe=One-Click (RFC 8058).",
        "high"
      )
    )
    return out
  }
  if (!/<https:\/\/[^>]+>/i.test(unsubscribe))
    out.push(
      issue(
        "List-Unsubscribe has no https URI: RFC 8058 one-click needs one (mailto alone does not satisfy Gmail)",
        "Add an https unsubscribe URI to List-Unsubscribe.",
        "high"
      )
    )
  if (post === undefined || post.replace(/\s+/g, "").toLowerCase() !== "list-unsubscribe=one-click")
    out.push(
      issue(
        "No List-Unsubscribe-Post: List-Unsubscribe=One-Click (RFC 8058 3.1)",
        "Add List-Unsubscribe-Post: List-Unsubscribe=One-Click and accept the POST at the https URI.",
        "high"
      )
    )
  const covering = auth.dkim.filter(
    (s) =>
      s.result === "pass" &&
      s.signedHeaders.includes("list-unsubscribe") &&
      (post === undefined || s.signedHeaders.includes("list-unsubscribe-post"))
  )
  if (covering.length === 0)
    out.push(
      issue(
        "No valid DKIM signature covers List-Unsubscribe and List-Unsubscribe-Post (RFC 8058 4)",
        "Include both headers in the DKIM h= list.",
        "medium"
      )
    )
  return out
}

const mime = (m: Message): Array<Finding> => {
  const out: Array<Finding> = []
  const type = first(m, "Content-Type")
  if (type !== undefined && first(m, "MIME-Version") === undefined)
    out.push(warning("Content-Type without MIME-Version: 1.0 (RFC 2045 4)", "Add MIME-Version: 1.0.", "low"))
  const encoding = first(m, "Content-Transfer-Encoding")?.trim().toLowerCase()
  if (encoding !== undefined && !TRANSFER_ENCODINGS.includes(encoding) && !encoding.startsWith("x-"))
    out.push(
      issue(
        `Unknown Content-Transfer-Encoding ${JSON.stringify(encoding.slice(0, 40))} (RFC 2045 6.1)`,
        "Use 7bit, quoted-printable or base64.",
        "medium"
      )
    )
  if (type !== undefined && /^\s*multipart\//i.test(type)) {
    const boundary = mimeParameters(type).boundary
    if (boundary === undefined || boundary === "")
      out.push(
        issue(
          "multipart Content-Type without a boundary parameter (RFC 2046 5.1.1)",
          "Fix the MIME encoder: every multipart type needs a boundary.",
          "high"
        )
      )
    else if (!m.body.includes(`--${boundary}`))
      out.push(
        issue(
          "The multipart boundary never appears in the body (RFC 2046 5.1.1): the message is malformed or truncated",
          "Paste the complete message source; otherwise fix the MIME encoder.",
          "high"
        )
      )
    else if (!m.body.includes(`--${boundary}--`))
      out.push(
        warning(
          "The multipart body has no closing boundary (RFC 2046 5.1.1): truncated?",
          "Make sure the message ends with the closing --boundary-- line.",
          "low"
        )
      )
  }
  if (!m.hasSeparator && m.body === "" && m.fields.length > 0)
    out.push(warning("No blank line after the headers: the message has no body", undefined, "low"))
  return out
}

/** Every finding, issues first, in the order above. */
export const analyseHeaders = (m: Message, auth: AuthVerdicts): ReadonlyArray<Finding> => {
  const all = [...structure(m), ...identity(m), ...alignment(m, auth), ...bulk(m, auth), ...mime(m)]
  return [...all.filter((f) => f.level === "issue"), ...all.filter((f) => f.level === "warning")]
}
