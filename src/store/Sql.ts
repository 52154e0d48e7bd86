/**
 * Storage: one SQLite database at $DATA_DIR/domain-audit.sqlite in WAL mode, migrated at start-up.
 * Migrations are append-only; each issue that needs a table adds the next numbered entry.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { NodeContext } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import * as Migrator from "@effect/sql/Migrator"
import { SqliteMigrator } from "@effect/sql-sqlite-node"
import { Effect, Layer } from "effect"
import { AppConfig } from "../Config.ts"
import { appendOnly } from "./AppendOnly.ts"
import { dmarcRollupMigrations } from "./DmarcRollup.ts"
import { failureReportMigrations } from "./FailureReports.ts"
import { hallOfFameMigrations } from "./HallOfFame.ts"
import { historyMigrations } from "./HistoryTable.ts"
import { sqliteLayer } from "./SqliteConnection.ts"
import { inboundReportMigrations } from "./InboundReports.ts"
import { reportAuthenticityMigrations } from "./ReportAuthenticity.ts"
import { unclaimedReportMigrations } from "./UnclaimedReports.ts"

export const migrations = {
  "0001_meta": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE app_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`
    yield* sql`INSERT INTO app_meta (key, value) VALUES ('created_at', ${new Date().toISOString()})`
  }),
  // Report snapshots (docs/reports.md): the canonical JSON bytes as stored and served, written once.
  "0002_report_snapshots": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE report_snapshot (
      id TEXT PRIMARY KEY,
      domain TEXT NOT NULL,
      content_hash TEXT NOT NULL CHECK (content_hash GLOB 'sha256:*'),
      format_version TEXT NOT NULL,
      created_at TEXT NOT NULL,
      body BLOB NOT NULL
    )`
    yield* sql`CREATE INDEX report_snapshot_dedupe ON report_snapshot (domain, content_hash, created_at)`
  }),
  // The operator's removal log: a snapshot can only be deleted after its removal is logged here.
  "0003_report_snapshot_removals": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE report_snapshot_removal (
      snapshot_id TEXT PRIMARY KEY,
      domain TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      reason TEXT NOT NULL CHECK (length(trim(reason)) > 0),
      operator TEXT NOT NULL,
      removed_at TEXT NOT NULL
    )`
    yield* appendOnly(sql, "report_snapshot_removal", "the snapshot removal log is append-only")
  }),
  // Immutability in the database itself: no UPDATE ever, no DELETE without a logged removal.
  "0004_report_snapshot_immutable": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TRIGGER report_snapshot_no_update BEFORE UPDATE ON report_snapshot
      BEGIN SELECT RAISE(ABORT, 'report snapshots are immutable'); END`
    yield* sql`CREATE TRIGGER report_snapshot_no_delete BEFORE DELETE ON report_snapshot
      WHEN NOT EXISTS (SELECT 1 FROM report_snapshot_removal WHERE snapshot_id = OLD.id)
      BEGIN SELECT RAISE(ABORT, 'report snapshots are immutable: removal needs the logged operator command'); END`
  }),
  ...hallOfFameMigrations,
  ...historyMigrations,
  ...inboundReportMigrations,
  ...failureReportMigrations,
  ...reportAuthenticityMigrations,
  ...unclaimedReportMigrations,
  ...dmarcRollupMigrations
}

/** An SQLite client for `filename`, with every migration applied. */
export const sqliteAt = (filename: string) => {
  const client = sqliteLayer({ filename })
  const migrated = SqliteMigrator.layer({ loader: Migrator.fromRecord(migrations) }).pipe(
    Layer.provide([client, NodeContext.layer])
  )
  return Layer.merge(client, migrated)
}

/** The database file under a data directory. */
export const databaseFile = (dataDir: string) => join(dataDir, "domain-audit.sqlite")

/** The app's database, under `AppConfig.dataDir`. */
export const SqlLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    const { dataDir } = yield* AppConfig
    yield* Effect.sync(() => mkdirSync(dataDir, { recursive: true }))
    return sqliteAt(databaseFile(dataDir))
  })
)
