/**
 * The history over a real SQLite file (no network): fresh scans appended as a chain, a cached
 * re-serve and a repeated scan not, the HISTORY setting, the database refusing edits, and an entry
 * edited in the file past the triggers (as an attacker with the file would) caught at its seq.
 */
import { domain } from "../support/domain.ts"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Reactivity } from "@effect/experimental"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { ConfigProvider, Effect, Layer, Option } from "effect"
import { describe, expect, it } from "vitest"
import { AppConfig } from "../../src/Config.ts"
import type { ScanResult } from "../../src/scan/ScanResult.ts"
import { Histories } from "../../src/monitor/Histories.ts"
import { HistoryStore } from "../../src/monitor/HistoryStore.ts"
import { MonitoredDomains } from "../../src/monitor/MonitoredDomains.ts"
import { databaseFile, sqliteAt } from "../../src/store/Sql.ts"
import { asDomain, storedScan } from "./scans.ts"

const DOMAIN = domain("example.test")

const at = (base: string, minutes: number): ScanResult =>
  asDomain(storedScan(base), DOMAIN, new Date(Date.UTC(2026, 10, 1) + minutes * 60_000).toISOString())

const run = <A, E>(
  effect: Effect.Effect<A, E, Histories | HistoryStore>,
  // every scan kept unless a test says otherwise: the tests' domains are nobody's
  env: Record<string, string> = { HISTORY: "all" },
  dir = mkdtempSync(join(tmpdir(), "history-test-")),
  monitored: Layer.Layer<MonitoredDomains> = MonitoredDomains.None
) => {
  const config = AppConfig.Default.pipe(
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
  )
  const layer = Histories.Default.pipe(
    Layer.provideMerge(HistoryStore.Default),
    Layer.provide([config, monitored]),
    Layer.provide(sqliteAt(databaseFile(dir)))
  )
  return Effect.runPromise(Effect.provide(effect, layer))
}

