/**
 * The layer rules of docs/architecture.md hold over src/, and the checker that says so fails when
 * one is broken: each rule is broken on purpose in a copy of the real tree (one added import), and
 * a small made-up tree shows which forms of import count.
 */
import { posix } from "node:path"
import { describe, expect, it } from "vitest"
import {
  circles,
  importsOf,
  readTree,
  registryOrder,
  rules,
  type SourceTree,
  upwardCheckImports,
  valueImportsOf,
  violations
} from "./ImportRules.ts"

const tree = readTree(new URL("../../src", import.meta.url).pathname)

const matches = (path: string, prefix: string) =>
  prefix.endsWith("/") ? path.startsWith(prefix) : path === prefix

/** How `from` would import `to`: a relative specifier to a module of the tree, or the package itself. */
const specifier = (from: string, to: string) => {
  if (!tree.has(to)) return to
  const relative = posix.relative(posix.dirname(from), to)
  return relative.startsWith(".") ? relative : `./${relative}`
}

describe("the layer rules", () => {
  it("hold over src/", () => {
    expect(tree.size).toBeGreaterThan(100)
    expect(violations(tree)).toEqual([])
  })

  it("read every import of the real tree", () => {
    // a module every scan reaches: the registry of checks, through the Scanner
    expect(importsOf(tree)).toContainEqual({ from: "scan/Scanner.ts", to: "checks/index.ts" })
  })

  describe.each(rules.map((rule) => [rule.name, rule] as const))(
    "fail when broken on purpose: %s",
    (_, rule) => {
      it("reports the one added import", () => {
        const from = [...tree.keys()].find(
          (path) =>
            rule.from.some((p) => matches(path, p)) && !(rule.except ?? []).some((p) => matches(path, p))
        )
        expect(from, "a module the rule governs").toBeDefined()
        const forbidden = rule.forbidden[0]!
        const to = forbidden.endsWith("/")
          ? [...tree.keys()].find((path) => path.startsWith(forbidden))
          : forbidden
        expect(to, "a module the rule forbids").toBeDefined()
        const broken: SourceTree = new Map(tree).set(
          from!,
          `import { x } from "${specifier(from!, to!)}"\n${tree.get(from!)!}`
        )
        expect(violations(broken)).toContainEqual({ rule: rule.name, from, to })
        expect(violations(broken).filter((v) => v.rule === rule.name)).toHaveLength(1)
      })
    }
  )
})

/** The tree with `line` added at the top of the module `at`. */
const withImport = (at: string, line: string): SourceTree =>
  new Map(tree).set(at, `${line}\n${tree.get(at)!}`)

describe("no circle", () => {
  it("in src/, type-only imports included", () => {
    expect(circles(tree)).toEqual([])
  })

  it("is found when one type-only import closes one (the kernel naming the registry)", () => {
    const broken = withImport("kernel/Check.ts", `import type { Registry } from "../checks/index.ts"`)
    const found = circles(broken)
    expect(found).toHaveLength(1)
    expect(found[0]).toContain("kernel/Check.ts")
    expect(found[0]).toContain("checks/index.ts")
  })

  it("is found in a made-up tree of two modules that import each other's types", () => {
    const twoModules: SourceTree = new Map([
      ["a/A.ts", `import type { B } from "../b/B.ts"\nexport type A = B`],
      ["b/B.ts", `import type { A } from "../a/A.ts"\nexport type B = A`],
      ["c/C.ts", `import type { A } from "../a/A.ts"`]
    ])
    expect(circles(twoModules)).toEqual([["a/A.ts", "b/B.ts"]])
  })
})

