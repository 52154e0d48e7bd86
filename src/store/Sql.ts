/**
 * Storage: one SQLite database at $DATA_DIR/domain-audit.sqlite in WAL mode, migrated at start-up.
 * Migrations are append-only; each issue that needs a table adds the next numbered entry.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { NodeContext } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import * as Migrator from "@effect/sql/Migrator"
import { SqliteClient, SqliteMigrator } from "@effect/sql-sqlite-node"
import { Effect, Layer } from "effect"
import { AppConfig } from "../Config.ts"
import { hallOfFameMigrations } from "./HallOfFame.ts"

export const migrations = {
  "0001_meta": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE app_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`
    yield* sql`INSERT INTO app_meta (key, value) VALUES ('created_at', ${new Date().toISOString()})`
  }),
  ...hallOfFameMigrations
}

/** An SQLite client for `filename`, with every migration applied. */
export const sqliteAt = (filename: string) => {
  const client = SqliteClient.layer({ filename })
  const migrated = SqliteMigrator.layer({ loader: Migrator.fromRecord(migrations) }).pipe(
    Layer.provide([client, NodeContext.layer])
  )
  return Layer.merge(client, migrated)
}

/** The app's database, under `AppConfig.dataDir`. */
export const SqlLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    const { dataDir } = yield* AppConfig
    yield* Effect.sync(() => mkdirSync(dataDir, { recursive: true }))
    return sqliteAt(join(dataDir, "domain-audit.sqlite"))
  })
)
