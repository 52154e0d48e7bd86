/**
 * The snapshot store over a real SQLite file: write once, dedupe within the window, re-verify on
 * every read (tampered bytes are refused), and removal only through the logged operator path
 * (the store's `remove` and the `snapshot:remove` command).
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, TestClock } from "effect"
import { SnapshotStore } from "../../src/report/SnapshotStore.ts"
import { sqliteAt } from "../../src/store/Sql.ts"
import { withDb } from "./db.ts"

const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), "domain-audit-snapshots-"))
  const file = join(dir, "domain-audit.sqlite")
  return { dir, file, layer: SnapshotStore.Default.pipe(Layer.provide(sqliteAt(file))) }
}

const draft = (content: Record<string, unknown>, domain = "perfect.com") => ({
  domain,
  formatVersion: "test/1",
  content,
  document: (s: { id: string; contentHash: string; createdAt: string }) => ({
    ...content,
    evidence: { snapshotId: s.id, contentHash: s.contentHash, createdAt: s.createdAt }
  })
})

describe("SnapshotStore", () => {
  it.effect("stores canonical bytes once and reads them back verified", () => {
    const db = fresh()
    return Effect.gen(function* () {
      const store = yield* SnapshotStore
      const { snapshot, reused } = yield* store.create(draft({ z: 1, a: [2, { y: "ü", b: null }] }), 0)
      expect(reused).toBe(false)
      expect(snapshot.body.startsWith('{"a":[2,{"b":null,"y":"ü"}],"evidence":{')).toBe(true)
      const read = yield* store.get(snapshot.id)
      expect(read).toEqual({ _tag: "Found", snapshot })
      expect(yield* store.get("no-such-id")).toEqual({ _tag: "Absent" })
    }).pipe(Effect.provide(db.layer))
  })

  it.effect("returns the existing snapshot for the same content within the dedupe window only", () => {
    const db = fresh()
    return Effect.gen(function* () {
      const store = yield* SnapshotStore
      yield* TestClock.setTime(1_000_000)
      const first = yield* store.create(draft({ a: 1 }), 60_000)
      yield* TestClock.adjust("30 seconds")
      const same = yield* store.create(draft({ a: 1 }), 60_000)
      const otherDomain = yield* store.create(draft({ a: 1 }, "other.com"), 60_000)
      const otherContent = yield* store.create(draft({ a: 2 }), 60_000)
      yield* TestClock.adjust("31 seconds")
      const later = yield* store.create(draft({ a: 1 }), 60_000)
      expect(same).toEqual({ snapshot: first.snapshot, reused: true })
      expect(otherDomain.reused).toBe(false)
      expect(otherContent.reused).toBe(false)
      expect(later.reused).toBe(false)
      expect(later.snapshot.id).not.toBe(first.snapshot.id)
      expect(later.snapshot.contentHash).toBe(first.snapshot.contentHash)
    }).pipe(Effect.provide(db.layer))
  })

  it.effect("refuses to serve bytes that no longer match their hash", () => {
    const db = fresh()
    return Effect.gen(function* () {
      const store = yield* SnapshotStore
      const { snapshot } = yield* store.create(draft({ grade: "F" }), 0)
      // Someone with the file drops the trigger and edits the report: the read must notice.
      yield* withDb(db.file, (sql) =>
        Effect.gen(function* () {
          yield* sql`DROP TRIGGER report_snapshot_no_update`
          yield* sql`UPDATE report_snapshot SET body = ${Buffer.from(snapshot.body.replace('"F"', '"A"'))} WHERE id = ${snapshot.id}`
        })
      )
      const error = yield* Effect.flip(store.get(snapshot.id))
      expect(error._tag).toBe("SnapshotCorrupt")
      expect(error.reason).toMatch(/hashes to sha256:/)
    }).pipe(Effect.provide(db.layer))
  })

  it.effect("removes only through the logged path, and the log is append-only", () => {
    const db = fresh()
    return Effect.gen(function* () {
      const store = yield* SnapshotStore
      const { snapshot } = yield* store.create(draft({ a: 1 }), 0)
      const emptyReason = yield* Effect.flip(store.remove(snapshot.id, " ", "ops"))
      expect(String(emptyReason.cause)).toMatch(/CHECK constraint/)
      expect((yield* store.get(snapshot.id))._tag).toBe("Found")
      const removed = yield* store.remove(snapshot.id, "court order 12/34", "ops")
      expect(Option.getOrThrow(removed)).toMatchObject({ id: snapshot.id, contentHash: snapshot.contentHash })
      expect((yield* store.get(snapshot.id))._tag).toBe("Removed")
      expect(Option.isNone(yield* store.remove(snapshot.id, "again", "ops"))).toBe(true)
      const refusals = yield* withDb(db.file, (sql) =>
        Effect.all([
          Effect.flip(sql`UPDATE report_snapshot_removal SET reason = 'nothing'`),
          Effect.flip(sql`DELETE FROM report_snapshot_removal`)
        ])
      )
      for (const r of refusals) expect(String(r.cause)).toMatch(/append-only/)
    }).pipe(Effect.provide(db.layer))
  })

  it.effect(
    "the snapshot:remove command removes with a reason and prints one log line",
    () => {
      const db = fresh()
      return Effect.gen(function* () {
        const store = yield* SnapshotStore
        const { snapshot } = yield* store.create(draft({ a: 1 }), 0)
        const run = (args: Array<string>) => {
          try {
            const out = execFileSync(
              join(process.cwd(), "node_modules/.bin/tsx"),
              ["scripts/ops/snapshot-remove.ts", ...args],
              {
                env: { ...process.env, DATA_DIR: db.dir },
                encoding: "utf8",
                stdio: ["ignore", "pipe", "pipe"]
              }
            )
            return { status: 0, out }
          } catch (e: any) {
            return { status: e.status as number, out: String(e.stderr) }
          }
        }
        expect(run([snapshot.id]).status).toBe(2) // no reason: refused before touching anything
        expect((yield* store.get(snapshot.id))._tag).toBe("Found")
        const done = run([snapshot.id, "--reason", "abuse report 7", "--operator", "alice"])
        expect(done.status).toBe(0)
        expect(JSON.parse(done.out.trim())).toMatchObject({
          event: "snapshot-remove",
          result: "removed",
          id: snapshot.id,
          reason: "abuse report 7",
          operator: "alice"
        })
        expect((yield* store.get(snapshot.id))._tag).toBe("Removed")
      }).pipe(Effect.provide(db.layer))
    },
    60_000
  )
})
