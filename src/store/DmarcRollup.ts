/**
 * The DMARC summary's rollup (docs/reports-in.md "Speed"): a domain's records summed per day, per
 * group the summary reads (source, verdicts, overrides, authentication results, header-from, MAIL
 * FROM, reasons) and per report authenticity, so a summary over a million records reads the
 * period's rollup rows rather than its records.
 *
 * A stored report's rows are only appended (`dmarc_row` has no index ordered by source: the 50
 * records of a report would each dirty a page of their own in it); the report is listed in
 * `dmarc_pending` and folded into the rollup later, many reports in one transaction
 * (`rollUpPending`), so the rollup's pages are written once per batch rather than once per report.
 * A summary adds to the rollup the raw rows it does not hold yet: those of pending reports, and
 * those of the period's partial first and last days (a period is in seconds, the rollup in days).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { mergeGroups, type SourceGroup } from "./GroupMerge.ts"

/** What a DMARC source group is grouped by (the summary's groups, and the rollup's key). */
export const GROUP_COLUMNS =
  "source_ip, disposition, dkim, spf, overrides, arc, dkim_auth, spf_auth, header_from, envelope_from, reasons"

const DAY = 86_400

const COLUMNS = GROUP_COLUMNS.split(", ")

/** The rollup's key: a group (`dmarc_group`, its columns stored once) of a domain on a day, by verdict. */
const ROLLUP_KEY = "domain, day, group_id, authenticated"

/**
 * `sign` times the rows of the reports `which` selects (a condition on `r`, a dmarc_row, and `i`,
 * its report), added to the rollup; a key whose records fall to 0 is removed by the trigger.
 */
const addToRollup = (which: string, sign: 1 | -1, authenticated = "i.authenticated") =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = sql.unsafe(`dmarc_row r JOIN inbound_report i ON i.id = r.report WHERE ${which}`)
    // no DISTINCT: the group's UNIQUE index already drops a group seen, and a DISTINCT's own
    // B-tree, a probe a row too, cost a fold of reports of new sources 1.6x this statement's time
    if (sign === 1)
      yield* sql`INSERT OR IGNORE INTO dmarc_group (domain, ${sql.unsafe(GROUP_COLUMNS)})
        SELECT r.domain, ${sql.unsafe(COLUMNS.map((c) => `r.${c}`).join(", "))} FROM ${rows}`
    const key = sql.unsafe(
      // a floor division, as the summary's days (SQLite's / truncates towards 0)
      `r.domain, g.id, r.begin_at / ${DAY} - (r.begin_at % ${DAY} < 0)`
    )
    // grouped by the report's verdict too: `authenticated` is it, or a constant (a report moved)
    yield* sql`INSERT INTO dmarc_rollup (domain, group_id, day, authenticated, records, messages)
      SELECT ${key}, ${sql.unsafe(authenticated)}, ${sign} * COUNT(*), ${sign} * SUM(r.count)
      FROM dmarc_row r JOIN inbound_report i ON i.id = r.report
        JOIN dmarc_group g ON g.domain = r.domain AND ${sql.unsafe(COLUMNS.map((c) => `g.${c} = r.${c}`).join(" AND "))}
      WHERE ${sql.unsafe(which)}
      GROUP BY ${key}, i.authenticated
      ON CONFLICT DO UPDATE SET records = records + excluded.records, messages = messages + excluded.messages`
  })

