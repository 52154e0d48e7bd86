import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { migrations, sqliteAt } from "../../src/store/Sql.ts"

describe("storage", () => {
  const file = join(mkdtempSync(join(tmpdir(), "domain-audit-sql-")), "test.sqlite")

  it.effect("runs every migration on a new database, in WAL mode", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const applied = yield* sql<{ migration_id: number; name: string }>`
        SELECT migration_id, name FROM effect_sql_migrations ORDER BY migration_id`
      expect(applied.map((row) => `${String(row.migration_id).padStart(4, "0")}_${row.name}`)).toEqual(
        Object.keys(migrations)
      )
      const [mode] = yield* sql<{ journal_mode: string }>`PRAGMA journal_mode`
      expect(mode?.journal_mode).toBe("wal")
      const [created] = yield* sql<{ value: string }>`SELECT value FROM app_meta WHERE key = 'created_at'`
      expect(Number.isNaN(Date.parse(created?.value ?? ""))).toBe(false)
    }).pipe(Effect.provide(sqliteAt(file)))
  )

  it.effect("is idempotent when the app restarts on the same file", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ n: number }>`SELECT count(*) AS n FROM app_meta`
      expect(rows[0]?.n).toBe(1)
    }).pipe(Effect.provide(sqliteAt(file)))
  )
})
