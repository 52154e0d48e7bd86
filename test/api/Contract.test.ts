/**
 * The contract test: every endpoint of SPEC.md's endpoint table is in the generated OpenAPI
 * document with its method, under /api, plus the deep-scan result path we define.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { OpenApi } from "@effect/platform"
import { describe, expect, it } from "vitest"
import { Api } from "../../src/Api.ts"

const copy = join(import.meta.dirname, "spec-endpoints.txt")
const specFile = join(import.meta.dirname, "../../../shared/SPEC.md")

/** "METHOD /path" lines of the spec's endpoint table, `{param}` written as in the spec. */
const specTable = (markdown: string) => {
  const section = markdown.slice(
    markdown.indexOf("## Endpoints"),
    markdown.indexOf("Endpoint-specific rules")
  )
  return [...section.matchAll(/^\| (GET|POST) \| (\S+) \|/gm)].map(([, method, path]) => `${method} ${path}`)
}

const checkedIn = readFileSync(copy, "utf8").trim().split("\n")
const openApi = OpenApi.fromApi(Api)
const served = Object.entries(openApi.paths).flatMap(([path, item]) =>
  Object.keys(item)
    .filter((key) => ["get", "post", "put", "delete", "patch"].includes(key))
    .map((method) => `${method.toUpperCase()} ${path}`)
)

describe("the API contract", () => {
  it("has the spec's 35 endpoints in its checked-in table", () => {
    expect(checkedIn).toHaveLength(35)
    expect(new Set(checkedIn).size).toBe(35)
  })

  it.runIf(existsSync(specFile))("checked-in table matches ../shared/SPEC.md", () => {
    expect(specTable(readFileSync(specFile, "utf8"))).toEqual(checkedIn)
  })

  it("serves every spec endpoint under /api with its method", () => {
    const expected = checkedIn.map((line) => line.replace(" /", " /api/"))
    expect(served).toEqual(expect.arrayContaining(expected))
  })

  it("adds only the dependency map, the deep-scan result path, the preview, the web checks, the history, reports-in, monitors and verified-domains groups and the signing keys beyond the spec", () => {
    const extra = served.filter((line) => !checkedIn.map((l) => l.replace(" /", " /api/")).includes(line))
    expect(extra).toEqual([
      // the dependency map (docs/dependencies.md)
      "GET /api/dns/dependencies",
      // "what if" previews (docs/preview.md)
      "POST /api/scan/preview",
      "GET /api/scan/deep/{scan_id}",
      // web checks beyond the spec (docs/web-tls.md, docs/web.md)
      "GET /api/web/tls",
      "GET /api/web/security-txt",
      // history (docs/monitoring.md)
      "GET /api/history/{domain}",
      "GET /api/history/{domain}/diff",
      "GET /api/history/{domain}/evidence",
      "GET /api/history/{domain}/{seq}",
      // reports in (docs/reports-in.md)
      "POST /api/reports/dmarc",
      "POST /api/reports/tls",
      "GET /api/reports/dmarc/{domain}",
      "GET /api/reports/tls/{domain}",
      "POST /api/reports/failure",
      "GET /api/reports/failure/{domain}",
      // monitors (docs/monitoring.md)
      "POST /api/monitors",
      "GET /api/monitors",
      "GET /api/monitors/{id}",
      "DELETE /api/monitors/{id}",
      "POST /api/monitors/{id}/run",
      "GET /api/monitors/{id}/alerts",
      // verified domains (docs/access.md)
      "POST /api/domains",
      "GET /api/domains",
      "GET /api/domains/{domain}",
      "DELETE /api/domains/{domain}",
      "POST /api/domains/{domain}/verify",
      "PUT /api/domains/{domain}/public-reports",
      // the public keys that sign snapshots and evidence, at the origin's well-known location (docs/reports.md)
      "GET /.well-known/domain-audit-keys.json"
    ])
  })

  it("declares 400 wherever the spec says an endpoint rejects invalid input", () => {
    const missing = Object.entries(openApi.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ["get", "post"].includes(method))
        .filter(([, op]) => {
          const operation = op as { parameters?: Array<unknown>; requestBody?: unknown; responses: object }
          return (operation.parameters?.length || operation.requestBody) && !("400" in operation.responses)
        })
        .map(([method]) => `${method} ${path}`)
    )
    expect(missing).toEqual([])
  })

  it("documents the spec's statuses: 404 snapshot, 429 and 502 on the CSP scan, 201 on snapshot creation", () => {
    const responses = (method: "get" | "post", path: string) =>
      Object.keys((openApi.paths[path] as Record<string, { responses: object }>)[method]!.responses)
    expect(responses("get", "/api/report/snapshot/{snapshotId}")).toContain("404")
    expect(responses("post", "/api/csp/scan")).toEqual(expect.arrayContaining(["200", "400", "429", "502"]))
    expect(responses("post", "/api/report/snapshot")).toEqual(expect.arrayContaining(["201", "429"]))
    expect(responses("get", "/api/report/snapshot")).toContain("201")
    expect((openApi.paths["/api/report/snapshot"] as { get: { deprecated?: boolean } }).get.deprecated).toBe(
      true
    )
  })
})