/** Migrations appended to `store/Sql.ts`'s list. */
export const dmarcRollupMigrations = {
  // The rollup replaces the covering index `dmarc_row_group` (0012): the rows already stored are
  // rolled up here, so an existing store answers as before. A group's texts (JSON of signatures,
  // reasons) are stored once in `dmarc_group`; the rollup's rows are five numbers and the domain,
  // which a summary reads by the hundred thousand. Ordered by day: a summary reads its period's
  // days only, however long reports are kept.
  "0016_dmarc_rollup": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE dmarc_group (
      id INTEGER PRIMARY KEY,
      domain TEXT NOT NULL,
      source_ip TEXT NOT NULL,
      disposition TEXT NOT NULL,
      dkim TEXT NOT NULL,
      spf TEXT NOT NULL,
      overrides TEXT NOT NULL,
      arc INTEGER NOT NULL,
      dkim_auth TEXT NOT NULL,
      spf_auth TEXT NOT NULL,
      header_from TEXT NOT NULL,
      envelope_from TEXT NOT NULL,
      reasons TEXT NOT NULL,
      UNIQUE (domain, ${sql.unsafe(GROUP_COLUMNS)})
    )`
    yield* sql`CREATE TABLE dmarc_rollup (
      domain TEXT NOT NULL,
      group_id INTEGER NOT NULL,
      day INTEGER NOT NULL,
      authenticated INTEGER NOT NULL,
      records INTEGER NOT NULL,
      messages INTEGER NOT NULL,
      PRIMARY KEY (${sql.unsafe(ROLLUP_KEY)})
    ) WITHOUT ROWID`
    // a key no record holds any more (its reports pruned, or moved to the authenticated) goes
    yield* sql`CREATE TRIGGER dmarc_rollup_empty AFTER UPDATE OF records ON dmarc_rollup WHEN NEW.records = 0
      BEGIN DELETE FROM dmarc_rollup WHERE ${sql.unsafe(
        ROLLUP_KEY.split(", ")
          .map((c) => `${c} = NEW.${c}`)
          .join(" AND ")
      )}; END`
    yield* sql`CREATE TABLE dmarc_pending (report INTEGER PRIMARY KEY)`
    yield* addToRollup("i.kind = 'dmarc'", 1)
    yield* sql`DROP INDEX IF EXISTS dmarc_row_group`
  }),
  // A large report is folded in slices, a transaction each: `folded_to` is the last of its rows
  // (by rowid) already in the rollup; the rows after it are read raw. 0: none yet (every report
  // pending in an existing store).
  "0017_dmarc_fold_slices": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`ALTER TABLE dmarc_pending ADD COLUMN folded_to INTEGER NOT NULL DEFAULT 0`
  }),
  // Two indexes a report paid for at every commit and no read needs: `dmarc_row_period` (a
  // record's domain and begin are its report's: the summary's partial days find their reports by
  // `inbound_report_period`, then their rows by `dmarc_row_report`), whose entries for the 30
  // days a receiver's reports span land at as many places, 4-5 of the 19 pages a report of 50
  // records wrote to the WAL; and `inbound_report_identity`, the first four columns of the
  // report's UNIQUE identity, whose own index answers the same look-ups.
  "0018_ingest_indexes": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`DROP INDEX IF EXISTS dmarc_row_period`
    yield* sql`DROP INDEX IF EXISTS inbound_report_identity`
  })
}

/** A stored report's rows wait to be rolled up (in its storing transaction). */
export const markPending = (report: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO dmarc_pending (report) VALUES (${report})`)

/**
 * One turn of the event loop (setImmediate runs after pending I/O), so requests are answered
 * between two transactions (Effect.yieldNow lets other fibers run, but the sockets' callbacks only
 * once in 2,048 turns).
 */
export const yieldToEventLoop = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/** A pending report as the fold plans it: where it stands and how many rows it has. */
interface Pending {
  readonly report: number
  readonly folded_to: number
  readonly records: number
}

/**
 * Fold pending rows into the rollup, at most `rows` of them in one transaction (at least one
 * report's worth unless a report alone has more: it is then folded `rows` at a time, by rowid,
 * its progress kept in `dmarc_pending.folded_to`). Returns 0 when no row waits, else about how
 * many were folded (by the reports' record counts). Their authenticity is read as it is now
 * (`moveToAuthenticated` moves a report already folded, or the part of it that is).
 */
