/**
 * A failure report message (RFC 6591: multipart/report; report-type=feedback-report, with a
 * message/feedback-report part and the original as message/rfc822 or text/rfc822-headers) read
 * into its parts with mailparser. mailparser flattens an inline message/rfc822 into the text it
 * shows, so the original's headers are taken from the raw part beside it (one level of the
 * report's own multipart, as RFC 6591 2 lays it out).
 */
import { Effect } from "effect"
import { type FailureParts, headerFields } from "./FailureReport.ts"
import { readMime } from "./Decode.ts"

const ORIGINAL_TYPES = /^(message\/rfc822|text\/rfc822-headers|message\/rfc822-headers)\b/i
const FEEDBACK_TYPE = /^message\/feedback-report\b/i

/** A part's body, decoded from base64 or quoted-printable when its header says so. */
const decoded = (body: string, encoding: string | null) => {
  const cte = (encoding ?? "").toLowerCase()
  if (cte === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
  if (cte === "quoted-printable")
    return body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  return body
}

/** The parts of a multipart body split on `boundary` (RFC 2046 5.1.1): each part's type and decoded body. */
export const rawParts = (raw: string, boundary: string) => {
  const delimiter = `--${boundary}`
  const parts: Array<{ readonly type: string; readonly body: string }> = []
  const chunks = raw.split(delimiter).slice(1)
  for (const chunk of chunks) {
    if (chunk.startsWith("--")) break
    const text = chunk.replace(/^[ \t]*\r?\n/, "")
    const blank = /\r?\n\r?\n/.exec(text)
    const head = blank === null ? text : text.slice(0, blank.index)
    const body = blank === null ? "" : text.slice(blank.index + blank[0].length)
    const fields = headerFields(head)
    const type = fields.find(([n]) => n === "content-type")?.[1] ?? "text/plain"
    const encoding = fields.find(([n]) => n === "content-transfer-encoding")?.[1] ?? null
    parts.push({ type, body: decoded(body.replace(/\r?\n$/, ""), encoding) })
  }
  return parts
}

/** The header block at the top of a text (a message pasted whole). */
const topFields = (raw: string) => headerFields(raw)

/** What the report message holds, and who sent it (its From's domain) and when (its Date). */
export interface FailureMessage {
  readonly parts: FailureParts
  readonly from: string | undefined
  readonly date: Date | undefined
}

/** Read a failure report message; refused ("malformed") when it cannot be read as MIME at all. */
export const readFailureMessage = (bytes: Uint8Array) =>
  readMime(bytes).pipe(
    Effect.map((mail): FailureMessage => {
      const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8")
      const attachment = (test: RegExp) =>
        mail.attachments.find((a) => test.test(a.contentType))?.content.toString("utf8")
      const contentType = mail.headers.get("content-type")
      const boundary =
        typeof contentType === "object" && contentType !== null && "params" in contentType
          ? (contentType.params as Record<string, string | undefined>)["boundary"]
          : undefined
      const raws = boundary === undefined ? [] : rawParts(raw, boundary)
      const rawPart = (test: RegExp) => raws.find((p) => test.test(p.type))?.body
      // a feedback report posted bare (its fields at the top, no MIME around it)
      const bare = topFields(raw).some(([n]) => n === "feedback-type") ? raw : undefined
      const from = mail.from?.value[0]?.address
      return {
        parts: {
          feedback: attachment(FEEDBACK_TYPE) ?? rawPart(FEEDBACK_TYPE) ?? bare,
          original: attachment(ORIGINAL_TYPES) ?? rawPart(ORIGINAL_TYPES),
          text: typeof mail.text === "string" ? mail.text : undefined
        },
        from: from === undefined || from === "" ? undefined : from,
        date: mail.date
      }
    })
  )

/**
 * Whether a message looks like a failure report rather than an aggregate or TLS report: a
 * feedback-report (RFC 6591) or the plain-text variant's words. Cheap: only the first 64 KiB.
 */
export const looksLikeFailureReport = (bytes: Uint8Array): boolean => {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 65_536)).toString(
    "latin1"
  )
  return (
    /report-type\s*=\s*"?feedback-report/i.test(head) ||
    /^content-type:\s*message\/feedback-report/im.test(head) ||
    /^feedback-type:\s*auth-failure/im.test(head) ||
    /failed the published DMARC policy|DMARC (failure|forensic) report/i.test(head)
  )
}
