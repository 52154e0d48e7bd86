/**
 * The stored reports of a period, as the summaries read them: of one kind, about one domain, begun
 * in [from, to) (epoch seconds), which the index `inbound_report_period` (kind, domain, begin_at)
 * answers.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * `SELECT <select> FROM inbound_report WHERE <the period> <rest>`: `rest` adds conditions, a GROUP
 * BY, an ORDER BY or a LIMIT (fixed texts: the values are the period's, bound).
 */
export const periodReports = <A extends object>(
  kind: "dmarc" | "tls",
  domain: string,
  from: number,
  to: number,
  select: string,
  rest = ""
) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<A>`SELECT ${sql.unsafe(select)} FROM inbound_report
      WHERE kind = ${kind} AND domain = ${domain} AND begin_at >= ${from} AND begin_at < ${to} ${sql.unsafe(rest)}`
  )