export const rollUpPending = (rows: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const budget = Math.max(1, Math.floor(rows))
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        // each report holds at least one row: no more than `budget` of them can fit
        const waiting = yield* sql<Pending>`SELECT p.report AS report, p.folded_to AS folded_to,
            COALESCE(i.records, 0) AS records
          FROM dmarc_pending p LEFT JOIN inbound_report i ON i.id = p.report ORDER BY p.report LIMIT ${budget}`
        const first = waiting[0]
        if (first === undefined) return 0
        if (first.folded_to > 0 || first.records > budget) {
          // a slice of one large report: its next `budget` rows, and whether any follow them
          const next = yield* sql<{
            id: number
          }>`SELECT rowid AS id FROM dmarc_row INDEXED BY dmarc_row_report
            WHERE report = ${first.report} AND rowid > ${first.folded_to} ORDER BY rowid LIMIT 2 OFFSET ${budget - 1}`
          const to = next[0]?.id
          const rest = next.length < 2
          const report = Math.floor(first.report)
          const from = Math.floor(first.folded_to)
          yield* addToRollup(
            `r.report = ${report} AND r.rowid > ${from}${rest ? "" : ` AND r.rowid <= ${Math.floor(to!)}`}`,
            1
          )
          if (rest) yield* sql`DELETE FROM dmarc_pending WHERE report = ${report}`
          else yield* sql`UPDATE dmarc_pending SET folded_to = ${to!} WHERE report = ${report}`
          return budget
        }
        // whole reports, in order, as many as fit
        let taken = 0
        let last = first.report
        for (const p of waiting) {
          if (p.folded_to > 0 || (taken > 0 && taken + p.records > budget)) break
          taken += Math.max(1, p.records)
          last = p.report
        }
        yield* addToRollup(
          `r.report IN (SELECT report FROM dmarc_pending WHERE report <= ${Math.floor(last)})`,
          1
        )
        yield* sql`DELETE FROM dmarc_pending WHERE report <= ${last}`
        return taken
      })
    )
  })

/** Rows folded in one transaction: about 25 ms of work, so the service answers between two. */
export const ROLLUP_ROWS = 4_000

/**
 * Fold every pending row, at most `rows` per transaction, yielding to the event loop between two
 * (the service's fold, tests, the bench).
 */
export const rollUpAll = (rows = ROLLUP_ROWS): Effect.Effect<void, unknown, SqlClient.SqlClient> =>
  Effect.flatMap(rollUpPending(rows), (n) =>
    n === 0 ? Effect.void : Effect.zipRight(yieldToEventLoop, rollUpAll(rows))
  )

