/**
 * One line of a batch's domain list, read: a domain (normalised exactly as the API normalises its
 * `domain` parameter, `records/DomainName.ts`), nothing (a blank or a comment), or a rejected line with the
 * reason. Pure and total.
 */
import { Either } from "effect"
import { type Domain, normaliseDomain } from "../records/DomainName.ts"

export type Line =
  | { readonly _tag: "Skip" }
  | { readonly _tag: "Domain"; readonly domain: Domain }
  | { readonly _tag: "Invalid"; readonly text: string; readonly reason: string }

const SKIP: Line = { _tag: "Skip" }

/**
 * A `#` at the start of a line or after white space starts a comment (as in shell and hosts files);
 * a `#` inside a word is left alone, so a pasted URL keeps its fragment (which the host part drops).
 */
export const stripComment = (text: string): string => {
  const at = text.search(/(^|\s)#/)
  return at < 0 ? text : text.slice(0, at)
}

export const parseLine = (raw: string): Line => {
  // A byte-order mark (a list saved by a Windows editor) and CR of CRLF line ends are not content.
  const text = stripComment(raw.replace(/^\uFEFF/, "").replace(/\r$/, "")).trim()
  if (text === "") return SKIP
  return Either.match(normaliseDomain(text), {
    onLeft: (reason): Line => ({ _tag: "Invalid", text, reason }),
    onRight: (domain): Line => ({ _tag: "Domain", domain })
  })
}
