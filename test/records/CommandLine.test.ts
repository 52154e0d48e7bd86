import { describe, expect, it } from "vitest"
import { Either } from "effect"
import fc from "fast-check"
import { readArgv } from "../../src/records/CommandLine.ts"
import { runs } from "../support/runs.ts"

describe("readArgv", () => {
  it("reads the options, the positionals and --help", () => {
    const read = Either.getOrThrow(
      readArgv(["-h", "--out", "x.jsonl", "list.txt"], { out: { type: "string" } })
    )
    expect(read.values).toEqual({ help: true, out: "x.jsonl" })
    expect(read.positionals).toEqual(["list.txt"])
  })

  it("answers an unknown option with node's message, never a throw", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 6 }), (argv) => {
        const read = readArgv(argv, { json: { type: "boolean" } })
        if (Either.isLeft(read)) expect(read.left.length).toBeGreaterThan(0)
      }),
      { numRuns: runs(200) }
    )
    expect(Either.getLeft(readArgv(["--nope"], {}))._tag).toBe("Some")
  })
})
