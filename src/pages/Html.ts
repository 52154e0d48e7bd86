/**
 * HTML built by value, escaped by default: every page is a tree of `Html` fragments, and a plain
 * string placed in one is text, never markup. A domain name, a DNS record or a report field is
 * hostile input (anyone can publish a TXT record with `<script>` in it), so nothing reaches a page
 * without passing `escape` unless it was built here as markup. Pure.
 */

/** Markup that is safe to place as is: built by `html` or `raw` only. */
export interface Html {
  readonly _tag: "Html"
  readonly markup: string
}

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;"
}

/**
 * Text as HTML character data or a quoted attribute value (HTML Living Standard §13.1.2.3 and
 * §13.1.2.6): the five characters that could end a text run or an attribute are replaced by
 * references, and so are the C0 controls other than tab, newline and carriage return, which are
 * parse errors in a document.
 */
export const escape = (text: string): string =>
  text
    .replace(/[&<>"']/g, (c) => ESCAPES[c]!)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "\ufffd")

/** Markup the caller vouches for (a constant of this module's callers, never input). */
export const raw = (markup: string): Html => ({ _tag: "Html", markup })

export type Part = Html | string | number | null | undefined | false | ReadonlyArray<Part>

const isHtml = (part: unknown): part is Html =>
  typeof part === "object" && part !== null && (part as { _tag?: unknown })._tag === "Html"

const render = (part: Part): string => {
  if (part === null || part === undefined || part === false) return ""
  if (typeof part === "string") return escape(part)
  if (typeof part === "number") return String(part)
  if (isHtml(part)) return part.markup
  return (part as ReadonlyArray<Part>).map(render).join("")
}

/** A template whose interpolations are escaped (strings), kept (Html) or joined (arrays). */
export const html = (strings: TemplateStringsArray, ...parts: ReadonlyArray<Part>): Html => {
  let out = strings[0]!
  for (let i = 0; i < parts.length; i++) out += render(parts[i]!) + strings[i + 1]!
  return raw(out)
}

/** Fragments joined, for lists built with map. */
export const join = (parts: ReadonlyArray<Part>): Html => raw(render(parts))

/**
 * A URL for an href or action: only our own paths (`/...`, not `//`) and http(s) URLs; anything
 * else (`javascript:`, `data:`) becomes `#`, because escaping does not make a scheme harmless.
 */
export const safeUrl = (url: string): string =>
  /^\/(?!\/)/.test(url) || /^https?:\/\//i.test(url) ? url : "#"
