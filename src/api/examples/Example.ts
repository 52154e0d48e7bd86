/** The example of an operation: its request in words, and the answer the service's code gives for it. */
export interface Example {
  readonly request: string
  readonly answer: () => unknown
  /** The same answer in another media type (text/markdown), where the operation offers one. */
  readonly text?: { readonly mediaType: string; readonly answer: () => string }
}

/** The service's public base URL (it ends in /api) as the examples' URLs show it. */
export const BASE = "https://audit.example.com/api"

/** `f`'s value, computed on the first call: the examples cost nothing until the document is built. */
export const once = <A>(f: () => A): (() => A) => {
  let value: { readonly a: A } | undefined
  return () => (value ??= { a: f() }).a
}