/** Take out of the rollup the reports ending before `before` (epoch seconds), about to be deleted. */
export const unrollExpired = (before: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [expired] = yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM inbound_report
      WHERE end_at < ${before} AND kind = 'dmarc'`
    if ((expired?.n ?? 0) === 0) return
    // what is folded: every row of a report no longer pending, the first rows of one folded in part
    yield* addToRollup(
      `i.kind = 'dmarc' AND i.end_at < ${Math.floor(before)}
        AND r.rowid <= COALESCE((SELECT folded_to FROM dmarc_pending WHERE report = r.report), r.rowid)`,
      -1
    )
    yield* sql`DELETE FROM dmarc_pending WHERE report IN (SELECT id FROM inbound_report WHERE end_at < ${before})`
    // a group no rollup row counts any more goes too: its texts are the pruned reports' (retention);
    // pending reports' rows name no group yet
    yield* sql`DELETE FROM dmarc_group WHERE id NOT IN (SELECT group_id FROM dmarc_rollup)`
  })

/**
 * Report `id` has just been found authenticated (it was not): its rows, if already folded, move to
 * the authenticated side of the rollup. Inside the transaction that records the verdict.
 */
export const moveToAuthenticated = (id: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [pending] = yield* sql<{
      folded_to: number
    }>`SELECT folded_to FROM dmarc_pending WHERE report = ${id}`
    if (pending !== undefined && pending.folded_to === 0) return
    // a report folded in part moves the part folded; its other rows are folded under the new verdict
    const which = `r.report = ${Math.floor(id)}${pending === undefined ? "" : ` AND r.rowid <= ${Math.floor(pending.folded_to)}`}`
    yield* addToRollup(which, -1, "0")
    yield* addToRollup(which, 1, "1")
  })

/**
 * A domain's DMARC records in [from, to) (by their report's begin), grouped as the summary reads
 * them, in the groups' order: the rollup's whole days, plus the raw rows it does not hold (the
 * partial first and last days, and the rows of pending reports not folded yet).
 * `authenticatedOnly`: from authenticated reports alone.
 */
export const rolledUpGroups = (domain: string, from: number, to: number, authenticatedOnly: boolean) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const G = sql.unsafe(GROUP_COLUMNS)
    // the period's whole days come from the rollup; the seconds before and after them from the rows
    const firstDay = Math.ceil(from / DAY)
    const endDay = Math.floor(to / DAY)
    const whole = endDay > firstDay
    const wholeFrom = whole ? firstDay * DAY : to
    const wholeTo = whole ? endDay * DAY : to
    const trusted = authenticatedOnly ? sql.unsafe("AND authenticated = 1") : sql.unsafe("")
    const trustedRows = authenticatedOnly
      ? sql.unsafe(
          `AND r.report IN (SELECT id FROM inbound_report WHERE kind = 'dmarc' AND authenticated = 1)`
        )
      : sql.unsafe("")
    // one read transaction: a fold committing between the two reads would count a report twice or not at all
    const [rolled, rest] = yield* sql.withTransaction(
      Effect.all([
        whole
          ? sql<SourceGroup>`SELECT ${sql.unsafe(COLUMNS.map((c) => `g.${c}`).join(", "))}, s.messages
            FROM (SELECT group_id, SUM(messages) AS messages FROM dmarc_rollup
              WHERE domain = ${domain} AND day >= ${firstDay} AND day < ${endDay}
                ${authenticatedOnly ? sql.unsafe("AND authenticated = 1") : sql.unsafe("")}
              GROUP BY group_id) s
            JOIN dmarc_group g ON g.id = s.group_id
            ORDER BY ${sql.unsafe(COLUMNS.map((c) => `g.${c}`).join(", "))}`
          : Effect.succeed([]),
        // the partial days' rows: their reports by period, then each one's rows by report
        sql<SourceGroup>`SELECT ${G}, SUM(count) AS messages FROM (
          SELECT ${G}, count FROM dmarc_row INDEXED BY dmarc_row_report
            WHERE report IN (SELECT id FROM inbound_report WHERE kind = 'dmarc' AND domain = ${domain}
                  AND begin_at >= ${from} AND begin_at < ${wholeFrom} ${trusted}
                UNION ALL SELECT id FROM inbound_report WHERE kind = 'dmarc' AND domain = ${domain}
                  AND begin_at >= ${wholeTo} AND begin_at < ${to} ${trusted})
              AND domain = ${domain}
              AND ((begin_at >= ${from} AND begin_at < ${wholeFrom}) OR (begin_at >= ${wholeTo} AND begin_at < ${to}))
          -- CROSS JOIN: the few pending reports first, then their rows through the index (not every row)
          UNION ALL SELECT ${sql.unsafe(COLUMNS.map((c) => `r.${c}`).join(", "))}, r.count
            FROM dmarc_pending p CROSS JOIN dmarc_row r INDEXED BY dmarc_row_report
              ON r.report = p.report AND r.rowid > p.folded_to
            WHERE r.domain = ${domain} AND r.begin_at >= ${wholeFrom} AND r.begin_at < ${wholeTo} ${trustedRows}
        ) GROUP BY ${G} ORDER BY ${G}`
      ])
    )
    return mergeGroups(rolled, rest)
  })
