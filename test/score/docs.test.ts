/** docs/scoring.md's table of checks and docs/issues.md are the code's rules and catalogue, row for row. */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { catalogue } from "../../src/score/Catalogue.ts"
import { registry } from "../../src/checks/index.ts"
import { specsOf } from "../../src/score/Rules.ts"

const read = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), "utf8")
const cells = (line: string) =>
  line
    .split("|")
    .slice(1, -1)
    .map((c) => c.trim())

describe("the scoring documentation", () => {
  it("lists every check with its category, points, level, criticality and rule", () => {
    const documented = read("scoring.md")
      .split("\n")
      .filter((l) => /^\| [a-z0-9]+ \| `[a-z0-9_.]+` \|/.test(l))
      .map(cells)
    const specs = specsOf(registry).map((s) => [
      s.category,
      `\`${s.id}\``,
      s.title,
      String(s.maxPoints),
      s.level,
      s.critical ? "yes" : "",
      s.rule
    ])
    // The table groups the rules by theme; the score lists them by category and rank.
    const byId = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a[1]!.localeCompare(b[1]!)
    expect([...documented].sort(byId)).toEqual([...specs].sort(byId))
  })

  it("lists every issue of the catalogue in docs/issues.md, and nothing else", () => {
    const documented = read("issues.md")
      .split("\n")
      .filter((l) => /^\| `[a-z0-9_]+` \|/.test(l))
      .map(cells)
    // The table groups the issues by theme; the catalogue lists them check by check.
    const byId = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a[0]!.localeCompare(b[0]!)
    expect([...documented].sort(byId)).toEqual(
      Object.entries(catalogue)
        .map(([id, e]) => [
          `\`${id}\``,
          e.severity,
          e.category,
          e.title,
          e.fixable ? "yes" : "no",
          e.description
        ])
        .sort(byId)
    )
  })
})
