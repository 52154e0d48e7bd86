/**
 * The table of the scans' history (monitor/HistoryStore.ts reads and writes it): one row per entry,
 * keyed by domain and seq, append-only in the database itself as report snapshots are.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { appendOnly } from "./AppendOnly.ts"

/** Migration 0008, appended to `store/Sql.ts`'s list. */
export const historyMigrations = {
  "0008_scan_history": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE scan_history (
      domain TEXT NOT NULL,
      seq INTEGER NOT NULL CHECK (seq >= 1),
      scanned_at TEXT NOT NULL,
      grade TEXT NOT NULL,
      percentage INTEGER NOT NULL,
      content_hash TEXT NOT NULL CHECK (content_hash GLOB 'sha256:*'),
      previous_hash TEXT,
      hash TEXT NOT NULL CHECK (hash GLOB 'sha256:*'),
      packing TEXT NOT NULL CHECK (packing IN ('whole', 'delta')),
      body BLOB NOT NULL,
      PRIMARY KEY (domain, seq)
    )`
    yield* appendOnly(sql, "scan_history", "the scan history is append-only")
    // Only the next link of the chain: seq one past the domain's last, naming that entry's hash.
    yield* sql`CREATE TRIGGER scan_history_next_only BEFORE INSERT ON scan_history
      WHEN NEW.seq <> coalesce((SELECT max(seq) FROM scan_history WHERE domain = NEW.domain), 0) + 1
        OR NEW.previous_hash IS NOT (SELECT hash FROM scan_history WHERE domain = NEW.domain AND seq = NEW.seq - 1)
        OR (NEW.seq = 1 AND NEW.packing <> 'whole')
      BEGIN SELECT RAISE(ABORT, 'a history entry can only follow the last entry of its domain'); END`
  })
}
