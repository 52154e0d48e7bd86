/**
 * A report's bytes as text, chunk by chunk, in the encoding the document declares: a byte order
 * mark, UTF-16 without one (XML 1.0 Appendix F), or the XML declaration's `encoding=` (XML 1.0
 * 4.3.3: ISO-8859-1 and windows-1252 reports exist). Without any of these it is UTF-8 (XML 1.0
 * 4.3.3; RFC 8259 8.1 for TLS-RPT's JSON). Bytes that are not valid in the encoding are replaced
 * with U+FFFD and said so, rather than losing the report.
 */
import type { ReportRefused } from "./Refusal.ts"
import type { Sink } from "./Unpack.ts"

/** Bytes gathered before the encoding is judged: enough for any XML declaration. */
const SNIFF = 512

/** The encoding a document's first bytes announce, and why; pure. */
export const sniffEncoding = (head: Uint8Array): { readonly label: string; readonly warning?: string } => {
  const [a, b, c, d] = head
  if (a === 0xef && b === 0xbb && c === 0xbf) return { label: "utf-8" }
  if (a === 0xff && b === 0xfe) return { label: "utf-16le" }
  if (a === 0xfe && b === 0xff) return { label: "utf-16be" }
  if (a === 0x3c && b === 0x00 && c === 0x3f && d === 0x00) return { label: "utf-16le" }
  if (a === 0x00 && b === 0x3c && c === 0x00 && d === 0x3f) return { label: "utf-16be" }
  const ascii = new TextDecoder("latin1").decode(head)
  const declared = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]{0,39})["']/.exec(ascii)?.[1]
  if (declared === undefined) return { label: "utf-8" }
  const wanted = declared.toLowerCase()
  if (wanted.startsWith("utf-16"))
    return { label: "utf-8", warning: `the report declares ${declared} but is not UTF-16: read as UTF-8` }
  try {
    return { label: new TextDecoder(wanted).encoding }
  } catch {
    return { label: "utf-8", warning: `the declared encoding '${declared}' is unknown: read as UTF-8` }
  }
}

/**
 * A sink of bytes that hands `onText` the text they make, decoding as the first bytes announce.
 * `finish` flushes and returns what was repaired.
 */
export const textStream = (onText: (text: string) => ReportRefused | undefined) => {
  let pending: Array<Uint8Array> | undefined = []
  let pendingSize = 0
  let decoder: TextDecoder | undefined
  let utf = false
  const warnings: Array<string> = []
  let replaced = 0

  const emit = (text: string) => {
    if (text === "") return undefined
    // indexOf runs natively: a loop over every character was about a fifth of reading a report
    if (utf) for (let at = text.indexOf("\uFFFD"); at >= 0; at = text.indexOf("\uFFFD", at + 1)) replaced++
    return onText(text)
  }

  const start = () => {
    const head = new Uint8Array(pendingSize)
    let at = 0
    for (const p of pending!) {
      head.set(p, at)
      at += p.length
    }
    pending = undefined
    const sniffed = sniffEncoding(head)
    if (sniffed.warning !== undefined) warnings.push(sniffed.warning)
    decoder = new TextDecoder(sniffed.label)
    utf = decoder.encoding.startsWith("utf")
    return emit(decoder.decode(head, { stream: true }))
  }

  const sink: Sink = (chunk) => {
    if (pending !== undefined) {
      pending.push(chunk)
      pendingSize += chunk.length
      return pendingSize >= SNIFF ? start() : undefined
    }
    return emit(decoder!.decode(chunk, { stream: true }))
  }

  const finish = ():
    ReportRefused | { readonly encoding: string; readonly warnings: ReadonlyArray<string> } => {
    const over = pending !== undefined ? start() : undefined
    if (over) return over
    const last = emit(decoder!.decode())
    if (last) return last
    if (replaced > 0)
      warnings.push(`${replaced} byte sequence(s) invalid in ${decoder!.encoding} replaced with U+FFFD`)
    return { encoding: decoder!.encoding, warnings }
  }
  return { sink, finish }
}
