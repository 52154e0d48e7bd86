/** LOG_FORMAT=json: one JSON object per line, with the annotations and the span's ids. */
import { Effect, Logger } from "effect"
import { afterEach, describe, expect, it, vi } from "vitest"
import { jsonLogger } from "../../src/observe/LogFormat.ts"

afterEach(() => vi.restoreAllMocks())

const capture = async (effect: Effect.Effect<void>) => {
  const lines: Array<string> = []
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    lines.push(String(chunk))
    return true
  })
  await Effect.runPromise(effect.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, jsonLogger))))
  vi.restoreAllMocks()
  return lines
}

describe("the JSON log format", () => {
  it("writes level, message, timestamp, annotations and the span's ids on one line", async () => {
    const lines = await capture(
      Effect.logWarning("refused", "twice").pipe(
        Effect.annotateLogs({ requestId: "r-1", domain: "perfect.com" }),
        Effect.withSpan("a span")
      )
    )
    expect(lines).toHaveLength(1)
    expect(lines[0]!.endsWith("\n")).toBe(true)
    expect(lines[0]!.trimEnd()).not.toContain("\n")
    const line = JSON.parse(lines[0]!)
    expect(line).toMatchObject({
      level: "WARN",
      message: "refused twice",
      requestId: "r-1",
      domain: "perfect.com"
    })
    expect(new Date(line.timestamp).toISOString()).toBe(line.timestamp)
    expect(line.traceId).toMatch(/^[0-9a-f]+$/)
    expect(line.spanId).toMatch(/^[0-9a-f]+$/)
  })

  it("keeps a message with newlines, quotes and an error on one line", async () => {
    const lines = await capture(Effect.logError('bad "input"\nnext', new Error("boom")))
    expect(lines).toHaveLength(1)
    const line = JSON.parse(lines[0]!)
    expect(line.message).toBe('bad "input"\nnext Error: boom')
    expect(line.traceId).toBeUndefined()
  })
})
