/**
 * `GET /api` answers an index: its links lead where they say, and its endpoints are exactly the
 * OpenAPI document's.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { apiIndex } from "../../src/http/handlers/ApiIndex.ts"
import { call, testApp } from "./harness.ts"

layer(testApp())("GET /api", (it) => {
  it.effect("links the docs, OpenAPI, health and the pages, each of which answers", () =>
    Effect.gen(function* () {
      const index = yield* call("GET", "/api")
      expect(index.status).toBe(200)
      expect(index.type).toContain("application/json")
      const links = index.json.links as Record<string, string>
      // The test server has no public base URL configured: the links are absolute for this host.
      const path = (url: string) => new URL(url).pathname
      expect(path(links.docs!)).toBe("/api/docs")
      expect(path(links.openapi!)).toBe("/api/openapi.json")
      for (const link of [links.docs!, links.openapi!, links.health!, links.pages!])
        expect((yield* call("GET", path(link))).status).toBe(200)
    })
  )

  it.effect("lists every endpoint of the OpenAPI document, each with a summary", () =>
    Effect.gen(function* () {
      const openapi = (yield* call("GET", "/api/openapi.json")).json as {
        paths: Record<string, Record<string, unknown>>
      }
      const documented = Object.entries(openapi.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)
      )
      const listed = ((yield* call("GET", "/api")).json.endpoints as Array<Record<string, string>>).map(
        (e) => {
          expect(e.summary).not.toBe("")
          return `${e.method} ${e.path}`
        }
      )
      expect(listed.sort()).toEqual(documented.sort())
    })
  )
})

describe("the index's links", () => {
  it("follow a configured public base URL, pages beside the API", () => {
    const { links } = apiIndex("https://audit.example.org/api")
    expect(links).toMatchObject({
      docs: "https://audit.example.org/api/docs",
      pages: "https://audit.example.org/",
      report: "https://audit.example.org/report/{domain}"
    })
    expect(apiIndex("/api").links).toMatchObject({ docs: "/api/docs", pages: "/" })
  })
})
