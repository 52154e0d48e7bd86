/**
 * The DMARC summary's rollup answers exactly as one GROUP BY over the stored records: whatever was
 * rolled up, folded in part or is pending, whatever the period (partial days included), after
 * reports were found authenticated or pruned, and on a store that existed before the rollup (its
 * migration) or before the fold in slices.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NodeContext } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import * as Migrator from "@effect/sql/Migrator"
import { SqliteClient, SqliteMigrator } from "@effect/sql-sqlite-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as fc from "fast-check"
import { GROUP_COLUMNS, rolledUpGroups, rollUpAll, rollUpPending } from "../../src/store/DmarcRollup.ts"
import { binaryOrder, mergeGroups } from "../../src/store/GroupMerge.ts"
import {
  type DmarcRowInsert,
  pruneReports,
  type ReportHead,
  type SourceGroup,
  storeReport
} from "../../src/store/InboundReports.ts"
import { recordAuthenticity } from "../../src/store/ReportAuthenticity.ts"
import { migrations, sqliteAt } from "../../src/store/Sql.ts"

const DAY = 86_400
const T0 = 1_790_000_000 - (1_790_000_000 % DAY)

/** Texts whose UTF-16 and UTF-8 orders differ (U+E000 against an astral character) among plain ones. */
const text = fc.constantFrom("", "a", "b", "é", "\uE000", "😀", "example.com", "esp.example")

const row: fc.Arbitrary<DmarcRowInsert> = fc.record({
  source_ip: fc.constantFrom("192.0.2.1", "192.0.2.2", "2001:db8::1", "198.51.100.7"),
  count: fc.nat(5),
  disposition: fc.constantFrom("none", "reject"),
  dkim: fc.constantFrom("pass", "fail"),
  spf: fc.constantFrom("pass", "fail"),
  overrides: fc.constantFrom("", "forwarded"),
  arc: fc.constantFrom(0, 1),
  header_from: text,
  dkim_auth: text,
  spf_auth: fc.constantFrom("", "[]"),
  envelope_from: text,
  reasons: text
})

interface Step {
  readonly report?: {
    readonly domain: string
    readonly begin: number
    readonly length: number
    readonly rows: ReadonlyArray<DmarcRowInsert>
    readonly authenticated: boolean
    readonly authenticatedLater: boolean
  }
  readonly rollUp?: number
  readonly prune?: number
}

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      report: fc.record({
        domain: fc.constantFrom("a.example", "b.example"),
        begin: fc.integer({ min: T0, max: T0 + 6 * DAY }),
        length: fc.constantFrom(3_600, DAY - 1, DAY),
        rows: fc.array(row, { minLength: 1, maxLength: 6 }),
        authenticated: fc.boolean(),
        authenticatedLater: fc.boolean()
      })
    })
  },
  { weight: 1, arbitrary: fc.record({ rollUp: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ prune: fc.integer({ min: T0, max: T0 + 3 * DAY }) }) }
)

const period = fc
  .tuple(fc.integer({ min: T0 - DAY, max: T0 + 8 * DAY }), fc.integer({ min: 1, max: 8 * DAY }))
  .map(([from, length]) => ({ from, to: from + length }))

/** The summary's groups as one GROUP BY over the records gives them (as before the rollup). */
const reference = (domain: string, from: number, to: number, authenticatedOnly: boolean) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<SourceGroup>`SELECT ${sql.unsafe(GROUP_COLUMNS)}, SUM(count) AS messages FROM dmarc_row
      WHERE domain = ${domain} AND begin_at >= ${from} AND begin_at < ${to}
        ${authenticatedOnly ? sql.unsafe("AND report IN (SELECT id FROM inbound_report WHERE authenticated = 1)") : sql.unsafe("")}
      GROUP BY ${sql.unsafe(GROUP_COLUMNS)} ORDER BY ${sql.unsafe(GROUP_COLUMNS)}`
  )

