/**
 * One reading of the request target: every spelling of a route that the router (or RFC 3986 §6.2.2)
 * treats as the same resource reaches the same endpoint under the same class, or is sent to the
 * canonical spelling; nothing else reaches a handler.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { routeClass } from "../../../src/http/edge/Admission.ts"
import { allowedMethods, readTarget, routeTemplates } from "../../../src/http/edge/RequestTarget.ts"
import { runs } from "../../support/runs.ts"

/** A concrete path of each route (parameters filled in), with its method. */
const concrete = routeTemplates.map((route) => ({
  method: route.method,
  path: `/${route.segments.map((s) => s ?? "example.com").join("/")}`
}))
const costly = concrete.filter(({ method, path }) => routeClass(method, path) === "costly")

/** What the edge serves for a request: its target, or the canonical spelling it redirects to. */
const servedAs = (method: string, raw: string) => {
  const target = readTarget(method, raw)
  if (target._tag === "Serve") return target.url
  if (target._tag === "Moved") {
    const next = readTarget(method, target.location)
    expect(next._tag, `${raw} -> ${target.location}`).toBe("Serve")
    return target.location
  }
  return "refused"
}

const UNRESERVED = /[A-Za-z0-9\-._~]/

/** An equivalent spelling of `path`, chosen by `choices`. */
const spell = (path: string, choices: ReadonlyArray<number>) => {
  let i = 0
  const pick = (n: number) => choices[i++ % choices.length]! % n
  const segments = path.split("/").slice(1)
  const out: Array<string> = []
  for (const segment of segments) {
    if (pick(4) === 0) out.push(".") // a dot segment
    if (pick(5) === 0) out.push("x", "..") // a segment and its undoing
    const chars = [...segment].map((c) => {
      const how = pick(6)
      if (how === 0) return c.toUpperCase()
      if (how === 1 && UNRESERVED.test(c)) {
        const hex = c.charCodeAt(0).toString(16)
        return `%${pick(2) === 0 ? hex : hex.toUpperCase()}`
      }
      return c
    })
    out.push(chars.join(""))
  }
  const slashes = () => "/".repeat(1 + (pick(3) === 0 ? pick(3) : 0))
  let spelled = out.map((s) => slashes() + s).join("")
  if (pick(3) === 0) spelled += "/"
  if (pick(3) === 0) spelled = `${pick(2) === 0 ? "http" : "HTTP"}://audit.example:8080${spelled}`
  return `${spelled}?domain=example.com`
}

describe("readTarget", () => {
  it("serves the canonical spelling of every route as it is", () => {
    for (const { method, path } of concrete)
      expect(readTarget(method, `${path}?domain=x`), path).toEqual({
        _tag: "Serve",
        url: `${path}?domain=x`,
        authority: undefined
      })
  })

  it("every spelling of a costly route is served as that route, or redirected to it, and is costly", () =>
    fc.assert(
      fc.property(
        fc.constantFrom(...costly),
        fc.constantFrom("same", "HEAD"),
        fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
        ({ method, path }, as, choices) => {
          const m = as === "HEAD" && method === "GET" ? "HEAD" : method
          const raw = spell(path, choices)
          const served = servedAs(m, raw)
          // the very route (parameters keep the case they were sent in), and so its class
          expect(served.toLowerCase(), `${m} ${raw}`).toBe(`${path}?domain=example.com`)
          expect(routeClass(m, served.split("?")[0]!)).toBe("costly")
        }
      ),
      { numRuns: runs(3_000) }
    ))

  it("redirects to the canonical path, keeping the query, and answers absolute form as origin form", () => {
    expect(readTarget("GET", "/API/Scan/Quick?domain=a.com")).toEqual({
      _tag: "Moved",
      location: "/api/scan/quick?domain=a.com"
    })
    expect(readTarget("GET", "//api/scan//quick/")).toEqual({ _tag: "Moved", location: "/api/scan/quick" })
    expect(readTarget("GET", "/api/x/../scan/./%71uick")).toEqual({
      _tag: "Moved",
      location: "/api/scan/quick"
    })
    expect(readTarget("GET", "http://h.example:1/api/scan/quick?domain=a")).toEqual({
      _tag: "Serve",
      url: "/api/scan/quick?domain=a",
      authority: "h.example:1"
    })
    // parameters keep their case; their escapes are only normalised
    expect(readTarget("GET", "/API/report/snapshot/AbC%2f")).toEqual({
      _tag: "Moved",
      location: "/api/report/snapshot/AbC%2F"
    })
  })

  it("refuses what the router would read differently, and broken escapes", () => {
    expect(readTarget("POST", "/api/scan;/generate")).toMatchObject({ _tag: "Refused", status: 404 })
    expect(readTarget("GET", "/api/badge/%E0%A4%A")).toMatchObject({ _tag: "Refused", status: 400 })
    expect(readTarget("GET", "/api/badge/%zz")).toMatchObject({ _tag: "Refused", status: 400 })
    expect(readTarget("GET", "*")).toMatchObject({ _tag: "Refused", status: 400 })
    // a character that folds to ASCII under Unicode case rules is not an ASCII letter (U+212A KELVIN
    // SIGN): no route, so the router gets it as it is (and, case-sensitive, 404s it)
    expect(readTarget("GET", "/api/scan/quic%E2%84%AA")).toMatchObject({ _tag: "Serve" })
    expect(readTarget("GET", "/nope")).toEqual({ _tag: "Serve", url: "/nope", authority: undefined })
    expect(readTarget("GET", "//nope")).toMatchObject({ _tag: "Refused", status: 404 })
  })

  it("never redirects off the site, and quotes at most 80 characters", () =>
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (tail) => {
        const target = readTarget("GET", `/${tail}`)
        if (target._tag === "Moved") expect(target.location).toMatch(/^\/(?!\/)/)
        if (target._tag === "Refused") expect(target.error.length).toBeLessThan(160)
      }),
      { numRuns: runs(3_000) }
    ))

  it("names the methods a path is served with, HEAD wherever GET", () => {
    expect(allowedMethods("/api/report/snapshot")).toEqual(["POST", "GET", "HEAD"])
    expect(allowedMethods("/api/scan")).toEqual(["POST"])
    expect(allowedMethods("/api/nope")).toEqual([])
  })
})