describe("Histories", () => {
  it("appends fresh scans as a chain, and neither a cached re-serve nor the same scan again (it is the last entry)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "history-test-"))
    const list = await run(
      Effect.gen(function* () {
        const h = yield* Histories
        const first = yield* h.record(at("perfect.com", 0))
        expect(Option.getOrThrow(first)).toMatchObject({ seq: 1, grade: "A+", previousHash: null })
        expect(yield* h.record(at("perfect.com", 0))).toEqual(first)
        expect(yield* h.record({ ...at("dmarc-none.com", 5), cached: true })).toEqual(Option.none())
        yield* h.record(at("dmarc-none.com", 10))
        return yield* h.list(DOMAIN)
      }),
      { HISTORY: "all" },
      dir
    )
    expect(list.entries.map((e) => [e.seq, e.grade])).toEqual([
      [1, "A+"],
      [2, "D"]
    ])
    expect(list.entries[1]!.previousHash).toBe(list.entries[0]!.hash)
    expect(list).toMatchObject({ chainValid: true, invalidSeq: null })
  })

  it("serves each stored scan as recorded, across keyframes and deltas", async () => {
    const bases = ["perfect.com", "dmarc-none.com", "mx-listed.com", "mx-expired.com"]
    const scans = Array.from({ length: 36 }, (_, i) => at(bases[i % 4]!, i))
    await run(
      Effect.gen(function* () {
        const h = yield* Histories
        for (const scan of scans) yield* h.record(scan)
        for (const [i, scan] of scans.entries()) expect((yield* h.entry(DOMAIN, i + 1)).scan).toEqual(scan)
        expect((yield* h.list(DOMAIN)).chainValid).toBe(true)
        const diff = yield* h.diff(DOMAIN, undefined, undefined)
        expect([diff.from.seq, diff.to.seq]).toEqual([35, 36])
        const policy = (yield* h.diff(DOMAIN, 1, 2)).changes.find((c) => c.id === "record/dmarc-policy")
        expect(policy?.summary).toBe("DMARC policy went from reject to none.")
        const missing = yield* Effect.flip(h.entry(DOMAIN, 37))
        expect(missing._tag).toBe("HistoryMissing")
      })
    )
  })

  it("a diff asked for without entries is the last change: runs that changed nothing are skipped", async () => {
    const [latest, named] = await run(
      Effect.gen(function* () {
        const h = yield* Histories
        for (const [i, base] of [
          "perfect.com",
          "dmarc-none.com",
          "dmarc-none.com",
          "dmarc-none.com"
        ].entries())
          yield* h.record(at(base, i * 10))
        return [yield* h.diff(DOMAIN, undefined, undefined), yield* h.diff(DOMAIN, undefined, 4)] as const
      })
    )
    expect([latest.from.seq, latest.to.seq]).toEqual([1, 2])
    expect(latest.changes.find((c) => c.id === "record/dmarc-policy")).toMatchObject({ after: "none" })
    // Entries named: exactly those, changed or not.
    expect([named.from.seq, named.to.seq, named.changes.length]).toEqual([3, 4, 0])
  })

  it("gives the evidence of a period from the entries in force in it", async () => {
    const minute = (n: number) => new Date(Date.UTC(2026, 10, 1) + n * 60_000).toISOString()
    const [wide, narrow, inverted] = await run(
      Effect.gen(function* () {
        const h = yield* Histories
        for (const [i, base] of ["perfect.com", "dmarc-none.com", "perfect.com"].entries())
          yield* h.record(at(base, i * 10))
        return [
          yield* h.evidence(DOMAIN, minute(5), minute(35)),
          yield* h.evidence(DOMAIN, minute(12), minute(15)),
          yield* Effect.flip(h.evidence(DOMAIN, minute(15), minute(12)))
        ] as const
      })
    )
    expect(wide.entries.map((e) => e.seq)).toEqual([1, 2, 3])
    expect(wide.checks.find((c) => c.id === "email.dmarc.policy")?.passShare).toBe(0.6667)
    expect(wide.chainValid).toBe(true)
    expect(narrow.entries.map((e) => e.seq)).toEqual([2])
    expect(narrow.checks.find((c) => c.id === "email.dmarc.policy")?.passShare).toBe(0)
    expect(narrow.changes).toEqual([])
    expect(inverted._tag).toBe("HistoryRangeInvalid")
  })

  it("keeps a scan compactly: bytes per entry of repeated scans of one domain", async () => {
    const { entries, bytes } = await run(
      Effect.gen(function* () {
        const h = yield* Histories
        for (let i = 0; i < 32; i++) {
          const scan = structuredClone(at("perfect.com", i)) as any
          for (const outcome of Object.values(scan.checks) as Array<any>) outcome.durationMs = (i * 37) % 900
          yield* h.record(scan)
        }
        return yield* Effect.flatMap(HistoryStore, (s) => s.bytes(DOMAIN))
      })
    )
    expect(entries).toBe(32)
    // the whole scan is 35 KB of JSON; 8 KB brotli-compressed; its delta about 1 KB
    expect(bytes / entries).toBeLessThan(2_000)
  })

  it("starts no history for a name that does not exist, but records a known domain going away", async () => {
    /** `scan` as it would be had every question about its name answered NXDOMAIN. */
    const gone = (scan: ScanResult): ScanResult => {
      const lookup = scan.checks["dns-records"]
      const outcomes = Object.fromEntries(
        Object.keys(lookup.result!.outcomes).map((type) => [type, "nxdomain"])
      )
      return {
        ...scan,
        checks: {
          ...scan.checks,
          "dns-records": { ...lookup, result: { ...lookup.result!, outcomes, records: {} } }
        }
      } as ScanResult
    }
    const [madeUp, monitorsRun, known, wentAway] = await run(
      Effect.gen(function* () {
        const h = yield* Histories
        return [
          yield* h.record(gone(asDomain(storedScan("perfect.com"), "made-up.test"))),
          yield* h.record(gone(asDomain(storedScan("perfect.com"), "watched.test")), { monitored: true }),
          yield* h.record(at("perfect.com", 0)),
          yield* h.record(gone(at("perfect.com", 10)))
        ]
      })
    )
    expect(Option.isNone(madeUp!)).toBe(true)
    expect(Option.getOrThrow(monitorsRun!).seq).toBe(1)
    expect(Option.getOrThrow(known!).seq).toBe(1)
    expect(Option.getOrThrow(wentAway!).seq).toBe(2)
  })

  it("with HISTORY=monitored, records only monitored domains and monitors' runs", async () => {
    const watched = Layer.succeed(MonitoredDomains, {
      isMonitored: (domain) => Effect.succeed(domain === "watched.test"),
      isOwned: (domain) => Effect.succeed(domain === "watched.test" || domain === "verified.test")
    })
    const [unwatched, forced, watchedEntry] = await run(
      Effect.gen(function* () {
        const h = yield* Histories
        return [
          yield* h.record(at("perfect.com", 0)),
          yield* h.record(at("perfect.com", 1), { monitored: true }),
          yield* h.record(asDomain(storedScan("perfect.com"), "watched.test"))
        ]
      }),
      { HISTORY: "monitored" },
      undefined,
      watched
    )
    expect(Option.isNone(unwatched!)).toBe(true)
    expect(Option.getOrThrow(forced!).seq).toBe(1)
    expect(Option.getOrThrow(watchedEntry!).seq).toBe(1)
  })

  it("with HISTORY=owned (the default), records monitored and verified domains and monitors' runs", async () => {
    const owned = Layer.succeed(MonitoredDomains, {
      isMonitored: (domain) => Effect.succeed(domain === "watched.test"),
      isOwned: (domain) => Effect.succeed(domain === "watched.test" || domain === "verified.test")
    })
    const entries = await run(
      Effect.gen(function* () {
        const h = yield* Histories
        return [
          yield* h.record(at("perfect.com", 0)),
          yield* h.record(at("perfect.com", 1), { monitored: true }),
          yield* h.record(asDomain(storedScan("perfect.com"), "watched.test")),
          yield* h.record(asDomain(storedScan("perfect.com"), "verified.test"))
        ]
      }),
      { HISTORY: "owned" },
      undefined,
      owned
    )
    expect(entries.map((e) => Option.map(e, (x) => x.seq).pipe(Option.getOrNull))).toEqual([null, 1, 1, 1])
    // and without the setting: owned is the default
    const unset = await run(
      Effect.flatMap(Histories, (h) => h.record(at("perfect.com", 0))),
      {},
      undefined,
      owned
    )
    expect(Option.isNone(unset)).toBe(true)
  })

  it("is append-only in the database, and an entry edited in the file breaks the chain at its seq", async () => {
    const dir = mkdtempSync(join(tmpdir(), "history-test-"))
    // The file opened directly, as an attacker holding it would, not through the service.
    const attacker = (statements: ReadonlyArray<string>) =>
      Effect.scoped(
        Effect.gen(function* () {
          const db = yield* SqliteClient.make({ filename: databaseFile(dir) })
          const answers: Array<string> = []
          for (const statement of statements)
            answers.push(
              yield* db.unsafe(statement).pipe(
                Effect.as("done"),
                Effect.catchAll((e) => Effect.succeed(String(e.cause)))
              )
            )
          return answers
        })
      ).pipe(Effect.provide(Reactivity.layer))
    const [before, refusals, after, later] = await run(
      Effect.gen(function* () {
        const h = yield* Histories
        for (let i = 0; i < 4; i++) yield* h.record(at(i % 2 === 0 ? "perfect.com" : "dmarc-none.com", i))
        const before = yield* h.list(DOMAIN)
        const refusals = yield* attacker([
          "UPDATE scan_history SET grade = 'A+' WHERE seq = 2",
          "DELETE FROM scan_history WHERE seq = 4",
          `INSERT INTO scan_history (domain, seq, scanned_at, grade, percentage, content_hash, previous_hash, hash, packing, body)
           VALUES ('${DOMAIN}', 9, 'x', 'A+', 100, 'sha256:0', NULL, 'sha256:0', 'whole', x'00')`
        ])
        // Past the triggers, while the service runs (it verified this chain a moment ago): drop one
        // and rewrite seq 2's grade from F to A+.
        yield* attacker([
          "DROP TRIGGER scan_history_no_update",
          `UPDATE scan_history SET grade = 'A+', percentage = 100 WHERE domain = '${DOMAIN}' AND seq = 2`
        ])
        const after = yield* h.list(DOMAIN)
        // and then the stored scan of seq 3 (a delta over seq 2's): one byte of its body
        yield* attacker([
          `UPDATE scan_history SET body = substr(body, 1, length(body) - 1) || x'00' WHERE domain = '${DOMAIN}' AND seq = 3`
        ])
        return [before, refusals, after, yield* h.list(DOMAIN)] as const
      }),
      { HISTORY: "all" },
      dir
    )
    expect(before).toMatchObject({ chainValid: true, invalidSeq: null })
    expect(refusals[0]).toMatch(/append-only/)
    expect(refusals[1]).toMatch(/append-only/)
    expect(refusals[2]).toMatch(/can only follow/)
    expect(after).toMatchObject({ chainValid: false, invalidSeq: 2 })
    expect(after.entries[1]!.grade).toBe("A+")
    expect(later).toMatchObject({ chainValid: false, invalidSeq: 2 })
    // A process that reads the file afresh sees the same.
    const fresh = await run(
      Effect.flatMap(Histories, (h) => h.list(DOMAIN)),
      { HISTORY: "all" },
      dir
    )
    expect(fresh).toMatchObject({ chainValid: false, invalidSeq: 2 })
  })

  it("finds a scan edited in a chain it verified before, at that entry", async () => {
    const dir = mkdtempSync(join(tmpdir(), "history-test-"))
    const [before, after, entry] = await run(
      Effect.gen(function* () {
        const h = yield* Histories
        for (let i = 0; i < 5; i++) yield* h.record(at(i % 2 === 0 ? "perfect.com" : "dmarc-none.com", i))
        const before = yield* h.list(DOMAIN)
        yield* Effect.scoped(
          Effect.gen(function* () {
            const db = yield* SqliteClient.make({ filename: databaseFile(dir) })
            yield* db.unsafe("DROP TRIGGER scan_history_no_update")
            // seq 4's scan replaced by seq 2's (a valid delta, for another entry)
            yield* db.unsafe(
              `UPDATE scan_history SET body = (SELECT body FROM scan_history WHERE domain = '${DOMAIN}' AND seq = 2) WHERE domain = '${DOMAIN}' AND seq = 4`
            )
          })
        ).pipe(Effect.provide(Reactivity.layer))
        return [before, yield* h.list(DOMAIN), yield* Effect.flip(h.entry(DOMAIN, 4))] as const
      }),
      { HISTORY: "all" },
      dir
    )
    expect(before.chainValid).toBe(true)
    expect(after).toMatchObject({ chainValid: false, invalidSeq: 4 })
    expect(entry._tag).toBe("HistoryCorrupt")
  })
})
