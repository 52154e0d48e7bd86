/**
 * A DMARC report written on the connection itself (`SqliteDirect`, one synchronous transaction)
 * leaves the store exactly as the SQL client's statements leave it, and answers the same: fresh,
 * duplicate, conflicting, with or without a verdict, a duplicate proved genuine later; and a
 * report too large for one go still goes through the client.
 */
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NodeContext } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import * as Migrator from "@effect/sql/Migrator"
import { SqliteClient, SqliteMigrator } from "@effect/sql-sqlite-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as fc from "fast-check"
import { type DmarcRowInsert, type ReportHead, storeReport } from "../../src/store/InboundReports.ts"
import { migrations, sqliteAt } from "../../src/store/Sql.ts"
import { COPIED_FROM_VERSION, SqliteDirect } from "../../src/store/SqliteConnection.ts"

const DAY = 86_400
const T0 = 1_790_000_000 - (1_790_000_000 % DAY)

const row: fc.Arbitrary<DmarcRowInsert> = fc.record({
  source_ip: fc.constantFrom("192.0.2.1", "2001:db8::1"),
  count: fc.nat(5),
  disposition: fc.constantFrom("none", "reject"),
  dkim: fc.constantFrom("pass", "fail"),
  spf: fc.constantFrom("pass", "fail"),
  overrides: fc.constantFrom("", "forwarded"),
  arc: fc.constantFrom(0, 1),
  header_from: fc.constantFrom("example.com", "é.example"),
  dkim_auth: fc.constantFrom("", "example.com/s1=pass"),
  spf_auth: fc.constantFrom("", "example.com=pass"),
  envelope_from: fc.constantFrom("", "bounce.example"),
  reasons: fc.constantFrom("", '[{"type":"forwarded","comment":null}]')
})

/** A report: its id and content from small sets, so that duplicates and conflicts come up. */
const report = fc.record({
  id: fc.integer({ min: 0, max: 3 }),
  content: fc.integer({ min: 0, max: 1 }),
  rows: fc.array(row, { minLength: 0, maxLength: 4 }),
  selectors: fc.uniqueArray(fc.constantFrom("s1", "s2", "sel"), { maxLength: 3 }),
  verdict: fc.constantFrom(undefined, 0 as const, 1 as const),
  warnings: fc.constantFrom(undefined, ["a repair"])
})

type Report = typeof report extends fc.Arbitrary<infer T> ? T : never

const headOf = (r: Report): ReportHead => ({
  kind: "dmarc",
  domain: "example.com",
  reporter: "receiver.example",
  reportId: `r${r.id}`,
  begin: T0 + r.id * DAY,
  end: T0 + r.id * DAY + DAY - 1,
  records: r.rows.length,
  messages: r.rows.reduce((n, x) => n + x.count, 0),
  contact: r.id === 0 ? null : "dmarc@receiver.example",
  policy: '{"p":"none"}',
  contentHash: `sha256:${r.id}-${r.content}`,
  ...(r.warnings === undefined ? {} : { warnings: r.warnings }),
  dmarcPass: r.rows.length
})

const verdictOf = (v: 0 | 1 | undefined) =>
  v === undefined
    ? undefined
    : {
        authenticated: v,
        authenticated_for: v === 1 ? "receiver.example" : null,
        authentication: `test ${v}`
      }

/** Every table a report writes, whole, in a stable order. */
const dump = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    reports: yield* sql`SELECT * FROM inbound_report ORDER BY id`,
    rows: yield* sql`SELECT rowid, * FROM dmarc_row ORDER BY rowid`,
    pending: yield* sql`SELECT * FROM dmarc_pending ORDER BY report`,
    selectors: yield* sql`SELECT * FROM dmarc_selector ORDER BY domain, selector`
  }
})

const storeAll = (reports: ReadonlyArray<Report>) =>
  Effect.gen(function* () {
    const answers = []
    for (const [k, r] of reports.entries())
      answers.push(
        yield* storeReport(
          headOf(r),
          T0 + 40 * DAY + k,
          { kind: "dmarc", rows: r.rows, selectors: r.selectors },
          verdictOf(r.verdict)
        )
      )
    return { answers, tables: yield* dump }
  })

/** The library's client alone, migrated as the app's: no direct connection, every statement through it. */
const clientOnly = (file: string) => {
  const client = SqliteClient.layer({ filename: file })
  return Layer.merge(
    client,
    SqliteMigrator.layer({ loader: Migrator.fromRecord(migrations) }).pipe(
      Layer.provide([client, NodeContext.layer])
    )
  )
}

const fresh = () => join(mkdtempSync(join(tmpdir(), "domain-audit-direct-")), "db.sqlite")

describe("a DMARC report written on the connection itself", () => {
  it.effect("leaves the store and answers as the SQL client's statements do (property)", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(fc.array(report, { minLength: 1, maxLength: 8 }), async (reports) => {
          const direct = await Effect.runPromise(
            Effect.gen(function* () {
              expect((yield* Effect.serviceOption(SqliteDirect))._tag).toBe("Some")
              return yield* storeAll(reports)
            }).pipe(Effect.provide(sqliteAt(fresh())))
          )
          const client = await Effect.runPromise(storeAll(reports).pipe(Effect.provide(clientOnly(fresh()))))
          expect(direct).toEqual(client)
        }),
        { numRuns: 40 }
      )
    )
  )

  it.effect("writes a report too large for one go through the client, in chunks", () =>
    Effect.gen(function* () {
      const rows: Array<DmarcRowInsert> = Array.from({ length: 1_201 }, (_, j) => ({
        source_ip: `10.0.${j >> 8}.${j & 255}`,
        count: 1,
        disposition: "none",
        dkim: "pass",
        spf: "pass",
        overrides: "",
        arc: 0,
        header_from: "example.com",
        dkim_auth: "",
        spf_auth: "",
        envelope_from: "",
        reasons: ""
      }))
      const head: ReportHead = {
        ...headOf({ id: 1, content: 0, rows: [], selectors: [], verdict: 1, warnings: undefined }),
        records: rows.length
      }
      const stored = yield* storeReport(head, T0 + 40 * DAY, { kind: "dmarc", rows, selectors: ["s1"] })
      expect(stored).toEqual({ fresh: true, conflict: false })
      const sql = yield* SqlClient.SqlClient
      const [n] = yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM dmarc_row`
      expect(n?.n).toBe(1_201)
      expect(yield* storeReport(head, T0 + 40 * DAY, { kind: "dmarc", rows, selectors: [] })).toEqual({
        fresh: false,
        conflict: false
      })
    }).pipe(Effect.provide(sqliteAt(fresh())))
  )
})

describe("the copy of the library's client", () => {
  it("follows the installed @effect/sql-sqlite-node: upgrading it means comparing SqliteConnection.ts with its SqliteClient.make", () => {
    const installed = JSON.parse(
      readFileSync(
        new URL("../../node_modules/@effect/sql-sqlite-node/package.json", import.meta.url),
        "utf8"
      )
    ) as { version: string }
    expect(installed.version).toBe(COPIED_FROM_VERSION)
  })
})