describe("inside checks/", () => {
  it("the order is the registry's, read from checks/index.ts", () => {
    const order = registryOrder(tree)
    expect(order[0]).toBe("dns")
    expect(order).toContain("smtp-tls")
    expect(order.indexOf("fcrdns")).toBeLessThan(order.indexOf("smtp-tls"))
  })

  it("no import runs upward", () => {
    expect(upwardCheckImports(tree)).toEqual([])
  })

  it("a value import of a check later in the registry is upward; a type import of its result is not", () => {
    const byValue = withImport("checks/dns/Lookup.ts", `import { Takeover } from "../takeover/Takeover.ts"`)
    expect(upwardCheckImports(byValue)).toEqual([
      {
        rule: "a check folder imports another by value only when that check comes earlier in the registry",
        from: "checks/dns/Lookup.ts",
        to: "checks/takeover/Takeover.ts"
      }
    ])
    const byType = withImport(
      "checks/dns/Rules.ts",
      `import type { TakeoverResult } from "../takeover/TakeoverResult.ts"`
    )
    expect(upwardCheckImports(byType)).toEqual([])
  })

  it("no check folder imports the registry", () => {
    const broken = withImport("checks/spf/Rules.ts", `import type { Registry } from "../index.ts"`)
    expect(upwardCheckImports(broken)).toContainEqual({
      rule: "no check folder imports the registry",
      from: "checks/spf/Rules.ts",
      to: "checks/index.ts"
    })
  })

  it("tells value imports from type-only ones", () => {
    const fixture: SourceTree = new Map([
      [
        "checks/toy/Toy.ts",
        [
          `import type { A } from "../a/A.ts"`,
          `import { type B, type C } from "../b/B.ts"`,
          `import { type D, e } from "../d/D.ts"`,
          `export type { F } from "../f/F.ts"`,
          `export { g } from "../g/G.ts"`
        ].join("\n")
      ]
    ])
    expect(valueImportsOf(fixture).map((e) => e.to)).toEqual(["checks/d/D.ts", "checks/g/G.ts"])
  })
})

describe("the import checker", () => {
  const fixture: SourceTree = new Map([
    [
      "checks/toy/Toy.ts",
      [
        `/** A comment that says import "../../http/Server.ts" is not an import. */`,
        `import type { Shape } from "../../generate/ToyGenerator.ts"`,
        `export { helper } from "../../scan/Scanner.ts"`,
        `const later = () => import("../../report/Everything.ts")`,
        `const text = 'from "../../store/Sql.ts"'`,
        `import { Facts } from "../../kernel/Facts.ts"`,
        `import * as net from "node:net"`
      ].join("\n")
    ],
    ["records/Toy.ts", `import { Resolver } from "../net/Resolver.ts"`],
    [
      "http/handlers/Toy.ts",
      `import { Layers } from "../../Layers.ts"\nimport { Spf } from "../../checks/spf/Spf.ts"`
    ]
  ])

  it("counts static, type-only, re-exported and dynamic imports, resolved under src/, and no comment or string", () => {
    expect(importsOf(fixture).filter((e) => e.from === "checks/toy/Toy.ts")).toEqual([
      { from: "checks/toy/Toy.ts", to: "generate/ToyGenerator.ts" },
      { from: "checks/toy/Toy.ts", to: "scan/Scanner.ts" },
      { from: "checks/toy/Toy.ts", to: "report/Everything.ts" },
      { from: "checks/toy/Toy.ts", to: "kernel/Facts.ts" },
      { from: "checks/toy/Toy.ts", to: "node:net" }
    ])
  })

  it("names each broken rule, and nothing that keeps them", () => {
    const found = violations(fixture).map(({ from, to }) => `${from} -> ${to}`)
    expect(found.sort()).toEqual(
      [
        "checks/toy/Toy.ts -> generate/ToyGenerator.ts",
        "checks/toy/Toy.ts -> scan/Scanner.ts",
        "checks/toy/Toy.ts -> report/Everything.ts",
        "checks/toy/Toy.ts -> node:net",
        "records/Toy.ts -> net/Resolver.ts",
        "http/handlers/Toy.ts -> Layers.ts",
        "http/handlers/Toy.ts -> checks/spf/Spf.ts"
      ].sort()
    )
  })
})

describe("the source files", () => {
  const entryPoints = new Set(["main.ts"])
  /**
   * What every check folder declares about its check, under the same names (kernel/Declaration.ts),
   * and its example for example.com (`Example.ts`, kernel/Check.ts).
   */
  const checkDeclarations = new Set([
    "About.ts",
    "Rules.ts",
    "Issues.ts",
    "Findings.ts",
    "Guidance.ts",
    "Example.ts"
  ])
  const sameMeaning = (path: string, name: string) =>
    entryPoints.has(name) || (checkDeclarations.has(name) && /^checks\/[^/]+\/[^/]+$/.test(path))

  it("never share a file name with different meanings", () => {
    const byName = new Map<string, Array<string>>()
    for (const path of tree.keys()) {
      const name = posix.basename(path)
      if (!sameMeaning(path, name)) byName.set(name, [...(byName.get(name) ?? []), path])
    }
    expect([...byName.values()].filter((paths) => paths.length > 1)).toEqual([])
  })

  it("stay under 400 lines", () => {
    const long = [...tree]
      .map(([path, text]) => ({ path, lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0) }))
      .filter(({ path, lines }) => lines > 400)
    expect(long).toEqual([])
  })
})
