/**
 * Stored report snapshots (docs/reports.md "Durability"): immutable, content-hashed, kept.
 *
 * - One dedicated SQLite connection to the app's database (after its migrations ran) with
 *   `PRAGMA synchronous = FULL`: every snapshot commit is fsynced, so an acknowledged snapshot also
 *   survives a power loss or OS crash, not only a killed process (WAL with the default NORMAL
 *   survives process kills but may lose the last commits on power loss: sqlite.org/pragma.html
 *   #pragma_synchronous). The rest of the app keeps NORMAL on its own connection.
 * - A snapshot is one INSERT in one transaction; `create` returns only after COMMIT, and the HTTP
 *   201 is sent after that. The table refuses UPDATE always and DELETE unless the removal was logged
 *   first (migrations 0002-0004 in store/Sql.ts), so only `remove` (the operator command) deletes.
 * - Every read re-verifies the bytes: they must be canonical JSON whose content (all but `evidence`)
 *   hashes to the stored hash. A mismatch is `SnapshotCorrupt`, never served.
 */
import { randomUUID } from "node:crypto"
import { Reactivity } from "@effect/experimental"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Clock, Effect, Option, Schema } from "effect"
import { canonicalJson, contentHashOf } from "./Canonical.ts"

export interface StoredSnapshot {
  readonly id: string
  readonly domain: string
  readonly contentHash: string
  readonly formatVersion: string
  readonly createdAt: string
  /** The canonical JSON bytes, exactly as stored and served. */
  readonly body: string
}

/** A stored snapshot whose bytes no longer match its hash: never served (a 500 and a log line). */
export class SnapshotCorrupt extends Schema.TaggedError<SnapshotCorrupt>()("SnapshotCorrupt", {
  id: Schema.String,
  reason: Schema.String
}) {}

/** What a new snapshot is made of: its content, and the full document once id and time are known. */
export interface SnapshotDraft {
  readonly domain: string
  readonly formatVersion: string
  /** The Schema-encoded report content (without evidence): what is hashed. */
  readonly content: unknown
  /** The document to store (content plus evidence) for the chosen id, hash and time. */
  readonly document: (snapshot: { id: string; contentHash: string; createdAt: string }) => unknown
}

interface Row {
  readonly id: string
  readonly domain: string
  readonly content_hash: string
  readonly format_version: string
  readonly created_at: string
  readonly body: Uint8Array | string
}

const toSnapshot = (row: Row): StoredSnapshot => ({
  id: row.id,
  domain: row.domain,
  contentHash: row.content_hash,
  formatVersion: row.format_version,
  createdAt: row.created_at,
  body: typeof row.body === "string" ? row.body : Buffer.from(row.body).toString("utf8")
})

/** Re-verify stored bytes: canonical JSON, and the content without `evidence` hashes as recorded. */
export const verify = (snapshot: StoredSnapshot): Effect.Effect<StoredSnapshot, SnapshotCorrupt> =>
  Effect.suspend(() => {
    const fail = (reason: string) => Effect.fail(new SnapshotCorrupt({ id: snapshot.id, reason }))
    let parsed: unknown
    try {
      parsed = JSON.parse(snapshot.body)
      if (canonicalJson(parsed) !== snapshot.body) return fail("the stored bytes are not canonical JSON")
    } catch (e) {
      return fail(`the stored bytes are not JSON: ${String(e)}`)
    }
    const { evidence, ...content } = parsed as { evidence?: { contentHash?: unknown; snapshotId?: unknown } }
    const actual = contentHashOf(content)
    if (actual !== snapshot.contentHash)
      return fail(`content hashes to ${actual}, stored ${snapshot.contentHash}`)
    if (evidence?.contentHash !== snapshot.contentHash || evidence?.snapshotId !== snapshot.id)
      return fail("the evidence block does not name this snapshot and hash")
    return Effect.succeed(snapshot)
  })

export type Lookup =
  | { readonly _tag: "Found"; readonly snapshot: StoredSnapshot }
  | { readonly _tag: "Removed"; readonly removedAt: string }
  | { readonly _tag: "Absent" }

