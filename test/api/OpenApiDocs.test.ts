/**
 * The OpenAPI document is worth reading: every operation has a summary and a description, and the
 * examples (computed by the code that answers, src/api/Examples.ts) decode with the operation's
 * success schema and appear on its success response.
 */
import { OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Api } from "../../src/Api.ts"
import { exampleJson, examples } from "../../src/api/Examples.ts"

const spec = OpenApi.fromApi(Api) as unknown as {
  paths: Record<
    string,
    Record<string, { operationId: string; summary?: string; description?: string; responses: any }>
  >
}
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => ["get", "post", "put", "delete", "patch"].includes(method))
    .map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op }))
)

/** Each endpoint's success schema, by operation id (`group.endpoint`). */
const successOf = new Map(
  Object.values(Api.groups).flatMap((group: any) =>
    Object.values(group.endpoints).map((endpoint: any) => [
      `${group.identifier}.${endpoint.name}`,
      endpoint.successSchema
    ])
  )
)

describe("the OpenAPI document", () => {
  it("has operations", () => expect(operations.length).toBeGreaterThanOrEqual(36))

  it.each(operations)("$name has a summary and a description", ({ op }) => {
    expect(op.summary?.trim() ?? "").not.toBe("")
    expect(op.summary!.length).toBeLessThanOrEqual(80)
    expect(op.description?.trim() ?? "").not.toBe("")
    expect(op.description!.length).toBeGreaterThan(op.summary!.length)
  })

  it.each(Object.keys(examples))(
    "%s: its example decodes with the success schema and is on the response",
    (id) => {
      const schema = successOf.get(id)
      expect(schema, `no operation ${id}`).toBeDefined()
      const value = exampleJson(id)
      expect(() => Schema.decodeUnknownSync(schema as Schema.Schema<unknown, unknown>)(value)).not.toThrow()
      const op = operations.find((o) => o.op.operationId === id)!.op
      const status = Object.keys(op.responses).find((code) => code.startsWith("2"))!
      const shown = Object.values<any>(op.responses[status].content["application/json"].examples)
      expect(shown.map((e) => e.value)).toEqual([value])
    }
  )
})
