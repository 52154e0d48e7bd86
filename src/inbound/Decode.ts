/**
 * From what arrived (bytes and a content type, over HTTP or as a mailed message) to a parsed
 * report: the media types of RFC 7489 7.2.1.1 (XML, gzip, zip) and RFC 8460 5.3
 * (application/tlsrpt+json, application/tlsrpt+gzip), and a whole message (RFC 5322) carrying
 * either as an attachment, read with mailparser. Everything is bounded by `ReportLimits`.
 */
import { Effect } from "effect"
import { simpleParser } from "mailparser"
import type { DmarcAggregateReport } from "./DmarcReport.ts"
import { parseDmarcXml } from "./DmarcXml.ts"
import { refuse, type ReportLimits, ReportRefused } from "./Refusal.ts"
import { parseTlsReport, type TlsReport } from "./TlsReport.ts"
import { gunzipBounded, isGzip, isZip, unzipBounded } from "./Unpack.ts"

export type ParsedReport =
  | { readonly kind: "dmarc"; readonly report: DmarcAggregateReport }
  | { readonly kind: "tls"; readonly report: TlsReport }

export type ReportKind = ParsedReport["kind"]

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

const text = (bytes: Uint8Array) => new TextDecoder("utf-8").decode(bytes)

/** Unpacked report bytes as the report they hold, told apart by their first character. */
const readUnpacked = (bytes: Uint8Array, limits: ReportLimits): ParsedReport | ReportRefused => {
  const body = text(bytes).replace(/^\uFEFF/, "")
  const first = body.trimStart()[0]
  if (first === "<") {
    const report = parseDmarcXml(body, limits)
    return report instanceof ReportRefused ? report : { kind: "dmarc", report }
  }
  if (first === "{") {
    const report = parseTlsReport(body, limits)
    return report instanceof ReportRefused ? report : { kind: "tls", report }
  }
  return refuse("malformed", "the report is neither XML (DMARC) nor JSON (TLS-RPT)")
}

/** Bytes that may be gzip, zip or plain, judged by their magic numbers (a mailed attachment's type is often a guess). */
const readAny = (bytes: Uint8Array, limits: ReportLimits): ParsedReport | ReportRefused => {
  const unpacked = isGzip(bytes)
    ? gunzipBounded(bytes, limits)
    : isZip(bytes)
      ? unzipBounded(bytes, limits)
      : bytes
  return unpacked instanceof ReportRefused ? unpacked : readUnpacked(unpacked, limits)
}

const REPORT_ATTACHMENT =
  /^(application\/(gzip|x-gzip|zip|x-zip|x-zip-compressed|xml|octet-stream|tlsrpt\+json|tlsrpt\+gzip)|text\/xml)$/

/**
 * The report a message carries (RFC 7489 7.2.1.1: one attachment, gzip, zip or XML; RFC 8460 5.3:
 * application/tlsrpt+gzip or +json). A message without one, or with a broken one, is refused
 * naming why.
 */
export const readMessage = (
  bytes: Uint8Array,
  limits: ReportLimits
): Effect.Effect<ParsedReport, ReportRefused> =>
  Effect.tryPromise({
    try: () =>
      simpleParser(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
        skipHtmlToText: true,
        skipTextToHtml: true,
        skipImageLinks: true
      }),
    catch: (e) =>
      refuse("malformed", `the message cannot be read as MIME: ${e instanceof Error ? e.message : String(e)}`)
  }).pipe(
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
      const parsed = readAny(new Uint8Array(attachment.content), limits)
      return parsed instanceof ReportRefused ? Effect.fail(parsed) : Effect.succeed(parsed)
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
      : Effect.suspend(() => {
          const unpacked = type.endsWith("gzip")
            ? gunzipBounded(bytes, limits)
            : type.endsWith("zip")
              ? unzipBounded(bytes, limits)
              : bytes
          const read = unpacked instanceof ReportRefused ? unpacked : readUnpacked(unpacked, limits)
          return read instanceof ReportRefused ? Effect.fail(read) : Effect.succeed(read)
        })
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
