import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { Categories } from "../../src/kernel/Check.ts"
import { registry } from "../../src/checks/index.ts"

const doc = readFileSync(new URL("../../docs/architecture.md", import.meta.url), "utf8")
/** The rows of the "The checks" table: id and category. */
const documented = [...doc.matchAll(/^\| `([a-z0-9-]+)` \| ([a-z0-9]+) \|/gm)].map((m) => [m[1], m[2]])

describe("the registry", () => {
  it("has one entry per id, each in a known category", () => {
    const ids = registry.map((c) => c.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const c of registry) expect(Categories).toContain(c.category)
  })

  it("is what docs/architecture.md lists, in the same order", () => {
    expect(documented).toEqual(registry.map((c) => [c.id, c.category]))
  })
})
