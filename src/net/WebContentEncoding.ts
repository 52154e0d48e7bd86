/**
 * Content-Encoding (RFC 9110 §8.4.1) undone within the body cap. Pure and apart from the socket code
 * so the decompression-bomb limits are read, and tested, in one place.
 */
import * as zlib from "node:zlib"

/**
 * Undo Content-Encoding within the cap. With `lenient` (a truncated body or truncation allowed),
 * a partial stream decodes as far as it goes and an oversized result is cut instead of failing.
 */
export const decodeContentEncoding = (
  body: Buffer,
  encoding: string,
  maxBytes: number,
  lenient: boolean
): { readonly body: Uint8Array; readonly truncated: boolean } | "too-large" | "bad" => {
  const enc = encoding.trim().toLowerCase()
  if (enc === "" || enc === "identity") return { body: new Uint8Array(body), truncated: false }
  const flush = lenient
    ? enc === "br"
      ? { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }
      : { finishFlush: zlib.constants.Z_SYNC_FLUSH }
    : {}
  const run = (limit: number) => {
    const opts = { maxOutputLength: limit, ...flush }
    if (enc === "gzip" || enc === "x-gzip") return zlib.gunzipSync(body, opts)
    if (enc === "deflate") return zlib.inflateSync(body, opts)
    if (enc === "br") return zlib.brotliDecompressSync(body, opts)
    return undefined
  }
  try {
    const out = run(maxBytes)
    return out === undefined ? "bad" : { body: new Uint8Array(out), truncated: false }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ERR_BUFFER_TOO_LARGE") return "bad"
    if (!lenient) return "too-large"
    try {
      const out = run(maxBytes * 4)
      return out === undefined ? "bad" : { body: new Uint8Array(out.subarray(0, maxBytes)), truncated: true }
    } catch {
      return "too-large"
    }
  }
}