const head = (n: number, domain: string, begin: number, end: number, records = 1): ReportHead => ({
  kind: "dmarc",
  domain,
  reporter: "receiver.example",
  reportId: `r${n}`,
  begin,
  end,
  records,
  messages: 1,
  contact: null,
  policy: "{}",
  contentHash: `sha256:${n}`
})

const verdict = (authenticated: boolean) => ({
  authenticated: authenticated ? (1 as const) : (0 as const),
  authenticated_for: authenticated ? "receiver.example" : null,
  authentication: authenticated ? "test: authenticated" : "test: not authenticated"
})

const run = (steps: ReadonlyArray<Step>, periods: ReadonlyArray<{ from: number; to: number }>) =>
  Effect.gen(function* () {
    let n = 0
    for (const s of steps) {
      if (s.report !== undefined) {
        const r = s.report
        const h = head(n++, r.domain, r.begin, r.begin + r.length, r.rows.length)
        yield* storeReport(h, r.begin + r.length, { kind: "dmarc", rows: r.rows, selectors: [] })
        yield* recordAuthenticity(h, verdict(r.authenticated))
        // the same report again, now authenticated (a duplicate proved genuine), maybe once rolled up
        if (r.authenticatedLater) {
          yield* rollUpPending(1)
          yield* recordAuthenticity(h, verdict(true))
        }
      }
      if (s.rollUp !== undefined) yield* rollUpPending(s.rollUp)
      if (s.prune !== undefined) yield* pruneReports(s.prune)
    }
    for (const { from, to } of periods)
      for (const domain of ["a.example", "b.example"])
        for (const trusted of [false, true])
          expect(yield* rolledUpGroups(domain, from, to, trusted)).toEqual(
            yield* reference(domain, from, to, trusted)
          )
    // all rolled up: the same answers
    yield* rollUpAll(3)
    const sql = yield* SqlClient.SqlClient
    expect(yield* sql`SELECT report FROM dmarc_pending`).toEqual([])
    for (const { from, to } of periods)
      for (const trusted of [false, true])
        expect(yield* rolledUpGroups("a.example", from, to, trusted)).toEqual(
          yield* reference("a.example", from, to, trusted)
        )
    // no key is left with no record (pruned and moved keys are removed)
    expect(yield* sql`SELECT * FROM dmarc_rollup WHERE records <= 0`).toEqual([])
    // and no group whose records are all gone stays (its texts are the pruned reports')
    expect(
      yield* sql`SELECT id FROM dmarc_group WHERE id NOT IN (SELECT group_id FROM dmarc_rollup)`
    ).toEqual([])
  })

const freshStore = () => sqliteAt(join(mkdtempSync(join(tmpdir(), "domain-audit-rollup-")), "db.sqlite"))

