/**
 * The generated regions of the docs (scripts/docs/Regions.ts: docs/scoring.md's rules,
 * docs/issues.md's catalogue, docs/architecture.md's registry) are what `npm run docs` writes from
 * the registry now; Prettier leaves them as they are; and writing one changes nothing outside its
 * markers.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { registry } from "../../src/checks/index.ts"
import type { Registered } from "../../src/kernel/Check.ts"
import { noRules, spec } from "../../src/kernel/Declaration.ts"
import {
  endMarker,
  format,
  pathOf,
  regionOf,
  regions,
  rendered,
  rulesTables,
  issuesTables,
  splice,
  startMarker
} from "../../scripts/docs/Regions.ts"

const read = (file: string) => readFileSync(pathOf(file), "utf8")

describe("the generated docs", () => {
  for (const region of regions)
    it(`${region.file}: its ${region.name} region is current`, async () => {
      expect(regionOf(read(region.file), region.name), `${region.file} is stale: run npm run docs`).toBe(
        await rendered(region, registry)
      )
    })

  for (const region of regions)
    it(`${region.file}: Prettier leaves its ${region.name} region as it is`, async () => {
      const text = read(region.file)
      const formatted = await format(text, pathOf(region.file))
      expect(regionOf(formatted, region.name)).toBe(regionOf(text, region.name))
    })

  it("escapes a pipe and a tag in a cell, and keeps a cell on one line", async () => {
    const toy = {
      id: "toy",
      title: "Toy | check",
      category: "dns",
      about: {
        rules: {
          ...noRules,
          specs: [
            spec({
              id: "dns.toy",
              title: "Toy",
              titleNl: "Speelgoed",
              category: "dns",
              maxPoints: 1,
              level: "recommended",
              rule: "a | b,\nthen c at <domain>, `<code>`",
              rank: 1
            })
          ]
        },
        issues: {
          toy_issue: { category: "dns", severity: "low", fixable: false, title: "T", description: "x | y" }
        }
      }
    } as unknown as Registered
    const rules = await format(rulesTables([toy]), pathOf("docs/scoring.md"))
    expect(rules).toContain("#### dns: 1 points")
    expect(rules).toMatch(
      /^\| `dns\.toy` +\| Toy +\| 1 +\| recommended +\| +\| a \\\| b, then c at \\<domain>, `<code>` +\|$/m
    )
    const issues = await format(issuesTables([toy]), pathOf("docs/issues.md"))
    expect(issues).toContain("## Toy | check: `toy`")
    expect(issues).toMatch(/^\| `toy_issue` +\| low +\| dns +\| T +\| no +\| x \\\| y +\|$/m)
  })
})

describe("writing a region", () => {
  const name = "rules"
  const before = "# Title\n\nHand-written *text*,  kept   as it is.\n\n| a |\n|-|\n\n"
  const after = "\n\nMore text\nwith | pipes and <!-- comments -->.\n"
  const doc = `${before}${startMarker(name)}\n\nold content\n\n${endMarker}${after}`

  it("changes only what lies between the markers", () => {
    const written = splice(doc, name, "new content")
    expect(written.startsWith(`${before}${startMarker(name)}`)).toBe(true)
    expect(written.endsWith(`${endMarker}${after}`)).toBe(true)
    expect(regionOf(written, name)).toBe("new content")
    expect(written).toBe(`${before}${startMarker(name)}\n\nnew content\n\n${endMarker}${after}`)
  })

  it("changes nothing when the region is current", () => {
    expect(splice(doc, name, "old content")).toBe(doc)
  })

  it("leaves the other regions of the doc alone", () => {
    const two = `${doc}${startMarker("other")}\n\nother content\n\n${endMarker}\n`
    const written = splice(two, name, "new content")
    expect(regionOf(written, "other")).toBe("other content")
    expect(written.slice(written.indexOf(startMarker("other")))).toBe(
      two.slice(two.indexOf(startMarker("other")))
    )
  })

  it("refuses a doc without the markers, rather than write elsewhere", () => {
    expect(() => splice("# Title\n", name, "x")).toThrow(/no marker/)
    expect(() => splice(`${startMarker(name)}\n\nx\n`, name, "x")).toThrow(/no <!-- end generated -->/)
  })
})
