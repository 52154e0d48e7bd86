/** docs/dnssec.md's two registry tables say what src/records/DnssecRegistry.ts does, number by number. */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { ALGORITHM_REGISTRY, DIGEST_REGISTRY, type RegistryRow } from "../../../src/records/DnssecRegistry.ts"

const doc = readFileSync(new URL("../../../docs/dnssec.md", import.meta.url), "utf8")
const section = (title: string) => doc.slice(doc.indexOf(title), doc.indexOf("\n## ", doc.indexOf(title) + 1))
/**
 * Rows `| n or a-b | name | use | validation | verdict | ... | implement (use) | implement (validation) |`,
 * expanded to one per number.
 */
const rows = (text: string) =>
  [
    ...text.matchAll(
      /^\| (\d+)(?:-(\d+))? \| ([^|]+) \| ([^|]+) \| ([^|]+) \| ([a-z]+) \|.*\| ([^|]+) \| ([^|]+) \|$/gm
    )
  ].flatMap((m) => {
    const from = Number(m[1])
    const to = m[2] ? Number(m[2]) : from
    return Array.from({ length: to - from + 1 }, (_, i) => ({
      number: from + i,
      name: m[3]!.trim(),
      use: m[4]!.trim(),
      validation: m[5]!.trim(),
      verdict: m[6]!,
      implementUse: m[7]!.trim(),
      implementValidation: m[8]!.trim()
    }))
  })
const same = (documented: ReturnType<typeof rows>, registry: ReadonlyArray<RegistryRow>) => {
  expect(documented.map((r) => r.number)).toEqual(registry.map((r) => r.number))
  for (const d of documented) {
    const r = registry[d.number]!
    expect([d.number, d.use, d.validation, d.verdict, d.implementUse, d.implementValidation]).toEqual([
      d.number,
      r.use,
      r.validation,
      r.verdict,
      r.implementUse,
      r.implementValidation
    ])
    if (r.kind === "assigned") expect(d.name).toBe(r.name)
  }
}

describe("docs/dnssec.md", () => {
  it("documents every DNSKEY algorithm number as the registry judges it", () =>
    same(rows(section("## DNSKEY algorithms")), ALGORITHM_REGISTRY))
  it("documents every DS digest type as the registry judges it", () =>
    same(rows(section("## DS digest types")), DIGEST_REGISTRY))
})
