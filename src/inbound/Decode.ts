/**
 * From what arrived (bytes and a content type, over HTTP or as a mailed message) to a parsed
 * report: the media types of RFC 7489 7.2.1.1 (XML, gzip, zip) and RFC 8460 5.3
 * (application/tlsrpt+json, application/tlsrpt+gzip), and a whole message (RFC 5322) carrying
 * either as an attachment, read with mailparser. Everything is bounded by `ReportLimits`.
 */
import { createHash } from "node:crypto"
import { Effect } from "effect"
import { simpleParser } from "mailparser"
import { dmarcXmlReader } from "./DmarcXml.ts"
import { refuse, type ReportLimits, ReportRefused } from "./Refusal.ts"
import { dmarcFold, type ParsedReport, type ReportKind } from "./Storable.ts"
import { textStream } from "./TextStream.ts"
import { parseTlsReport } from "./TlsReport.ts"
import {
  gunzipStream,
  plainStream,
  SLICE,
  type Sink,
  type Unpacker,
  unpackerFor,
  unzipStream
} from "./Unpack.ts"

export type { ParsedReport, ReportKind } from "./Storable.ts"

/** The media types each kind is accepted as over HTTP (parameters such as charset allowed). */
export const ACCEPTED_TYPES: Record<ReportKind, ReadonlyArray<string>> = {
  dmarc: [
    "application/xml",
    "text/xml",
    "application/gzip",
    "application/x-gzip",
    "application/zip",
    "message/rfc822"
  ],
  tls: ["application/tlsrpt+json", "application/tlsrpt+gzip"]
}

/** The bare media type of a Content-Type value, lower case. */
export const mediaType = (contentType: string | undefined) =>
  (contentType ?? "").split(";")[0]!.trim().toLowerCase()

/** Decompressed bytes handed to the parser between two yields to the event loop. */
const BYTES_PER_TURN = 256 * 1024

/**
 * One turn of the event loop (setImmediate runs after pending I/O): other fibers' and the HTTP
 * server's callbacks run, so /api/health answers while a large report is read. Not the Clock, so
 * a TestClock does not stop it.
 */
const yieldToEventLoop = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/**
 * The reader of a report's text, chosen by its first character: `<` is a DMARC aggregate report,
 * read as a stream; `{` a TLS report, whose JSON (small: policies, not messages) is parsed whole.
 */
const reportReader = (limits: ReportLimits) => {
  const fold = dmarcFold()
  const dmarc = dmarcXmlReader(limits, (record) => fold.add(record))
  const json: Array<string> = []
  let kind: "dmarc" | "tls" | undefined
  const onText = (text: string): ReportRefused | undefined => {
    if (kind === undefined) {
      const first = text.trimStart()[0]
      if (first === undefined) return undefined
      if (first === "<") kind = "dmarc"
      else if (first === "{") kind = "tls"
      else return refuse("malformed", "the report is neither XML (DMARC) nor JSON (TLS-RPT)")
    }
    if (kind === "dmarc") return dmarc.write(text)
    json.push(text)
    return undefined
  }
  const end = (warnings: ReadonlyArray<string>, contentHash: string): ParsedReport | ReportRefused => {
    if (kind === undefined) return refuse("malformed", "the report is empty")
    if (kind === "tls") {
      const report = parseTlsReport(json.join(""), limits)
      return report instanceof ReportRefused ? report : { kind, report, warnings, contentHash }
    }
    const read = dmarc.end()
    if (read instanceof ReportRefused) return read
    return { kind, report: read.head, fold, warnings: [...warnings, ...read.warnings], contentHash }
  }
  return { onText, end }
}

/**
 * Bytes through an unpacker, the text decoder and the report reader, a slice at a time, yielding
 * to other fibers between turns so the service answers while a large report is read.
 */