describe("the DMARC rollup", () => {
  it("answers as one GROUP BY over the records, rolled up or pending, over any period (property)", () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 25 }),
        fc.array(period, { minLength: 1, maxLength: 4 }),
        (steps, periods) => Effect.runPromise(run(steps, periods).pipe(Effect.provide(freshStore())))
      ),
      { numRuns: 25 }
    ))

  it("merges groups in SQLite's BINARY order, adding the messages of a group in both (property)", () => {
    const group = fc
      .record({ source_ip: text, dkim: text, arc: fc.constantFrom(0, 1), messages: fc.nat(9) })
      .map((g): SourceGroup => ({
        ...g,
        disposition: "none",
        spf: "pass",
        overrides: "",
        dkim_auth: "",
        spf_auth: ""
      }))
    const key = (g: SourceGroup) => JSON.stringify([g.source_ip, g.dkim, g.arc])
    const utf8 = (g: SourceGroup) => [Buffer.from(g.source_ip), Buffer.from(g.dkim), g.arc] as const
    const order = (a: SourceGroup, b: SourceGroup) => {
      const [x, y] = [utf8(a), utf8(b)]
      return Buffer.compare(x[0], y[0]) || Buffer.compare(x[1], y[1]) || x[2] - y[2]
    }
    const grouped = (gs: ReadonlyArray<SourceGroup>) => {
      const m = new Map<string, SourceGroup>()
      for (const g of gs) {
        const had = m.get(key(g))
        m.set(key(g), had === undefined ? g : { ...had, messages: had.messages + g.messages })
      }
      return [...m.values()].sort(order)
    }
    fc.assert(
      fc.property(fc.array(group), fc.array(group), (a, b) => {
        expect(mergeGroups(grouped(a), grouped(b))).toEqual(grouped([...a, ...b]))
      })
    )
    expect(binaryOrder("\uE000", "😀")).toBeLessThan(0)
    expect("\uE000" < "😀").toBe(false)
  })

  it.effect("folds a large report in slices of at most the rows asked, answering the same after each", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = Array.from({ length: 50 }, (_, j): DmarcRowInsert => ({
        source_ip: `192.0.2.${j % 9}`,
        count: j + 1,
        disposition: "none",
        dkim: j % 3 === 0 ? "fail" : "pass",
        spf: "pass",
        overrides: "",
        arc: 0,
        header_from: "a.example",
        dkim_auth: "",
        spf_auth: "",
        envelope_from: "",
        reasons: ""
      }))
      const large = head(1, "a.example", T0, T0 + DAY - 1, rows.length)
      yield* storeReport(large, T0 + DAY, { kind: "dmarc", rows, selectors: [] })
      yield* recordAuthenticity(large, verdict(false))
      const small = head(2, "a.example", T0 + 10, T0 + DAY - 1, 3)
      yield* storeReport(small, T0 + DAY, { kind: "dmarc", rows: rows.slice(0, 3), selectors: [] })
      const check = Effect.gen(function* () {
        for (const trusted of [false, true])
          expect(yield* rolledUpGroups("a.example", T0 - DAY, T0 + 2 * DAY, trusted)).toEqual(
            yield* reference("a.example", T0 - DAY, T0 + 2 * DAY, trusted)
          )
      })
      const folded = () =>
        Effect.map(
          sql<{ n: number }>`SELECT COALESCE(SUM(records), 0) AS n FROM dmarc_rollup`,
          (r) => r[0]!.n
        )
      const progress: Array<number> = []
      for (;;) {
        const before = yield* folded()
        const n = yield* rollUpPending(7)
        if (n === 0) break
        progress.push((yield* folded()) - before)
        yield* check
        // found genuine half-way: the part folded moves, the rest is folded under the new verdict
        if (progress.length === 3) yield* recordAuthenticity(large, verdict(true))
      }
      // 50 rows by 7: seven slices of 7 and one of 1; then the small report whole
      expect(progress).toEqual([7, 7, 7, 7, 7, 7, 7, 1, 3])
      expect(yield* sql`SELECT report FROM dmarc_pending`).toEqual([])
      expect(
        (yield* sql<{ n: number }>`SELECT SUM(records) AS n FROM dmarc_rollup WHERE authenticated = 1`)[0]!.n
      ).toBe(50)
    }).pipe(Effect.provide(freshStore()))
  )

  it.effect("upgrades a store with reports pending from before the fold in slices", () =>
    Effect.gen(function* () {
      const file = join(mkdtempSync(join(tmpdir(), "domain-audit-rollup-")), "db.sqlite")
      const before = Object.fromEntries(Object.entries(migrations).filter(([id]) => id < "0017"))
      const client = SqliteClient.layer({ filename: file })
      const old = Layer.merge(
        client,
        SqliteMigrator.layer({ loader: Migrator.fromRecord(before) }).pipe(
          Layer.provide([client, NodeContext.layer])
        )
      )
      // stored (and listed as pending) as the code before stored them
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        for (let k = 0; k < 4; k++) {
          const [r] = yield* sql<{ id: number }>`INSERT INTO inbound_report
            (kind, domain, reporter, report_id, begin_at, end_at, received_at, records, messages, policy, content_hash)
            VALUES ('dmarc', 'a.example', 'receiver.example', ${`old-${k}`}, ${T0}, ${T0 + DAY - 1}, ${T0 + DAY},
              4, 1, '{}', ${`sha256:old-${k}`}) RETURNING id`
          yield* sql`INSERT INTO dmarc_pending (report) VALUES (${r!.id})`
          for (let j = 0; j < 4; j++)
            yield* sql`INSERT INTO dmarc_row (report, domain, begin_at, source_ip, count, disposition, dkim, spf,
                overrides, arc, header_from, dkim_auth, spf_auth)
              VALUES (${r!.id}, 'a.example', ${T0}, ${`192.0.2.${j}`}, ${k + j}, 'none', 'pass', 'fail', '', 0,
                'a.example', '', '')`
        }
      }).pipe(Effect.provide(old))
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        expect(yield* sql`SELECT folded_to FROM dmarc_pending`).toEqual(Array(4).fill({ folded_to: 0 }))
        const answer = yield* reference("a.example", T0, T0 + DAY, false)
        expect(yield* rolledUpGroups("a.example", T0, T0 + DAY, false)).toEqual(answer)
        yield* rollUpPending(3)
        expect(yield* rolledUpGroups("a.example", T0, T0 + DAY, false)).toEqual(answer)
        yield* rollUpAll(3)
        expect(yield* sql`SELECT report FROM dmarc_pending`).toEqual([])
        expect(yield* rolledUpGroups("a.example", T0, T0 + DAY, false)).toEqual(answer)
      }).pipe(Effect.provide(sqliteAt(file)))
    })
  )

  it.effect("rolls up the rows of a store made before it, which then answers as before", () =>
    Effect.gen(function* () {
      const file = join(mkdtempSync(join(tmpdir(), "domain-audit-rollup-")), "db.sqlite")
      const before = Object.fromEntries(Object.entries(migrations).filter(([id]) => id < "0016"))
      const client = SqliteClient.layer({ filename: file })
      const old = Layer.merge(
        client,
        SqliteMigrator.layer({ loader: Migrator.fromRecord(before) }).pipe(
          Layer.provide([client, NodeContext.layer])
        )
      )
      const rows = (k: number): Array<DmarcRowInsert> =>
        Array.from({ length: 5 }, (_, j) => ({
          source_ip: `192.0.2.${j}`,
          count: k + j,
          disposition: "none",
          dkim: j % 2 === 0 ? "pass" : "fail",
          spf: "pass",
          overrides: "",
          arc: 0,
          header_from: "a.example",
          dkim_auth: "[]",
          spf_auth: "[]",
          envelope_from: "",
          reasons: ""
        }))
      // stored as the code before the rollup stored them
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        for (let k = 0; k < 6; k++) {
          const begin = T0 + k * 40_000
          const [r] = yield* sql<{ id: number }>`INSERT INTO inbound_report
            (kind, domain, reporter, report_id, begin_at, end_at, received_at, records, messages, policy, content_hash,
              authenticated)
            VALUES ('dmarc', 'a.example', 'receiver.example', ${`old-${k}`}, ${begin}, ${begin + DAY - 1}, ${begin + DAY},
              5, 1, '{}', ${`sha256:old-${k}`}, ${k % 2}) RETURNING id`
          yield* sql`INSERT INTO dmarc_row ${sql.insert(rows(k).map((x) => ({ report: r!.id, domain: "a.example", begin_at: begin, ...x })))}`
        }
      }).pipe(Effect.provide(old))
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        expect((yield* sql<{ n: number }>`SELECT COUNT(*) AS n FROM dmarc_rollup`)[0]!.n).toBeGreaterThan(0)
        expect(yield* sql`SELECT name FROM sqlite_master WHERE name = 'dmarc_row_group'`).toEqual([])
        for (const [from, to] of [
          [T0, T0 + 4 * DAY],
          [T0 + 100, T0 + 2 * DAY + 5],
          [T0 + DAY, T0 + 2 * DAY]
        ] as const)
          for (const trusted of [false, true])
            expect(yield* rolledUpGroups("a.example", from, to, trusted)).toEqual(
              yield* reference("a.example", from, to, trusted)
            )
      }).pipe(Effect.provide(sqliteAt(file)))
    })
  )
})
