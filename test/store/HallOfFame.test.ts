/**
 * The hall of fame's rules over the database (docs/presentation.md), with fixed times: an A+ result
 * adds a domain, a later lower one removes it, `addedAt` is the start of the current A+ run, an older
 * result never overrides a newer one, and a suppression hides a domain until it is lifted.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { Effect, Layer } from "effect"
import { HallOfFameStore } from "../../src/store/HallOfFame.ts"
import { sqliteAt } from "../../src/store/Sql.ts"

const fresh = () =>
  HallOfFameStore.Default.pipe(
    Layer.provideMerge(sqliteAt(join(mkdtempSync(join(tmpdir(), "domain-audit-hof-")), "test.sqlite")))
  )

const T = Date.parse("2026-06-01T00:00:00.000Z")
const minutes = (n: number) => T + n * 60_000
const aPlus = (domain: string, at: number) => ({ domain, grade: "A+", score: 100, computedAtMs: at })
const lower = (domain: string, at: number, grade = "B") => ({ domain, grade, score: 85, computedAtMs: at })
const operator = (domain: string, atMs: number) => ({
  domain,
  reason: "legal request",
  operator: "test",
  atMs
})

describe("HallOfFameStore", () => {
  it.effect(
    "adds a domain on A+, keeps the run's start, drops it on a lower result, dates a new run anew",
    () =>
      Effect.gen(function* () {
        const store = yield* HallOfFameStore
        expect(yield* store.list).toEqual({ entries: [], total: 0 })
        yield* store.record(aPlus("perfect.com", minutes(0)))
        yield* store.record(aPlus("perfect.com", minutes(5)))
        expect(yield* store.list).toEqual({
          entries: [{ domain: "perfect.com", score: 100, grade: "A+", addedAt: minutes(0) }],
          total: 1
        })
        yield* store.record(lower("perfect.com", minutes(10)))
        expect((yield* store.list).total).toBe(0)
        yield* store.record(aPlus("perfect.com", minutes(20)))
        expect((yield* store.list).entries).toEqual([
          { domain: "perfect.com", score: 100, grade: "A+", addedAt: minutes(20) }
        ])
      }).pipe(Effect.provide(fresh()))
  )

  it.effect("ignores a result older than the stored one (scans finishing out of order)", () =>
    Effect.gen(function* () {
      const store = yield* HallOfFameStore
      yield* store.record(aPlus("perfect.com", minutes(10)))
      yield* store.record(lower("perfect.com", minutes(5), "F"))
      yield* store.record(aPlus("perfect.com", minutes(10))) // the same result again: no change
      expect((yield* store.list).entries).toEqual([
        { domain: "perfect.com", score: 100, grade: "A+", addedAt: minutes(10) }
      ])
    }).pipe(Effect.provide(fresh()))
  )

  it.effect("lists newest run first; total counts the entries", () =>
    Effect.gen(function* () {
      const store = yield* HallOfFameStore
      yield* store.record(aPlus("old.example.org", minutes(1)))
      yield* store.record(aPlus("perfect.com", minutes(3)))
      yield* store.record(aPlus("perfect.org", minutes(3)))
      yield* store.record(lower("unsigned.net", minutes(4)))
      const list = yield* store.list
      expect(list.entries.map((e) => e.domain)).toEqual(["perfect.com", "perfect.org", "old.example.org"])
      expect(list.total).toBe(3)
    }).pipe(Effect.provide(fresh()))
  )

  it.effect(
    "a suppression hides a domain, through later A+ results, until it is lifted; both are logged",
    () =>
      Effect.gen(function* () {
        const store = yield* HallOfFameStore
        const sql = yield* SqlClient.SqlClient
        yield* store.record(aPlus("perfect.com", minutes(0)))
        yield* store.suppress(operator("perfect.com", minutes(1)))
        yield* store.record(aPlus("perfect.com", minutes(2)))
        expect((yield* store.list).total).toBe(0)
        expect((yield* store.suppressions).map((s) => s.domain)).toEqual(["perfect.com"])
        expect(yield* store.lift(operator("perfect.com", minutes(3)))).toBe(true)
        expect(yield* store.lift(operator("perfect.com", minutes(4)))).toBe(false)
        // the run went on underneath: addedAt is still its start
        expect((yield* store.list).entries).toEqual([
          { domain: "perfect.com", score: 100, grade: "A+", addedAt: minutes(0) }
        ])
        const log = yield* sql<{ action: string; at: number }>`
        SELECT action, at FROM hall_of_fame_operator_log ORDER BY id`
        expect(log.map((l) => [l.action, Number(l.at)])).toEqual([
          ["suppress", minutes(1)],
          ["lift", minutes(3)]
        ])
      }).pipe(Effect.provide(fresh()))
  )

  it.effect("the operator log refuses UPDATE and DELETE", () =>
    Effect.gen(function* () {
      const store = yield* HallOfFameStore
      const sql = yield* SqlClient.SqlClient
      yield* store.suppress(operator("perfect.com", minutes(1)))
      const update = yield* Effect.flip(sql`UPDATE hall_of_fame_operator_log SET reason = 'edited'`)
      expect(String(update.cause)).toContain("append-only")
      const remove = yield* Effect.flip(sql`DELETE FROM hall_of_fame_operator_log`)
      expect(String(remove.cause)).toContain("append-only")
      const [row] = yield* sql<{ reason: string }>`SELECT reason FROM hall_of_fame_operator_log`
      expect(row?.reason).toBe("legal request")
    }).pipe(Effect.provide(fresh()))
  )

  it.effect("agrees with the rule for any sequence of results, in any arrival order", () =>
    Effect.gen(function* () {
      const store = yield* HallOfFameStore
      const results = fc.array(
        fc.record({
          grade: fc.constantFrom("A+", "A+", "A", "B", "F"),
          minute: fc.integer({ min: 0, max: 50 })
        }),
        { minLength: 1, maxLength: 12 }
      )
      const samples = fc.sample(results, { numRuns: 60, seed: 15 })
      for (const [i, sample] of samples.entries()) {
        const domain = `d${i}.example.org`
        for (const r of sample)
          yield* store.record({ domain, grade: r.grade, score: 0, computedAtMs: minutes(r.minute) })
        // the rule: results in arrival order, each kept only when newer than every earlier one;
        // listed iff the newest kept is A+, since the first of the trailing run of A+ results
        const kept = sample.filter((r, j) => sample.slice(0, j).every((e) => e.minute < r.minute))
        let since: number | null = null
        for (const r of kept) since = r.grade === "A+" ? (since ?? r.minute) : null
        const entry = (yield* store.list).entries.find((e) => e.domain === domain)
        expect([domain, entry?.addedAt ?? null]).toEqual([domain, since === null ? null : minutes(since)])
      }
    }).pipe(Effect.provide(fresh()))
  )
})
