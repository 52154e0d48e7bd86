/**
 * Two lists of DMARC source groups, each in SQLite's order of the grouped columns (BINARY: the
 * bytes of UTF-8, integers as numbers), merged into one in that order, the messages of a group in
 * both added. The summary reads its groups from the rollup and from raw rows; merged so, it gets
 * them exactly as one GROUP BY over the records would give them. Pure.
 */

/** A domain's DMARC records of a period summed by the columns the summary groups on. */
export interface SourceGroup {
  readonly source_ip: string
  readonly disposition: string
  readonly dkim: string
  readonly spf: string
  readonly overrides: string
  readonly arc: number
  readonly dkim_auth: string
  readonly spf_auth: string
  readonly messages: number
  /** Read by the analyst's fields (DmarcAnalyst.ts); absent in groups made without them. */
  readonly header_from?: string
  readonly envelope_from?: string
  readonly reasons?: string
}

/** The grouped columns, in their order (`GROUP_COLUMNS`). */
const COLUMNS = [
  "source_ip",
  "disposition",
  "dkim",
  "spf",
  "overrides",
  "arc",
  "dkim_auth",
  "spf_auth",
  "header_from",
  "envelope_from",
  "reasons"
] as const satisfies ReadonlyArray<keyof SourceGroup>

/**
 * UTF-16 code units ordered as code points (so as UTF-8 bytes): a surrogate (a code point above
 * U+FFFF) comes after U+E000-U+FFFF, which UTF-16 order puts after it.
 */
const unit = (c: number) => (c >= 0xd800 && c <= 0xdfff ? c + 0x2000 : c >= 0xe000 ? c - 0x800 : c)

/** SQLite's BINARY order of two strings (memcmp of their UTF-8). */
export const binaryOrder = (a: string, b: string): number => {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) return unit(x) - unit(y)
  }
  return a.length - b.length
}

/** SQLite's order of two groups by the grouped columns (text, and `arc` a number). */
export const groupOrder = (a: SourceGroup, b: SourceGroup): number => {
  for (const k of COLUMNS) {
    const x = a[k]
    const y = b[k]
    if (x === y) continue
    if (typeof x === "number" && typeof y === "number") return x - y
    return binaryOrder(String(x ?? ""), String(y ?? ""))
  }
  return 0
}

export const mergeGroups = (
  a: ReadonlyArray<SourceGroup>,
  b: ReadonlyArray<SourceGroup>
): ReadonlyArray<SourceGroup> => {
  if (b.length === 0) return a
  if (a.length === 0) return b
  const out: Array<SourceGroup> = []
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    const order = groupOrder(a[i]!, b[j]!)
    if (order < 0) out.push(a[i++]!)
    else if (order > 0) out.push(b[j++]!)
    else {
      out.push({ ...a[i]!, messages: a[i]!.messages + b[j]!.messages })
      i++
      j++
    }
  }
  while (i < a.length) out.push(a[i++]!)
  while (j < b.length) out.push(b[j++]!)
  return out
}
