/**
 * Bounded decompression of a report (RFC 7489 7.2.1.1: gzip or zip; RFC 8460 5.3: gzip), with
 * fflate's streaming decoders. The input is fed in small slices and the output handed on (to the
 * parser) and counted as it comes: one slice of deflate inflates to at most ~1,032 times its size
 * (RFC 1951's longest match per bit), so a bomb is stopped within a megabyte of the limit instead
 * of after a gigabyte, and a large honest report is never held whole. Both the absolute size and
 * the ratio to the compressed size are limited.
 */
import { Gunzip, Unzip, UnzipInflate } from "fflate"
import { refuse, type ReportLimits, type ReportRefused } from "./Refusal.ts"

/** Compressed bytes fed to the decoder at once. */
export const SLICE = 1024

export const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b

export const isZip = (bytes: Uint8Array) =>
  bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04

type Limits = Pick<ReportLimits, "maxUnpackedBytes" | "maxRatio" | "maxZipEntries">

/** Takes each decompressed chunk; a refusal stops the decompression. */
export type Sink = (chunk: Uint8Array) => ReportRefused | undefined

/**
 * A decoder fed slice by slice: `push` each slice of the input in order (the last with `final`),
 * then `finish` says whether the data was whole, with what was repaired.
 */
export interface Unpacker {
  readonly push: (slice: Uint8Array, final: boolean) => ReportRefused | undefined
  readonly finish: () => ReportRefused | { readonly warnings: ReadonlyArray<string> }
}

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

const message = (e: unknown) => (e instanceof Error ? e.message : String(e))

/** Bytes a sender may append after the last gzip member (Mimecast adds CRLF): whitespace and NUL. */
const isPadding = (b: number) => b === 0x0d || b === 0x0a || b === 0x20 || b === 0x09 || b === 0x00

/** The most trailing padding bytes forgiven after a gzip stream. */
const MAX_PADDING = 64

/**
 * RFC 1952 2.3.1: a member ends with ISIZE, the input's length modulo 2^32; a cut-off body would
 * otherwise pass as a shorter report. Returns how many padding bytes follow the ISIZE, or -1.
 */
const paddingAfterIsize = (bytes: Uint8Array, size: number) => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let pad = 0; pad <= MAX_PADDING && bytes.length - pad >= 18; pad++) {
    if (pad > 0 && !isPadding(bytes[bytes.length - pad]!)) return -1
    if (view.getUint32(bytes.length - pad - 4, true) === size % 2 ** 32) return pad
  }
  return -1
}

/** A gzip body (RFC 1952) decompressed within the limits into `sink`. */
export const gunzipStream = (bytes: Uint8Array, limits: Limits, sink: Sink): Unpacker => {
  const count = budget(bytes.length, limits)
  let size = 0
  let over: ReportRefused | undefined = isGzip(bytes)
    ? undefined
    : refuse("malformed", "the body is not gzip data (no gzip header)")
  let ended = false
  let members = 1
  const gunzip = new Gunzip((chunk, final) => {
    if (over) return
    over = count.add(chunk.length) ?? sink(chunk)
    size += chunk.length
    if (final) ended = true
  })
  gunzip.onmember = () => void members++
  return {
    push: (slice, final) => {
      if (over) return over
      try {
        gunzip.push(slice, final)
      } catch (e) {
        over = refuse("malformed", `the gzip data is corrupt: ${message(e)}`)
      }
      return over
    },
    finish: () => {
      if (over) return over
      const pad = members === 1 ? paddingAfterIsize(bytes, size) : 0
      if (!ended || pad < 0) return refuse("malformed", "the gzip data is truncated or corrupt")
      return { warnings: pad > 0 ? [`${pad} byte(s) after the gzip stream ignored`] : [] }
    }
  }
}

/**
 * The one report file of a zip archive, decompressed within the limits into `sink`. The report is
 * the first entry that is not a directory, taken by its content whatever its name (senders name
 * entries carelessly, some not at all); an archive with more entries than `maxZipEntries` is
 * refused, and other entries beside the report are skipped.
 */
