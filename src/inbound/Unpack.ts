/**
 * Bounded decompression of a report (RFC 7489 7.2.1.1: gzip or zip; RFC 8460 5.3: gzip), with
 * fflate's streaming decoders. The input is fed in small slices and the output counted as it
 * comes: one slice of deflate inflates to at most ~1,032 times its size (RFC 1951's longest match
 * per bit), so a bomb is stopped within a megabyte of the limit instead of after a gigabyte. Both
 * the absolute size and the ratio to the compressed size are limited.
 */
import { Gunzip, Unzip, UnzipInflate } from "fflate"
import { refuse, type ReportLimits, type ReportRefused } from "./Refusal.ts"

const SLICE = 1024

export const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b

export const isZip = (bytes: Uint8Array) =>
  bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04

type Limits = Pick<ReportLimits, "maxUnpackedBytes" | "maxRatio" | "maxZipEntries">

/** The running count of output bytes against both limits; a refusal once either is passed. */
const budget = (compressed: number, limits: Limits) => {
  // The ratio is judged against at least 4 KiB: a tiny honest report may inflate 300 to 1.
  const allowed = Math.min(limits.maxUnpackedBytes, Math.max(compressed, 4096) * limits.maxRatio)
  let total = 0
  return {
    add: (n: number): ReportRefused | undefined => {
      total += n
      if (total <= allowed) return undefined
      return total > limits.maxUnpackedBytes
        ? refuse("bomb", `the report decompresses to more than ${limits.maxUnpackedBytes} bytes`)
        : refuse(
            "bomb",
            `the report decompresses to more than ${limits.maxRatio} times its compressed size (${compressed} bytes)`
          )
    }
  }
}

const concat = (chunks: ReadonlyArray<Uint8Array>, size: number) => {
  const out = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e))

/** A gzip body (RFC 1952) decompressed within the limits. */
export const gunzipBounded = (bytes: Uint8Array, limits: Limits): Uint8Array | ReportRefused => {
  if (!isGzip(bytes)) return refuse("malformed", "the body is not gzip data (no gzip header)")
  const count = budget(bytes.length, limits)
  const chunks: Array<Uint8Array> = []
  let size = 0
  let over: ReportRefused | undefined
  let ended = false
  let members = 1
  const gunzip = new Gunzip((chunk, final) => {
    if (over) return
    over = count.add(chunk.length)
    if (over) return
    chunks.push(chunk)
    size += chunk.length
    if (final) ended = true
  })
  gunzip.onmember = () => void members++
  try {
    for (let at = 0; at < bytes.length && !over; at += SLICE) {
      const end = Math.min(at + SLICE, bytes.length)
      gunzip.push(bytes.subarray(at, end), end === bytes.length)
    }
  } catch (e) {
    return refuse("malformed", `the gzip data is corrupt: ${message(e)}`)
  }
  if (over) return over
  // RFC 1952 2.3.1: a member ends with ISIZE, the input's length modulo 2^32; a cut-off body
  // would otherwise pass as a shorter report.
  const isize =
    bytes.length >= 18 ? new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 4, true) : -1
  if (!ended || (members === 1 && isize !== size % 2 ** 32))
    return refuse("malformed", "the gzip data is truncated or corrupt")
  return concat(chunks, size)
}

/**
 * The one report file of a zip archive, decompressed within the limits. An archive with more
 * entries than `maxZipEntries`, or with no `.xml` or `.json` entry, is refused; directories and
 * other files beside the report are skipped.
 */
export const unzipBounded = (bytes: Uint8Array, limits: Limits): Uint8Array | ReportRefused => {
  if (!isZip(bytes)) return refuse("malformed", "the body is not a zip archive (no local file header)")
  const count = budget(bytes.length, limits)
  const chunks: Array<Uint8Array> = []
  let size = 0
  let entries = 0
  let reports = 0
  let over: ReportRefused | undefined
  let ended = false
  const unzip = new Unzip((file) => {
    entries++
    if (entries > limits.maxZipEntries) {
      over ??= refuse("bomb", `the zip archive holds more than ${limits.maxZipEntries} entries`)
      return
    }
    if (!/\.(xml|json)$/i.test(file.name) || ++reports > 1) return
    file.ondata = (err, chunk, final) => {
      if (over) return
      if (err) {
        over = refuse("malformed", `the zip entry '${file.name.slice(0, 80)}' is corrupt: ${err.message}`)
        return
      }
      over = count.add(chunk.length)
      if (over) return
      chunks.push(chunk)
      size += chunk.length
      if (final) ended = true
    }
    file.start()
  })
  unzip.register(UnzipInflate)
  try {
    for (let at = 0; at < bytes.length && !over; at += SLICE) {
      const end = Math.min(at + SLICE, bytes.length)
      unzip.push(bytes.subarray(at, end), end === bytes.length)
    }
  } catch (e) {
    return refuse("malformed", `the zip archive is corrupt: ${message(e)}`)
  }
  if (over) return over
  if (reports === 0) return refuse("unsupported", "the zip archive holds no .xml or .json report")
  if (!ended) return refuse("malformed", "the zip archive is truncated")
  return concat(chunks, size)
}
