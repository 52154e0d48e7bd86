/**
 * The request target as the router serves it, decided once, before anything classifies or routes
 * the request. The gatekeeper (node's request event) and the edge (Effect) both call `readTarget`;
 * the router only ever sees what it returns, so "which endpoint is this" has one answer.
 *
 * - Absolute form (`GET http://host/api/...`, RFC 9112 §3.2.2) is the same resource as its origin
 *   form: it is served as the path, and its authority replaces `Host`.
 * - Every other spelling of a route's path that RFC 3986 §6.2.2 or the router treats as the same
 *   (case of the fixed segments, repeated or trailing slashes, `.` and `..` segments,
 *   percent-encoded unreserved characters, lower-case hex in an escape) is answered with a redirect
 *   to the canonical spelling (301, or 308 for methods other than GET and HEAD, which keeps the
 *   method and the body). Only the canonical spelling does work, so every rule keyed on a path
 *   (ours, a proxy's, a CDN's) sees each endpoint under one name.
 * - A `;` in the path (which the router, unlike RFC 3986, reads as the start of a query) and a
 *   non-canonical spelling of no route are 404; broken percent-encoding is 400.
 */
import { HttpApi } from "@effect/platform"
import { Api } from "../../Api.ts"
import { PAGE_ROUTES } from "../pages/PagePaths.ts"

/** One route: its method and its path's segments, `undefined` where a parameter goes. */
export interface RouteTemplate {
  readonly method: string
  readonly segments: ReadonlyArray<string | undefined>
}

const template = (method: string, path: string): RouteTemplate => ({
  method,
  segments: path
    .split("/")
    .filter((s) => s !== "")
    .map((s) => (s.startsWith(":") ? undefined : s))
})

/** Every route the server has: the contract's endpoints, the OpenAPI document, the docs and the pages. */
export const routeTemplates: ReadonlyArray<RouteTemplate> = (() => {
  const out: Array<RouteTemplate> = []
  HttpApi.reflect(Api, {
    onGroup() {},
    onEndpoint({ endpoint }) {
      out.push(template(endpoint.method, endpoint.path))
    }
  })
  out.push(template("GET", "/api/openapi.json"), template("GET", "/api/docs"))
  for (const [method, path] of PAGE_ROUTES) out.push(template(method, path))
  return out
})()

export type Target =
  /** Serve `url` (origin form); `authority` is the absolute form's host, which replaces `Host`. */
  | { readonly _tag: "Serve"; readonly url: string; readonly authority: string | undefined }
  /** The same resource under its canonical spelling (a path-absolute reference, never `//`). */
  | { readonly _tag: "Moved"; readonly location: string }
  | { readonly _tag: "Refused"; readonly status: 400 | 404; readonly error: string }

/** At most `max` characters of `text`, marked when cut: no answer grows with its input. */
export const quote = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

const UNRESERVED = /^[A-Za-z0-9\-._~]$/

/**
 * RFC 3986 §6.2.2.2: an escaped unreserved character is the character itself; other escapes keep
 * their upper-case hex (§6.2.2.1). Undefined when a `%` is not followed by two hex digits or the
 * escapes are not UTF-8 (what the router cannot decode it cannot route).
 */
const normaliseEscapes = (path: string): string | undefined => {
  if (!path.includes("%")) return path
  let broken = false
  const out = path.replace(/%(.{0,2})/gs, (_, hex: string) => {
    if (!/^[0-9a-f]{2}$/i.test(hex)) {
      broken = true
      return ""
    }
    const c = String.fromCharCode(parseInt(hex, 16))
    return UNRESERVED.test(c) ? c : `%${hex.toUpperCase()}`
  })
  if (broken) return undefined
  try {
    decodeURI(out)
  } catch {
    return undefined
  }
  return out
}

/** RFC 3986 §5.2.4 on segments: `.` goes, `..` takes the one before it (never above the root). */
const removeDots = (segments: ReadonlyArray<string>): Array<string> => {
  const out: Array<string> = []
  for (const s of segments) {
    if (s === "..") out.pop()
    else if (s !== ".") out.push(s)
  }
  return out
}

