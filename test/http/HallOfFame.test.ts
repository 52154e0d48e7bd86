/**
 * GET /hall-of-fame over a database seeded with fixed results (the rules themselves are tested in
 * test/store/HallOfFame.test.ts): the SPEC's shape, newest run first, suppressed domains hidden.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HallOfFameStore } from "../../src/store/HallOfFame.ts"
import { sqliteAt } from "../../src/store/Sql.ts"
import { call, testApp } from "./harness.ts"

const dataDir = mkdtempSync(join(tmpdir(), "domain-audit-hof-http-"))
const T = Date.parse("2026-06-01T00:00:00.000Z")

const seed = Effect.gen(function* () {
  const store = yield* HallOfFameStore
  yield* store.record({ domain: "perfect.com", grade: "A+", score: 100, computedAtMs: T })
  yield* store.record({ domain: "perfect.org", grade: "A+", score: 100, computedAtMs: T + 1000 })
  yield* store.record({ domain: "dropped.org", grade: "A+", score: 100, computedAtMs: T })
  yield* store.record({ domain: "dropped.org", grade: "C", score: 75, computedAtMs: T + 2000 })
  yield* store.record({ domain: "hidden.org", grade: "A+", score: 100, computedAtMs: T })
  yield* store.suppress({ domain: "hidden.org", reason: "abuse", operator: "test", atMs: T })
}).pipe(
  Effect.provide(HallOfFameStore.Default.pipe(Layer.provide(sqliteAt(join(dataDir, "domain-audit.sqlite")))))
)

describe("GET /hall-of-fame", () => {
  it.effect("answers the stored A+ domains, newest run first, without the suppressed", () =>
    Effect.gen(function* () {
      yield* seed
      const r = yield* call("GET", "/api/hall-of-fame").pipe(Effect.provide(testApp({}, dataDir)))
      expect(r.status).toBe(200)
      expect(r.json).toEqual({
        entries: [
          { domain: "perfect.org", score: 100, grade: "A+", addedAt: T + 1000 },
          { domain: "perfect.com", score: 100, grade: "A+", addedAt: T }
        ],
        total: 2
      })
    })
  )
})
