/** A direct SQL connection to a database file, outside the app: what an operator or an attacker with file access has. */
import { Reactivity } from "@effect/experimental"
import type { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Effect } from "effect"

export const withDb = <A, E>(filename: string, use: (sql: SqlClient.SqlClient) => Effect.Effect<A, E>) =>
  Effect.scoped(
    Effect.flatMap(SqliteClient.make({ filename }).pipe(Effect.provide(Reactivity.layer)), (sql) => use(sql))
  )
