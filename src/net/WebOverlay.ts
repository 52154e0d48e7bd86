/**
 * The Web client with some files' bodies given: the "what if" preview's MTA-STS policy or
 * security.txt, read in place of the live one (docs/preview.md).
 *
 * A given file is still fetched live, so that everything but its body is what the server really
 * does: the address policy, the certificate (an MTA-STS policy counts only over valid HTTPS,
 * RFC 8461 3.3), the redirects. The live body is then replaced by the given one, served 200 as
 * `text/plain` (RFC 8461 3.2, RFC 9116 3). A host that does not answer stays a failure: a file
 * cannot be previewed on a server that does not exist.
 */
import { Effect } from "effect"
import type { WebError, WebRequestOptions, WebResponse } from "./WebTypes.ts"

/** A file's body to serve in place of the live one at `url`. */
export interface OverlayFile {
  readonly url: string
  readonly body: string
}

/** The URL as fetched (WHATWG parsing: host lower case, default port and empty path settled). */
export const fileKey = (url: string): string => {
  try {
    return new URL(url).href
  } catch {
    return url
  }
}

/** The headers that describe the live body, replaced with the given one's. */
const BODY_HEADER = /^content-(type|length|encoding)$/i

type Get = (url: string, options?: WebRequestOptions) => Effect.Effect<WebResponse, WebError>

/** `get` with the given files' bodies served in place of the live ones. */
export const overlayGet = (get: Get, files: ReadonlyArray<OverlayFile>): Get => {
  const bodies = new Map(files.map((f) => [fileKey(f.url), new TextEncoder().encode(f.body)]))
  return (url, options) => {
    const body = bodies.get(fileKey(url))
    if (body === undefined) return get(url, options)
    return Effect.map(get(url, options), (live) => ({
      ...live,
      status: 200,
      headers: {
        ...Object.fromEntries(Object.entries(live.headers).filter(([name]) => !BODY_HEADER.test(name))),
        "content-type": "text/plain; charset=utf-8",
        "content-length": String(body.length)
      },
      rawHeaders: [
        ...live.rawHeaders.filter(([name]) => !BODY_HEADER.test(name)),
        ["Content-Type", "text/plain; charset=utf-8"] as const,
        ["Content-Length", String(body.length)] as const
      ],
      body,
      truncated: false
    }))
  }
}
