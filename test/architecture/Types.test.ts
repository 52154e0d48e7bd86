/**
 * The types of src/ say what they hold: no `any` and no double cast through `unknown` (the grep
 * `as unknown as|: any\b|<any>` prints nothing). Where a library forces a cast, Effect's typed
 * `unsafeCoerce` does it, in the modules named below and nowhere else.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Spf } from "../../src/checks/spf/Spf.ts"
import { runCheck, scan, withFacts } from "../../src/scan/Scanner.ts"
import { readTree, type SourceTree } from "./ImportRules.ts"

const tree = readTree(new URL("../../src", import.meta.url).pathname)

/** What the grep looks for: a type that holds anything, or a cast that claims anything. */
const UNTYPED = /as unknown as|: any\b|<any>/

/** The modules where a library forces a cast, and why. */
const COERCED: Readonly<Record<string, string>> = {
  "observe/Prometheus.ts":
    "the Prometheus exporter brings its own copy of @opentelemetry/sdk-metrics: the same MetricReader under another declaration; and its request handler, which writes a scrape for HEALTH_PORT's thread, takes node's request and response types where it uses a method, statusCode, setHeader and end",
  "report/PdfLayout.ts": "pdfkit keeps the parsed font on a member its types do not declare",
  "store/SqliteConnection.ts":
    "a copy of @effect/sql-sqlite-node's client, assembled as the library assembles it: its connection's methods are generic in the row type, and its SqliteClient declares `updateValues` never"
}

/** Each line of the tree that breaks the rule, as `path:line: text`. */
const untyped = (sources: SourceTree): ReadonlyArray<string> =>
  [...sources].flatMap(([path, text]) =>
    text.split("\n").flatMap((line, i) => {
      const coerced = /\bunsafeCoerce\b/.test(line) && !Object.hasOwn(COERCED, path)
      return UNTYPED.test(line) || coerced ? [`${path}:${i + 1}: ${line.trim()}`] : []
    })
  )

describe("types that say what they hold", () => {
  it("src/ has no any and no cast through unknown", () => {
    expect(tree.size).toBeGreaterThan(100)
    expect(untyped(tree)).toEqual([])
  })

  it("declares errors as Schema.TaggedError, never Data.TaggedError (an error's fields are a Schema)", () => {
    const data = [...tree].flatMap(([path, text]) => (/\bData\.TaggedError\b/.test(text) ? [path] : []))
    expect(data).toEqual([])
  })

  it("each module allowed a coercion uses it", () => {
    for (const path of Object.keys(COERCED)) expect(tree.get(path), path).toMatch(/\bunsafeCoerce\b/)
  })

  it("finds each form when it is written", () => {
    const broken: SourceTree = new Map([
      ["a/A.ts", "const a: any = 1"],
      ["b/B.ts", "const b = new Map<any>()"],
      ["c/C.ts", "const c = x as unknown as number"],
      ["d/D.ts", `import { unsafeCoerce } from "effect/Function"`],
      ["observe/Prometheus.ts", `import { unsafeCoerce } from "effect/Function"`],
      ["e/E.ts", "const many = 1 // any text: a comment without the colon form passes"]
    ])
    expect(untyped(broken)).toEqual([
      "a/A.ts:1: const a: any = 1",
      "b/B.ts:1: const b = new Map<any>()",
      "c/C.ts:1: const c = x as unknown as number",
      `d/D.ts:1: import { unsafeCoerce } from "effect/Function"`
    ])
  })

  it("a Domain is made only by normaliseDomain: no cast to it elsewhere in src/", () => {
    const casts = [...tree].flatMap(([path, text]) =>
      text.split("\n").flatMap((line, i) => (/\bas Domain\b/.test(line) ? [`${path}:${i + 1}`] : []))
    )
    expect(casts.map((at) => at.split(":")[0])).toEqual(["records/DomainName.ts"])
  })

  it("the engine's entry points take a Domain, not any string (checked by tsc)", () => {
    const unchecked = (text: string) => [
      // @ts-expect-error: a string that did not pass normaliseDomain is no Domain
      scan(text),
      // @ts-expect-error: as for the scan, so for one check
      runCheck(Spf, text),
      // @ts-expect-error: and for the composites' Facts
      withFacts(text, Effect.void)
    ]
    expect(unchecked).toBeTypeOf("function")
  })
})
