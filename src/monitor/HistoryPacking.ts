/**
 * How a history entry's scan is stored compactly (docs/monitoring.md "Storage"): two scans of one
 * domain differ mostly in timings and timestamps, so an entry stores what changed since the
 * previous entry's scan (a delta), brotli-compressed; every `KEYFRAME_EVERY`-th entry stores the
 * whole scan, so reading any entry applies at most that many deltas. Against the world, a delta of
 * two scans of perfect.com is about 400 bytes where the whole scan (35 KB of JSON) compressed is 8 KB.
 *
 * What is hashed is never the packed form: the content hash is over the scan's RFC 8785 canonical
 * JSON, rebuilt from the packed rows on every read (HistoryChain.ts), so packing can change without
 * changing a single hash.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib"
import type { Json } from "./Change.ts"

/** Every 32nd entry (seq 1, 33, 65, ...) is whole. */
export const KEYFRAME_EVERY = 32

export const isKeyframe = (seq: number): boolean => (seq - 1) % KEYFRAME_EVERY === 0

type Key = string | number
/** Set the value at a path (`[path, value]`) or delete an object's member (`[path]`). */
export type Op = readonly [ReadonlyArray<Key>, Json] | readonly [ReadonlyArray<Key>]

const isObject = (v: Json): v is { readonly [key: string]: Json } =>
  v !== null && typeof v === "object" && !Array.isArray(v)

const equal = (a: Json, b: Json): boolean => {
  if (a === b) return true
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]!))
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a)
    return (
      keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && equal(a[k]!, b[k]!))
    )
  }
  return false
}

/**
 * The operations that turn `from` into `to`: objects member by member, arrays of equal length item
 * by item, anything else replaced whole.
 */
export const deltaOf = (from: Json, to: Json, path: ReadonlyArray<Key> = []): ReadonlyArray<Op> => {
  if (equal(from, to)) return []
  if (isObject(from) && isObject(to))
    return [
      ...Object.keys(from)
        .filter((k) => !Object.hasOwn(to, k))
        .map((k): Op => [[...path, k]]),
      ...Object.keys(to).flatMap((k) =>
        Object.hasOwn(from, k) ? deltaOf(from[k]!, to[k]!, [...path, k]) : [[[...path, k], to[k]!] as Op]
      )
    ]
  if (Array.isArray(from) && Array.isArray(to) && from.length === to.length)
    return to.flatMap((item, i) => deltaOf(from[i]!, item, [...path, i]))
  return [[path, to]]
}

/** `base` with `ops` applied (a copy: `base` is left as it was). */
export const applyDelta = (base: Json, ops: ReadonlyArray<Op>): Json =>
  applyInPlace(structuredClone(base), ops)

/** `base` with `ops` applied in place: `base` is changed (and returned, or its replacement). */
const applyInPlace = (base: Json, ops: ReadonlyArray<Op>): Json => {
  let root: Json = base
  for (const op of ops) {
    const path = op[0]
    if (path.length === 0) {
      root = op.length === 2 ? structuredClone(op[1]) : null
      continue
    }
    let parent: Json = root
    for (const key of path.slice(0, -1)) parent = memberOf(parent, key)
    if (parent === null || typeof parent !== "object") throw new TypeError(THROUGH_A_VALUE)
    const last = path[path.length - 1]!
    // defineProperty: a member named __proto__ is data, never the object's prototype
    if (op.length === 2)
      Object.defineProperty(parent, last, {
        value: structuredClone(op[1]),
        writable: true,
        enumerable: true,
        configurable: true
      })
    else Reflect.deleteProperty(parent, last)
  }
  return root
}

const THROUGH_A_VALUE = "a delta's path runs through a value that is neither an object nor an array"

/** The member `key` of an object or array (null when it has none); throws on any other value. */
const memberOf = (node: Json, key: Key): Json => {
  if (isObject(node)) return Object.hasOwn(node, key) ? node[key]! : null
  if (Array.isArray(node)) return node[Number(key)] ?? null
  throw new TypeError(THROUGH_A_VALUE)
}

// Quality 5: within 10 % of the best brotli ratio on scans at a twentieth of quality 11's time.
const compress = (text: string) =>
  brotliCompressSync(Buffer.from(text, "utf8"), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: text.length }
  })

/** A whole scan as stored. */
export const packWhole = (scan: Json): Uint8Array => compress(JSON.stringify(scan))

/** The change from the previous entry's scan to `scan`, as stored. */
export const packDelta = (previous: Json, scan: Json): Uint8Array =>
  compress(JSON.stringify(deltaOf(previous, scan)))

/**
 * The scan of a whole row, or of a delta row over the previous entry's scan, which is changed in
 * place into it (rebuilding an entry from its keyframe copies no scan). Throws on bad bytes.
 */
export const unpack = (body: Uint8Array, previous: Json | undefined): Json => {
  const parsed = JSON.parse(brotliDecompressSync(body).toString("utf8")) as Json
  return previous === undefined ? parsed : applyInPlace(previous, parsed as ReadonlyArray<Op>)
}
