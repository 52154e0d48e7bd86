/** The registry's ids are unique and its categories known; docs/architecture.md's table of it is generated (test/docs). */
import { describe, expect, it } from "vitest"
import { Categories } from "../../src/kernel/Check.ts"
import { registry } from "../../src/checks/index.ts"

describe("the registry", () => {
  it("has one entry per id, each in a known category", () => {
    const ids = registry.map((c) => c.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const c of registry) expect(Categories).toContain(c.category)
  })
})
