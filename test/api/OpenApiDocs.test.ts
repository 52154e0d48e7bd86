/**
 * The OpenAPI document is worth reading: every operation has a summary and a description, and
 * every operation with a JSON success response has an example (computed by the code that answers,
 * src/api/Examples.ts) that decodes with the operation's success schema and appears on that response.
 */
import { OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { describe, expect, it, vi } from "vitest"
import { Api } from "../../src/Api.ts"
import { exampleJson, examples } from "../../src/api/Examples.ts"

const spec = OpenApi.fromApi(Api) as unknown as {
  paths: Record<
    string,
    Record<string, { operationId: string; summary?: string; description?: string; responses: any }>
  >
}
/** An example as shown on a response: in place, or a reference to one under components.examples. */
const shownValue = (shown: { value?: unknown; $ref?: string }): unknown =>
  shown.$ref === undefined
    ? shown.value
    : (spec as any).components.examples[shown.$ref.replace("#/components/examples/", "")].value

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

  /** The operations whose success response is JSON, read from the document itself. */
  const jsonOperations = operations.filter(({ op }) => {
    const status = Object.keys(op.responses).find((code) => code.startsWith("2"))
    return status !== undefined && op.responses[status].content?.["application/json"] !== undefined
  })

  it("lists the operations with a JSON success response", () =>
    expect(jsonOperations.length).toBeGreaterThanOrEqual(45))

  it.each(jsonOperations)("$name has an example", ({ op }) =>
    expect(Object.keys(examples), `no example for ${op.operationId}`).toContain(op.operationId)
  )

  it("has no example for an operation that does not exist", () =>
    expect(Object.keys(examples).filter((id) => !successOf.has(id))).toEqual([]))

  it.each(Object.keys(examples).filter((id) => examples[id]!.answer !== undefined))(
    "%s: its example decodes with the success schema and is on the response",
    (id) => {
      const schema = successOf.get(id)
      expect(schema, `no operation ${id}`).toBeDefined()
      const value = exampleJson(id)
      expect(() => Schema.decodeUnknownSync(schema as Schema.Schema<unknown, unknown>)(value)).not.toThrow()
      const op = operations.find((o) => o.op.operationId === id)!.op
      const status = Object.keys(op.responses).find((code) => code.startsWith("2"))!
      const shown = Object.values<any>(op.responses[status].content["application/json"].examples)
      expect(shown.map(shownValue)).toEqual([value])
    }
  )

  /** What a text example must start with, by its media type. */
  const opening: Record<string, RegExp> = { "text/markdown": /^# /, "image/svg+xml": /^<svg / }

  it.each(Object.keys(examples).filter((id) => examples[id]!.text !== undefined))(
    "%s: its text example (markdown, SVG) is on the response",
    (id) => {
      const op = operations.find((o) => o.op.operationId === id)!.op
      const status = Object.keys(op.responses).find((code) => code.startsWith("2"))!
      const text = examples[id]!.text!
      const shown = Object.values<any>(op.responses[status].content[text.mediaType].examples)
      expect(shown.map(shownValue)).toEqual([text.answer()])
      expect(text.answer()).toMatch(opening[text.mediaType]!)
    }
  )

  it("has the same examples whenever they are computed: they stamp the example's instant, not the clock's", async () => {
    const answers = (of: typeof import("../../src/api/Examples.ts")) =>
      Object.keys(of.examples).map((id) => [id, of.exampleJson(id), of.examples[id]!.text?.answer()])
    const now = answers({ examples, exampleJson } as typeof import("../../src/api/Examples.ts"))
    vi.useFakeTimers({ now: new Date("2031-05-05T05:05:05.000Z") })
    try {
      vi.resetModules()
      expect(answers(await import("../../src/api/Examples.ts"))).toEqual(now)
    } finally {
      vi.useRealTimers()
    }
  })
})
