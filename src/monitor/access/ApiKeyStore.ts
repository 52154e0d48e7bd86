/**
 * API keys in the cluster's database beside the monitors they guard (SQLite under DATA_DIR alone,
 * the shared Postgres with several runners), so every runner knows every key and a revocation
 * holds everywhere at once. Only the key's SHA-256 is kept. Plain SQL both dialects accept; the
 * table is created at start-up with `IF NOT EXISTS`, under the monitors' advisory lock on Postgres.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { createTables } from "../../store/StartupTables.ts"
import type { KeyRecord, Scope } from "./ApiKey.ts"
import { createTagTable } from "./TenantTags.ts"

// node-postgres returns BIGINT as text; SQLite returns numbers.
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v))

export const ensureKeyTables = createTables("access", (sql) =>
  Effect.gen(function* () {
    yield* sql`CREATE TABLE IF NOT EXISTS api_keys (
        id TEXT PRIMARY KEY,
        hash TEXT NOT NULL UNIQUE,
        tenant TEXT NOT NULL,
        scopes TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT,
        revoked_at BIGINT
      )`
    yield* createTagTable(sql)
  })
)

const toRecord = (r: Record<string, unknown>): KeyRecord & { readonly hash: string } => ({
  id: String(r.id),
  hash: String(r.hash),
  tenant: String(r.tenant),
  scopes: String(r.scopes).split(" ") as ReadonlyArray<Scope>,
  createdAt: num(r.created_at)!,
  expiresAt: num(r.expires_at),
  revokedAt: num(r.revoked_at)
})

export const insertKey = (key: KeyRecord & { readonly hash: string }) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`INSERT INTO api_keys (id, hash, tenant, scopes, created_at, expires_at, revoked_at)
      VALUES (${key.id}, ${key.hash}, ${key.tenant}, ${key.scopes.join(" ")}, ${key.createdAt},
        ${key.expiresAt}, ${key.revokedAt})`
  )

export const findKeyByHash = (hash: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(sql`SELECT * FROM api_keys WHERE hash = ${hash}`, (rows) =>
      rows.length === 0 ? undefined : toRecord(rows[0]!)
    )
  )

export const listKeys = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(sql`SELECT * FROM api_keys ORDER BY created_at, id`, (rows) => rows.map(toRecord))
)

/** The id of every key usable at `now` (neither revoked, nor expired, by then), by its hash. */
export const usableKeys = (now: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql`SELECT id, hash FROM api_keys
        WHERE (revoked_at IS NULL OR revoked_at > ${now}) AND (expires_at IS NULL OR expires_at > ${now})`,
      (rows) => new Map(rows.map((r) => [String(r.hash), String(r.id)] as const))
    )
  )

/** Whether any key was ever created: until then, reports stay open as in the embedded default. */
export const anyKey = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(sql`SELECT 1 AS one FROM api_keys LIMIT 1`, (rows) => rows.length > 0)
)

/**
 * Revoke `id` from `at` (now, or the end of a rotation's grace); false when there is no such key.
 * The earliest revocation wins: a key revoked stays revoked from then, and revoking a key in its
 * grace now ends the grace.
 */
export const revokeKey = (id: string, at: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.gen(function* () {
      const found = yield* sql`SELECT id FROM api_keys WHERE id = ${id}`
      if (found.length === 0) return false
      yield* sql`UPDATE api_keys SET revoked_at = ${at}
        WHERE id = ${id} AND (revoked_at IS NULL OR revoked_at > ${at})`
      return true
    })
  )

/** The key `id`, if there is one. */
export const findKey = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(sql`SELECT * FROM api_keys WHERE id = ${id}`, (rows) =>
      rows.length === 0 ? undefined : toRecord(rows[0]!)
    )
  )
