/**
 * A history kept across changes of the registry, over a real SQLite file (no network): entries
 * stored by a service that did not have the DNSSEC check yet and by one that had the toy check are
 * read, served, verified, diffed and used as evidence by today's registry.
 */
import { domain } from "../support/domain.ts"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ConfigProvider, Effect, Layer, Option, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { AppConfig } from "../../src/Config.ts"
import type { Registered } from "../../src/kernel/Check.ts"
import type { ScanResult } from "../../src/scan/ScanResult.ts"
import { canonicalJson, sha256Of } from "../../src/report/Canonical.ts"
import { Histories, HistoryScan } from "../../src/monitor/Histories.ts"
import { nextEntry } from "../../src/monitor/HistoryChain.ts"
import { HistoryStore } from "../../src/monitor/HistoryStore.ts"
import { MonitoredDomains } from "../../src/monitor/MonitoredDomains.ts"
import { score } from "../../src/score/Score.ts"
import { databaseFile, sqliteAt } from "../../src/store/Sql.ts"
import { storedBy, without, withToy } from "../fixtures/registries.ts"
import { toyRegistry } from "../fixtures/toy/registry.ts"
import { asDomain, storedScan } from "./scans.ts"

const DOMAIN = domain("example.test")
const T0 = Date.UTC(2026, 10, 1)
const minute = (m: number) => new Date(T0 + m * 60_000).toISOString()

/** perfect.com with its zone unsigned: it fails the DNSSEC check and nothing else. */
const unsigned = (m: number): ScanResult => {
  const scan = structuredClone(asDomain(storedScan("perfect.com"), DOMAIN, minute(m))) as any
  scan.checks.dnssec = structuredClone(storedScan("dmarc-none.com").checks.dnssec)
  return scan
}

/** Append `scan` as a service whose registry was `checks` recorded it (Histories.record's steps). */
const recordAs = (checks: ReadonlyArray<Registered>, scan: object & Pick<ScanResult, "computedAt">) =>
  Effect.gen(function* () {
    const store = yield* HistoryStore
    const encoded = storedBy(checks, scan)
    const scored = score(scan as ScanResult, checks)
    return yield* store.append(DOMAIN, encoded, (last) =>
      Option.some(
        nextEntry(DOMAIN, last?.entry ?? null, {
          scannedAt: scan.computedAt,
          grade: scored.grade,
          percentage: scored.percentage,
          scanJson: canonicalJson(encoded)
        })
      )
    )
  })

const run = <A, E>(effect: Effect.Effect<A, E, Histories | HistoryStore>) => {
  const config = AppConfig.Default.pipe(
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["HISTORY", "all"]]))))
  )
  const layer = Histories.Default.pipe(
    Layer.provideMerge(HistoryStore.Default),
    Layer.provide([config, MonitoredDomains.None]),
    Layer.provide(sqliteAt(databaseFile(mkdtempSync(join(tmpdir(), "history-compat-")))))
  )
  return Effect.runPromise(Effect.provide(effect, layer))
}

describe("a history across changes of the registry", () => {
  it("serves, verifies, diffs and weighs entries stored before a check was added and after one was removed", () =>
    run(
      Effect.gen(function* () {
        const h = yield* Histories
        // 1: before the DNSSEC check existed; 2: today's; 3: a service that had the toy; 4: today's.
        yield* recordAs(without("dnssec"), unsigned(0))
        yield* h.record(unsigned(60))
        const toy = withToy(asDomain(storedScan("dmarc-none.com"), DOMAIN, minute(120)))
        yield* recordAs(toyRegistry, toy)
        yield* h.record(asDomain(storedScan("perfect.com"), DOMAIN, minute(180)))

        const list = yield* h.list(DOMAIN)
        expect(list.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4])
        expect(list).toMatchObject({ chainValid: true, invalidSeq: null })

        // Served as stored: the JSON hashes to the entry's content hash, lacking or holding checks.
        const served = (seq: number) =>
          Effect.map(h.entry(DOMAIN, seq), (e) => Schema.encodeSync(HistoryScan)(e) as any)
        const first = yield* served(1)
        expect(Object.keys(first.scan.checks)).not.toContain("dnssec")
        expect(sha256Of(canonicalJson(first.scan))).toBe(first.entry.contentHash)
        const third = yield* served(3)
        expect(third.scan.checks.toy).toMatchObject({ id: "toy", result: { status: "fail" } })
        expect(sha256Of(canonicalJson(third.scan))).toBe(third.entry.contentHash)
        expect(third.scan).toEqual(storedBy(toyRegistry, toy))

        // The DNSSEC check was not made then: said once, at info; the domain did not change.
        const added = (yield* h.diff(DOMAIN, 1, 2)).changes
        expect(added.find((c) => c.id === "check/dnssec.signed")).toMatchObject({
          kind: "check",
          before: null,
          after: "fail",
          severity: "info"
        })
        expect(added.filter((c) => c.severity !== "info")).toEqual([])
        expect(added.filter((c) => c.kind.startsWith("issue"))).toEqual([])
        // The toy the registry no longer has is not compared; the domain's own change is.
        const toyDiff = (yield* h.diff(DOMAIN, 2, 3)).changes
        expect(toyDiff.map((c) => c.id).filter((id) => id.includes("toy"))).toEqual([])
        expect(toyDiff.find((c) => c.id === "record/dmarc-policy")).toMatchObject({
          before: "reject",
          after: "none"
        })

        // Evidence: a record's share over the entries that made it (2, 3 and 4: 180 minutes).
        const evidence = yield* h.evidence(DOMAIN, minute(0), minute(240))
        expect(evidence.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4])
        expect(evidence.checks.find((c) => c.id === "dnssec.signed")).toEqual({
          id: "dnssec.signed",
          label: "DNSSEC signed",
          passShare: 0.3333,
          passSeconds: 3600,
          appliedSeconds: 10800
        })
        expect(evidence.checks.find((c) => c.id === "email.dmarc.policy")).toMatchObject({
          passShare: 0.75,
          appliedSeconds: 14400
        })
        expect(evidence.changes.map((s) => s.toSeq)).toEqual([2, 3, 4])
      })
    ))

  it("still refuses an entry whose stored scan does not hash to its content hash", () =>
    run(
      Effect.gen(function* () {
        const h = yield* Histories
        const store = yield* HistoryStore
        const scan = unsigned(0)
        const encoded = storedBy(without("dnssec"), scan)
        yield* store.append(DOMAIN, encoded, () =>
          Option.some(
            nextEntry(DOMAIN, null, {
              scannedAt: scan.computedAt,
              grade: "A+",
              percentage: 100,
              // the hash of another scan: what an edited body looks like
              scanJson: canonicalJson(storedBy(without("dkim"), scan))
            })
          )
        )
        const error = yield* Effect.flip(h.entry(DOMAIN, 1))
        expect(error._tag).toBe("HistoryCorrupt")
      })
    ))
})
