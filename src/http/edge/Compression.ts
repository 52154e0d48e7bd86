/**
 * Compression and validators for what people load in a browser: the pages, their assets, the API
 * docs page and the OpenAPI document (docs/pages.md "Compression"). The docs page is 3.8 MB of
 * HTML and script; brotli sends it in about 0.8 MB.
 *
 * - The coding is chosen by `Accept-Encoding` (RFC 9110 §12.5.3): brotli (RFC 7932) or gzip
 *   (RFC 1952) by the client's q-values, brotli first on a tie, identity when neither is acceptable;
 *   every answer says `Vary: Accept-Encoding`.
 * - Every 200 carries a strong `ETag` per representation (a SHA-256 of the uncompressed bytes, with
 *   the coding appended: RFC 9110 §8.8.3.3), and a request whose `If-None-Match` names it gets 304
 *   (RFC 9110 §13.1.2).
 * - Large bodies that repeat (the docs page, the OpenAPI document) are compressed once and kept in
 *   a small cache keyed by their hash; compression runs on node's thread pool, not the event loop.
 */
import { createHash } from "node:crypto"
import { brotliCompress, constants, gzip } from "node:zlib"
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { isPagePath } from "../pages/PagePaths.ts"

export type Coding = "br" | "gzip" | "identity"

/** The coding to send for an `Accept-Encoding` value. */
export const negotiate = (accept: string | undefined): Coding => {
  if (accept === undefined || accept.trim() === "") return "identity"
  const q: Record<string, number> = {}
  for (const item of accept.split(",").slice(0, 32)) {
    const [name = "", ...params] = item.trim().toLowerCase().split(";")
    const m = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(p)).find((x) => x !== null)
    q[name.trim()] = m ? Number(m[1]) : 1
  }
  const of = (coding: string) => q[coding] ?? (coding !== "identity" ? q["*"] : undefined) ?? 0
  const br = of("br")
  const gz = Math.max(of("gzip"), q["x-gzip"] ?? 0)
  if (br > 0 && br >= gz) return "br"
  if (gz > 0) return "gzip"
  return "identity"
}

/** Whether a request's answer is compressed and validated here. */
export const compressible = (method: string, path: string) =>
  (method === "GET" || method === "HEAD") &&
  (isPagePath(path) || path === "/api/docs" || path === "/api/openapi.json")

const hashOf = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("base64url").slice(0, 32)

export const etagOf = (hash: string, coding: Coding) =>
  coding === "identity" ? `"${hash}"` : `"${hash}-${coding}"`

/** RFC 9110 §13.1.2: a list of entity tags (weak comparison) or `*`. */
export const matches = (ifNoneMatch: string | undefined, etag: string) => {
  if (ifNoneMatch === undefined) return false
  if (ifNoneMatch.trim() === "*") return true
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)
}

const compress = (bytes: Uint8Array, coding: "br" | "gzip") =>
  Effect.async<Uint8Array>((resume) => {
    const done = (error: Error | null, out: Buffer) => resume(error ? Effect.die(error) : Effect.succeed(out))
    if (coding === "br")
      brotliCompress(
        bytes,
        {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 5,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length
          }
        },
        done
      )
    else gzip(bytes, { level: 6 }, done)
  })

/** Bodies at least this large are kept compressed (the docs page, the OpenAPI document). */
const CACHE_FROM_BYTES = 64 * 1024
const CACHE_ENTRIES = 8

/** Wrap an app so that the answers of `compressible` requests are compressed and validated. */
export const withCompression = () => {
  const cache = new Map<string, Uint8Array>()
  const encoded = (hash: string, bytes: Uint8Array, coding: "br" | "gzip") => {
    const key = `${hash}:${coding}`
    const hit = cache.get(key)
    if (hit !== undefined) return Effect.succeed(hit)
    return Effect.tap(compress(bytes, coding), (out) =>
      Effect.sync(() => {
        if (bytes.length < CACHE_FROM_BYTES) return
        if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!)
        cache.set(key, out)
      })
    )
  }
  return <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const response = yield* app
      const q = request.url.indexOf("?")
      const path = q < 0 ? request.url : request.url.slice(0, q)
      if (!compressible(request.method, path)) return response
      const vary = HttpServerResponse.setHeader(response, "Vary", "Accept-Encoding")
      if (response.status !== 200 || response.body._tag !== "Uint8Array") return vary
      const bytes = response.body.body
      const contentType = response.body.contentType
      const hash = hashOf(bytes)
      const coding = negotiate(request.headers["accept-encoding"])
      const etag = etagOf(hash, coding)
      const headers = { ...vary.headers, etag }
      if (matches(request.headers["if-none-match"], etag))
        return HttpServerResponse.empty({ status: 304, headers })
      if (coding === "identity") return HttpServerResponse.setHeaders(vary, { ETag: etag })
      const body = yield* encoded(hash, bytes, coding)
      return HttpServerResponse.uint8Array(body, {
        status: 200,
        contentType,
        headers: { ...headers, "content-encoding": coding }
      })
    })
}
