/**
 * Tables each runner of the cluster creates at start-up with `IF NOT EXISTS` (the monitors, the API
 * keys, the tenants' domains). On Postgres the creation holds a transaction-scoped advisory lock:
 * runners starting together would otherwise race in `CREATE TABLE IF NOT EXISTS`, which Postgres
 * does not serialise (jobs/Cluster.ts has the story).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The first key of the two-key lock ("domc"); the second names the group of tables. */
const TABLES_LOCK = 0x646f6d63

/** The groups of tables, each created under its own lock. */
export const TableGroups = { monitors: 1, access: 2 } as const

/** `create` in one transaction, under the lock of its group on Postgres. */
export const createTables = <A, E, R>(
  group: keyof typeof TableGroups,
  create: (sql: SqlClient.SqlClient) => Effect.Effect<A, E, R>
) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.withTransaction(
      Effect.zipRight(
        sql.onDialectOrElse({
          pg: () => sql`SELECT pg_advisory_xact_lock(${TABLES_LOCK}, ${TableGroups[group]})`,
          orElse: () => Effect.void
        }),
        create(sql)
      )
    )
  )
