/**
 * Canonical JSON and the content hash of a report (docs/reports.md "Hashing recipe").
 *
 * - Canonical form: RFC 8785 (JSON Canonicalization Scheme), by the `canonicalize` package
 *   (erdtman/canonicalize, the reference implementation named in RFC 8785's appendix), not by hand:
 *   keys sorted by UTF-16 code units, ECMAScript number serialisation, minimal string escaping.
 * - RFC 8785 §3.1 requires I-JSON (RFC 7493): NaN, Infinity and lone surrogates are refused (the
 *   package throws, and so does `canonicalJson`), `undefined` members are dropped.
 * - Hash: SHA-256 over the UTF-8 bytes of the canonical JSON, written `sha256:<64 lower-case hex>`.
 */
import { createHash } from "node:crypto"
import canonicalize from "canonicalize"

/** The RFC 8785 canonical JSON of `value` (throws on values that are not I-JSON). */
export const canonicalJson = (value: unknown): string => {
  const text = canonicalize(value)
  if (text === undefined) throw new Error("the value has no JSON representation")
  return text
}

/** `sha256:<hex>` of the UTF-8 bytes of `text`. */
export const sha256Of = (text: string): string =>
  `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`

/** The content hash of a JSON value: SHA-256 of its canonical JSON. */
export const contentHashOf = (value: unknown): string => sha256Of(canonicalJson(value))

/** `sha256:<hex>` as an HTTP entity tag (RFC 9110 §8.8.3: a quoted opaque string). */
export const etagOf = (contentHash: string, variant = ""): string =>
  `"${contentHash.replace(":", "-")}${variant}"`