/** The canonical segments of the route these segments spell (fixed segments win over parameters). */
const matchRoute = (
  segments: ReadonlyArray<string>,
  routes: ReadonlyArray<RouteTemplate>
): Array<string> | undefined => {
  // The fixed segments are ASCII, and once escapes are normalised a segment's other characters are
  // escapes or Latin-1 (node reads the request line so), none of which lower-cases to ASCII.
  const lower = segments.map((s) => s.toLowerCase())
  let best: RouteTemplate | undefined
  let bestFixed = -1
  for (const route of routes) {
    if (route.segments.length !== segments.length) continue
    let fixed = 0
    let i = 0
    for (; i < segments.length; i++) {
      const want = route.segments[i]
      if (want === undefined) continue
      if (lower[i] !== want) break
      fixed++
    }
    if (i === segments.length && fixed > bestFixed) {
      best = route
      bestFixed = fixed
    }
  }
  return best?.segments.map((want, i) => want ?? segments[i]!)
}

const notFound = (method: string, path: string): Target => ({
  _tag: "Refused",
  status: 404,
  error: `no endpoint ${quote(method, 20)} ${quote(path)}; the API is described at /api/docs`
})

/** The canonical paths of the routes without parameters: most requests, read with one lookup. */
const fixedPaths = new WeakMap<ReadonlyArray<RouteTemplate>, ReadonlySet<string>>()
const fixedPathsOf = (routes: ReadonlyArray<RouteTemplate>) => {
  let paths = fixedPaths.get(routes)
  if (paths === undefined) {
    paths = new Set(
      routes.filter((r) => !r.segments.includes(undefined)).map((r) => `/${r.segments.join("/")}`)
    )
    fixedPaths.set(routes, paths)
  }
  return paths
}

/** What to do with a request line's method and target (`req.url`). Pure. */
export const readTarget = (method: string, raw: string, routes = routeTemplates): Target => {
  const q0 = raw.indexOf("?")
  if (fixedPathsOf(routes).has(q0 < 0 ? raw : raw.slice(0, q0)))
    return { _tag: "Serve", url: raw, authority: undefined }
  let rest = raw
  let authority: string | undefined
  const absolute = /^https?:\/\/([^/?#]*)(.*)$/is.exec(raw)
  if (absolute !== null) {
    authority = absolute[1]!
    rest = absolute[2]!.startsWith("/") ? absolute[2]! : `/${absolute[2]!}`
  } else if (!raw.startsWith("/"))
    return {
      _tag: "Refused",
      status: 400,
      error: `the request target must be a path such as /api/health; got '${quote(raw)}'`
    }
  const q = rest.indexOf("?")
  const path = q < 0 ? rest : rest.slice(0, q)
  const query = q < 0 ? "" : rest.slice(q)
  if (/[;#]/.test(path)) return notFound(method, path)
  const escaped = normaliseEscapes(path)
  if (escaped === undefined)
    return {
      _tag: "Refused",
      status: 400,
      error: `the path is not valid percent-encoded UTF-8: '${quote(path)}'`
    }
  const segments = removeDots(escaped.split("/").filter((s) => s !== ""))
  const route = matchRoute(segments, routes)
  if (route === undefined) {
    // No route by any spelling: the router 404s the path as it is, and only as it is.
    if (escaped === path && segments.join("/") === path.slice(1))
      return { _tag: "Serve", url: rest, authority }
    return notFound(method, path)
  }
  const canonical = `/${route.join("/")}`
  if (canonical === path) return { _tag: "Serve", url: canonical + query, authority }
  return { _tag: "Moved", location: canonical + query }
}

/** The status of a redirect to the canonical spelling: 308 keeps the method and body (RFC 9110 §15.4.9). */
export const movedStatus = (method: string) => (method === "GET" || method === "HEAD" ? 301 : 308)

/** The methods a path is served with (HEAD wherever GET is: the router answers it with the GET). */
export const allowedMethods = (path: string, routes = routeTemplates): ReadonlyArray<string> => {
  const segments = path.split("/").filter((s) => s !== "")
  const methods = routes
    .filter(
      (route) =>
        route.segments.length === segments.length &&
        route.segments.every((want, i) => want === undefined || want === segments[i])
    )
    .map((route) => route.method)
  const unique = [...new Set(methods)]
  return unique.includes("GET") ? [...unique, "HEAD"] : unique
}

/** The answer to a target that is not served: its status, headers and JSON body. */
export const targetAnswer = (
  method: string,
  target: Exclude<Target, { readonly _tag: "Serve" }>
): { readonly status: number; readonly headers: Record<string, string>; readonly body: object } =>
  target._tag === "Moved"
    ? {
        status: movedStatus(method),
        headers: { location: target.location },
        body: { location: target.location }
      }
    : { status: target.status, headers: {}, body: { error: target.error } }
