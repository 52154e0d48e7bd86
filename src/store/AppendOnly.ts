/**
 * A table the database itself keeps append-only (DESIGN.md principle 8, "stored means kept"): its
 * triggers refuse every UPDATE and DELETE, whoever issues them, with `why` as the error.
 */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The triggers `<table>_no_update` and `<table>_no_delete`. The statement is spelled out rather
 * than bound: SQLite takes no parameters in a trigger's body, and both names are our constants.
 */
export const appendOnly = (sql: SqlClient.SqlClient, table: string, why: string) => {
  const refuse = (op: "update" | "delete") =>
    sql.unsafe(`CREATE TRIGGER ${table}_no_${op} BEFORE ${op.toUpperCase()} ON ${table}
      BEGIN SELECT RAISE(ABORT, '${why.replaceAll("'", "''")}'); END`)
  return Effect.zipRight(refuse("update"), refuse("delete"))
}
