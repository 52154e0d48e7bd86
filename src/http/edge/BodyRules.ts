/**
 * What a JSON endpoint accepts before any decoding (DESIGN principle 10):
 * - `Content-Type: application/json` only (parameters such as charset allowed), so an HTML form or
 *   a "simple" cross-site request cannot start work in a visitor's browser; 415 otherwise.
 * - A body read with a byte cap however it is framed: over the cap the rest is drained, not the
 *   connection reset, so the client reads its 413.
 * - A nesting depth cap checked on the raw text: deeper documents are refused (400) before the
 *   parser and the schema decoder, whose error formatting recurses once per level.
 *
 * The endpoints that take reports from strangers (`POST /api/reports/dmarc`, `/api/reports/tls`,
 * `/api/reports/failure`) are the deliberate exception: they accept the report media types of
 * RFC 7489 7.2.1.1 and 7.3 and RFC 8460 5.3 instead of JSON, as bytes (gzip and zip are binary), under their own size limit
 * (`REPORTS_MAX_BYTES`); what the bytes hold is judged by inbound/.
 */
import type { HttpServerRequest } from "@effect/platform"
import { ACCEPTED_TYPES, mediaType } from "../../inbound/Decode.ts"
import { FAILURE_TYPES } from "../../inbound/FailureReportsIn.ts"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect } from "effect"

/** `application/json`, optionally with parameters (RFC 8259 §11 defines no charset, but clients send one). */
export const isJsonContentType = (value: string | undefined): boolean =>
  value !== undefined && /^\s*application\/json\s*(;.*)?$/is.test(value)

/** Whether the JSON text nests arrays and objects deeper than `limit` (strings are skipped). */
export const nestedDeeperThan = (text: string, limit: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92)
        i++ // backslash: skip the escaped character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 || c === 123) {
      if (++depth > limit) return true
    } else if (c === 93 || c === 125) depth--
  }
  return false
}

/** Whether the request carries a body at all (RFC 9112 §6.3). */
export const hasBody = (headers: Readonly<Record<string, string | undefined>>): boolean =>
  headers["transfer-encoding"] !== undefined || Number(headers["content-length"] ?? 0) > 0

/** The media types each report endpoint accepts: the ones inbound/Decode.ts judges by. */
export const REPORT_BODY_TYPES: Readonly<Record<string, ReadonlyArray<string>>> = {
  "/api/reports/dmarc": ACCEPTED_TYPES.dmarc,
  "/api/reports/tls": ACCEPTED_TYPES.tls,
  "/api/reports/failure": FAILURE_TYPES
}

export { mediaType as bareMediaType }

export type BodyRead =
  | { readonly _tag: "Body"; readonly text: string; readonly bytes: Buffer }
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "Aborted" }

/**
 * Read the body up to `maxBytes`. Beyond it, stop keeping bytes but keep the stream flowing so
 * node parses (and discards) the rest of the upload while the 413 goes out.
 */
export const readBody = (request: HttpServerRequest.HttpServerRequest, maxBytes: number) =>
  Effect.async<BodyRead>((resume) => {
    const source = NodeHttpServerRequest.toIncomingMessage(request)
    const chunks: Array<Buffer> = []
    let size = 0
    let done = false
    const finish = (result: BodyRead) => {
      if (done) return
      done = true
      resume(Effect.succeed(result))
    }
    source.on("data", (chunk: Buffer) => {
      if (done) return
      size += chunk.length
      if (size > maxBytes) {
        chunks.length = 0
        finish({ _tag: "TooLarge" })
      } else chunks.push(chunk)
    })
    source.once("end", () => {
      const bytes = Buffer.concat(chunks)
      finish({
        _tag: "Body",
        bytes,
        get text() {
          return bytes.toString("utf8")
        }
      })
    })
    source.once("error", () => finish({ _tag: "Aborted" }))
    source.once("aborted", () => finish({ _tag: "Aborted" }))
  })

/**
 * The request as the inner app sees it once its body has been read here: the same request, with the
 * text (and so `json`) served from what was read, as the stream cannot be read twice.
 */
export const withBodyText = (
  request: HttpServerRequest.HttpServerRequest,
  text: string
): HttpServerRequest.HttpServerRequest =>
  Object.create(request, {
    text: { value: Effect.succeed(text) },
    arrayBuffer: { value: Effect.sync(() => new TextEncoder().encode(text).buffer) }
  }) as HttpServerRequest.HttpServerRequest

/** The request with its body served as the bytes read here (a report's gzip or zip is binary). */
export const withBodyBytes = (
  request: HttpServerRequest.HttpServerRequest,
  bytes: Buffer
): HttpServerRequest.HttpServerRequest =>
  Object.create(request, {
    text: { value: Effect.sync(() => bytes.toString("utf8")) },
    arrayBuffer: {
      value: Effect.sync(() => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
    }
  }) as HttpServerRequest.HttpServerRequest