export class SnapshotStore extends Effect.Service<SnapshotStore>()("SnapshotStore", {
  scoped: Effect.gen(function* () {
    // The app's client has run the migrations by the time this layer is built (it depends on it).
    const main = yield* SqliteClient.SqliteClient
    const sql = yield* SqliteClient.make({ filename: main.config.filename }).pipe(
      Effect.provide(Reactivity.layer)
    )
    yield* sql`PRAGMA synchronous = FULL`.pipe(Effect.orDie)
    // Dedupe check and insert of one process never interleave (the connection is shared by fibers).
    const lock = yield* Effect.makeSemaphore(1)

    const recent = (domain: string, contentHash: string, sinceIso: string) =>
      Effect.map(
        sql<Row>`SELECT * FROM report_snapshot WHERE domain = ${domain} AND content_hash = ${contentHash}
          AND created_at >= ${sinceIso} ORDER BY created_at DESC, id LIMIT 1`,
        (rows) => Option.map(Option.fromNullable(rows[0]), toSnapshot)
      )

    /**
     * Store a snapshot of `draft`, or return the one stored for the same domain and content within
     * the last `dedupeMs` (`reused: true`). Returns after COMMIT.
     */
    const create = (draft: SnapshotDraft, dedupeMs: number) =>
      lock
        .withPermits(1)(
          Effect.gen(function* () {
            const contentHash = contentHashOf(draft.content)
            const nowMs = yield* Clock.currentTimeMillis
            if (dedupeMs > 0) {
              const existing = yield* recent(
                draft.domain,
                contentHash,
                new Date(nowMs - dedupeMs).toISOString()
              )
              if (Option.isSome(existing)) return { snapshot: existing.value, reused: true }
            }
            const snapshot: StoredSnapshot = {
              id: randomUUID(),
              domain: draft.domain,
              contentHash,
              formatVersion: draft.formatVersion,
              createdAt: new Date(nowMs).toISOString(),
              body: ""
            }
            const body = canonicalJson(draft.document(snapshot))
            yield* sql.withTransaction(
              sql`INSERT INTO report_snapshot (id, domain, content_hash, format_version, created_at, body)
              VALUES (${snapshot.id}, ${snapshot.domain}, ${contentHash}, ${snapshot.formatVersion},
                ${snapshot.createdAt}, ${Buffer.from(body, "utf8")})`
            )
            return { snapshot: { ...snapshot, body }, reused: false }
          })
        )
        .pipe(Effect.orDie)

    /** A snapshot by id, verified; or that it was removed; or that there is none. */
    const get = (id: string): Effect.Effect<Lookup, SnapshotCorrupt> =>
      Effect.gen(function* () {
        const rows = yield* sql<Row>`SELECT * FROM report_snapshot WHERE id = ${id}`.pipe(Effect.orDie)
        if (rows[0] !== undefined)
          return { _tag: "Found", snapshot: yield* verify(toSnapshot(rows[0])) } as const
        const removed = yield* sql<{ removed_at: string }>`SELECT removed_at FROM report_snapshot_removal
          WHERE snapshot_id = ${id}`.pipe(Effect.orDie)
        return removed[0] !== undefined
          ? ({ _tag: "Removed", removedAt: removed[0].removed_at } as const)
          : ({ _tag: "Absent" } as const)
      })

    /**
     * The operator's removal (retention exceptions: abuse, legal compliance, operational integrity):
     * the log entry and the deletion in one transaction; the trigger refuses a deletion without it.
     */
    const remove = (id: string, reason: string, operator: string) =>
      sql.withTransaction(
        Effect.gen(function* () {
          const rows = yield* sql<Row>`SELECT * FROM report_snapshot WHERE id = ${id}`
          const row = rows[0]
          if (row === undefined) return Option.none()
          const removedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
          yield* sql`INSERT INTO report_snapshot_removal (snapshot_id, domain, content_hash, reason, operator, removed_at)
            VALUES (${id}, ${row.domain}, ${row.content_hash}, ${reason}, ${operator}, ${removedAt})`
          yield* sql`DELETE FROM report_snapshot WHERE id = ${id}`
          return Option.some({ id, domain: row.domain, contentHash: row.content_hash, removedAt })
        })
      )

    return { create, get, remove } as const
  })
}) {}
