/** The example of an operation: its request in words, and the answer the service's code gives for it. */
export interface Example {
  readonly request: string
  /** The JSON answer; absent for an operation that answers only in another media type. */
  readonly answer?: () => unknown
  /** The answer as text in another media type (text/markdown, image/svg+xml), where it offers one. */
  readonly text?: { readonly mediaType: string; readonly answer: () => string }
}

/** The service's public base URL (it ends in /api) as the examples' URLs show it. */
export const BASE = "https://audit.example.com/api"

/** Examples keyed by endpoint name, keyed by operation id (`group.endpoint`). */
export const inGroup = (group: string, examples: Readonly<Record<string, Example>>) =>
  Object.fromEntries(Object.entries(examples).map(([name, example]) => [`${group}.${name}`, example]))