export const unzipStream = (bytes: Uint8Array, limits: Limits, sink: Sink): Unpacker => {
  const count = budget(bytes.length, limits)
  const warnings: Array<string> = []
  let entries = 0
  let reports = 0
  let over: ReportRefused | undefined = isZip(bytes)
    ? undefined
    : refuse("malformed", "the body is not a zip archive (no local file header)")
  let ended = false
  const unzip = new Unzip((file) => {
    entries++
    if (entries > limits.maxZipEntries) {
      over ??= refuse("bomb", `the zip archive holds more than ${limits.maxZipEntries} entries`)
      return
    }
    if (file.name.endsWith("/")) return
    if (++reports > 1) {
      warnings.push(`the zip entry '${file.name.slice(0, 80)}' beside the report was not read`)
      return
    }
    if (!/\.(xml|json)$/i.test(file.name))
      warnings.push(
        file.name === ""
          ? "the zip entry has no name: read by its content"
          : `the zip entry '${file.name.slice(0, 80)}' is not named .xml or .json: read by its content`
      )
    file.ondata = (err, chunk, final) => {
      if (over) return
      if (err) {
        over = refuse("malformed", `the zip entry '${file.name.slice(0, 80)}' is corrupt: ${err.message}`)
        return
      }
      over = count.add(chunk.length) ?? sink(chunk)
      if (final) ended = true
    }
    file.start()
  })
  unzip.register(UnzipInflate)
  return {
    push: (slice, final) => {
      if (over) return over
      try {
        unzip.push(slice, final)
      } catch (e) {
        over = refuse("malformed", `the zip archive is corrupt: ${message(e)}`)
      }
      return over
    },
    finish: () => {
      if (over) return over
      if (reports === 0) return refuse("unsupported", "the zip archive holds no file")
      if (!ended) return refuse("malformed", "the zip archive is truncated")
      return { warnings }
    }
  }
}

/** Uncompressed bytes, handed on as they are (sliced like the others, so the parser is fed alike). */
export const plainStream = (sink: Sink): Unpacker => {
  let over: ReportRefused | undefined
  return {
    push: (slice) => (over ??= sink(slice)),
    finish: () => over ?? { warnings: [] }
  }
}

/** The unpacker that fits `bytes`, by their magic numbers (a mailed attachment's type is often a guess). */
export const unpackerFor = (bytes: Uint8Array, limits: Limits, sink: Sink): Unpacker =>
  isGzip(bytes)
    ? gunzipStream(bytes, limits, sink)
    : isZip(bytes)
      ? unzipStream(bytes, limits, sink)
      : plainStream(sink)

/** Run an unpacker over all of `bytes` at once (small reports, tests). */
export const unpackAll = (unpacker: Unpacker, bytes: Uint8Array) => {
  for (let at = 0; at < bytes.length || at === 0; at += SLICE) {
    const end = Math.min(at + SLICE, bytes.length)
    const over = unpacker.push(bytes.subarray(at, end), end === bytes.length)
    if (over) return over
    if (end === bytes.length) break
  }
  return unpacker.finish()
}

const collect = (bytes: Uint8Array, make: (sink: Sink) => Unpacker): Uint8Array | ReportRefused => {
  const chunks: Array<Uint8Array> = []
  let size = 0
  const done = unpackAll(
    make((chunk) => {
      chunks.push(chunk)
      size += chunk.length
      return undefined
    }),
    bytes
  )
  if (!("warnings" in done)) return done
  return Buffer.concat(chunks, size)
}

/** A whole gzip body decompressed within the limits. */
export const gunzipBounded = (bytes: Uint8Array, limits: Limits): Uint8Array | ReportRefused =>
  collect(bytes, (sink) => gunzipStream(bytes, limits, sink))

/** A zip archive's report decompressed within the limits. */
export const unzipBounded = (bytes: Uint8Array, limits: Limits): Uint8Array | ReportRefused =>
  collect(bytes, (sink) => unzipStream(bytes, limits, sink))