const readStream = (
  bytes: Uint8Array,
  limits: ReportLimits,
  unpacker: (sink: Sink) => Unpacker
): Effect.Effect<ParsedReport, ReportRefused> =>
  Effect.gen(function* () {
    const reader = reportReader(limits)
    const text = textStream(reader.onText)
    const hash = createHash("sha256")
    let sinceYield = 0
    const unpack = unpacker((chunk) => {
      sinceYield += chunk.length
      hash.update(chunk)
      return text.sink(chunk)
    })
    for (let at = 0; ; at += SLICE) {
      const end = Math.min(at + SLICE, bytes.length)
      const over = unpack.push(bytes.subarray(at, end), end === bytes.length)
      if (over) return yield* Effect.fail(over)
      if (end === bytes.length) break
      if (sinceYield >= BYTES_PER_TURN) {
        sinceYield = 0
        yield* yieldToEventLoop
      }
    }
    const unpacked = unpack.finish()
    if (unpacked instanceof ReportRefused) return yield* Effect.fail(unpacked)
    const decoded = text.finish()
    if (decoded instanceof ReportRefused) return yield* Effect.fail(decoded)
    const parsed = reader.end([...unpacked.warnings, ...decoded.warnings], `sha256:${hash.digest("hex")}`)
    return parsed instanceof ReportRefused ? yield* Effect.fail(parsed) : parsed
  })

const REPORT_ATTACHMENT =
  /^(application\/(gzip|x-gzip|zip|x-zip|x-zip-compressed|xml|octet-stream|tlsrpt\+json|tlsrpt\+gzip)|text\/xml)$/

/**
 * The message's MIME structure (mailparser), its attachments decoded; refused ("malformed") when it
 * cannot be read as MIME at all. Aggregate and failure reports are read through it alike.
 */
export const readMime = (bytes: Uint8Array) =>
  Effect.tryPromise({
    try: () =>
      simpleParser(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
        skipHtmlToText: true,
        skipTextToHtml: true,
        skipImageLinks: true
      }),
    catch: (e) =>
      refuse("malformed", `the message cannot be read as MIME: ${e instanceof Error ? e.message : String(e)}`)
  })

/**
 * The report a message carries (RFC 7489 7.2.1.1: one attachment, gzip, zip or XML; RFC 8460 5.3:
 * application/tlsrpt+gzip or +json). A message without one, or with a broken one, is refused
 * naming why.
 */
export const readMessage = (
  bytes: Uint8Array,
  limits: ReportLimits
): Effect.Effect<ParsedReport, ReportRefused> =>
  readMime(bytes).pipe(
    Effect.flatMap((mail) => {
      const candidates = mail.attachments.filter(
        (a) =>
          REPORT_ATTACHMENT.test(a.contentType.toLowerCase()) ||
          /\.(xml|gz|zip|json)$/i.test(a.filename ?? "")
      )
      const attachment = candidates[0]
      if (attachment === undefined)
        return Effect.fail(
          refuse("unsupported", "the message carries no report attachment (gzip, zip, XML or TLS-RPT JSON)")
        )
      const content = new Uint8Array(attachment.content)
      return readStream(content, limits, (sink) => unpackerFor(content, limits, sink))
    })
  )

/**
 * A report posted over HTTP to the endpoint for `kind`, with its Content-Type. The bytes must be
 * what the type says (gzip is gzip), and the report the kind the endpoint takes.
 */
export const readPosted = (
  kind: ReportKind,
  contentType: string | undefined,
  bytes: Uint8Array,
  limits: ReportLimits
): Effect.Effect<ParsedReport, ReportRefused> => {
  const type = mediaType(contentType)
  if (!ACCEPTED_TYPES[kind].includes(type))
    return Effect.fail(
      refuse(
        "unsupported",
        `Content-Type must be one of ${ACCEPTED_TYPES[kind].join(", ")}; got '${type.slice(0, 60) || "none"}'`
      )
    )
  if (bytes.length > limits.maxBytes)
    return Effect.fail(refuse("too-large", `the report is larger than ${limits.maxBytes} bytes`))
  const parsed: Effect.Effect<ParsedReport, ReportRefused> =
    type === "message/rfc822"
      ? readMessage(bytes, limits)
      : readStream(bytes, limits, (sink) =>
          type.endsWith("gzip")
            ? gunzipStream(bytes, limits, sink)
            : type.endsWith("zip")
              ? unzipStream(bytes, limits, sink)
              : plainStream(sink)
        )
  return Effect.filterOrFail(
    parsed,
    (p) => p.kind === kind,
    (p) =>
      refuse(
        "unsupported",
        p.kind === "tls"
          ? "this is a TLS report: post it to /api/reports/tls"
          : "this is a DMARC aggregate report: post it to /api/reports/dmarc"
      )
  )
}
