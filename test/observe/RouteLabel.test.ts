/** The route label of a request path: a contract template, or one of a few fixed names. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { routeLabel } from "../../src/http/edge/RouteLabel.ts"
import { runs } from "../support/runs.ts"

describe("routeLabel", () => {
  it("names the template, not the path", () => {
    expect(routeLabel("/api/scan/quick")).toBe("/api/scan/quick")
    expect(routeLabel("/api/scan/deep/abc123")).toBe("/api/scan/deep/:scan_id")
    expect(routeLabel("/api/scan/deep")).toBe("/api/scan/deep")
    expect(routeLabel("/api/report/snapshot/xyz")).toBe("/api/report/snapshot/:snapshotId")
    expect(routeLabel("/api/openapi.json")).toBe("/api/openapi.json")
    expect(routeLabel("/api")).toBe("/api")
    expect(routeLabel("/api/no/such/thing")).toBe("/api/other")
    expect(routeLabel("/wp-login.php")).toBe("other")
    // the pages outside /api (docs/pages.md)
    expect(routeLabel("/")).toBe("/")
    expect(routeLabel("/report/example.com")).toBe("/report/:domain")
    expect(routeLabel("/report/example.com/snapshot")).toBe("/report/:domain/snapshot")
    expect(routeLabel("/snapshot/abc")).toBe("/snapshot/:snapshotId")
    expect(routeLabel("/assets/pages.css")).toBe("/assets/pages.css")
  })

  it("has a bounded set of values whatever clients send", () => {
    const seen = new Set<string>()
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { maxLength: 6 }), fc.boolean(), (segments, api) => {
        seen.add(routeLabel(`/${api ? "api/" : ""}${segments.join("/")}`))
      }),
      { numRuns: runs(2_000) }
    )
    // every value is a template of the contract or a fixed name, never the text sent
    for (const label of seen)
      expect(label).toMatch(/^(other|\/api\/other|\/api|\/metrics|\/health|\/|\/api\/[a-z0-9/:._-]+)$/i)
    expect(seen.size).toBeLessThan(10)
  })
})
