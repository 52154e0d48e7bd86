/**
 * The monitors of one owner (monitor/MonitorStore.ts's table): how many a tenant has, for
 * MONITORS_PER_TENANT, and a page of them for GET /monitors (docs/access.md).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { num, toMonitor } from "./MonitorStore.ts"

/** Monitors not deleted of one owner (`tenant`, or null: the operator's). */
export const countMonitors = (tenant: string | null) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      tenant === null
        ? sql`SELECT COUNT(*) AS n FROM monitors WHERE deleted_at IS NULL AND tenant IS NULL`
        : sql`SELECT COUNT(*) AS n FROM monitors WHERE deleted_at IS NULL AND tenant = ${tenant}`,
      (rows) => num(rows[0]?.n) ?? 0
    )
  )

/**
 * One page of the monitors not deleted, in creation order, after the cursor (`createdAt` and `id`
 * of the last monitor of the page before); of one tenant, or of everyone (`tenant` undefined).
 */
export const pageMonitors = (
  tenant: string | undefined,
  after: { readonly createdAt: number; readonly id: string } | undefined,
  limit: number
) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const owner = tenant === undefined ? sql`1 = 1` : sql`tenant = ${tenant}`
    const from =
      after === undefined
        ? sql`1 = 1`
        : sql`(created_at > ${after.createdAt} OR (created_at = ${after.createdAt} AND id > ${after.id}))`
    return Effect.map(
      sql`SELECT * FROM monitors WHERE deleted_at IS NULL AND ${owner} AND ${from}
          ORDER BY created_at, id LIMIT ${limit}`,
      (rows) => rows.map(toMonitor)
    )
  })
