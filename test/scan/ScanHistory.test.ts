/**
 * ScanHistory.Live over a real database: a fresh full scan of a domain that exists is stored with
 * its score's grade and percentage and its computedAt; a name that does not exist (NXDOMAIN) is not.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { ScanHistory } from "../../src/scan/ScanHistory.ts"
import { scanScore } from "../../src/composite/ScanScore.ts"
import { Scans } from "../../src/scan/Scans.ts"
import { sqliteAt } from "../../src/store/Sql.ts"
import { fakeNet } from "../checks/facts.ts"
import { domain } from "../support/domain.ts"

const zone = {
  "exists.org SOA": ["ns1.exists.org. hostmaster.exists.org. 1 7200 3600 1209600 300"],
  "exists.org NS": ["ns1.exists.org.", "ns2.exists.org."],
  "exists.org A": ["192.0.2.10"]
}

const app = () => {
  const database = sqliteAt(join(mkdtempSync(join(tmpdir(), "domain-audit-history-")), "test.sqlite"))
  return Scans.Default.pipe(
    Layer.provide(ScanHistory.Live),
    Layer.provideMerge(database),
    Layer.provideMerge(fakeNet({ zone, env: { SCAN_DEADLINE_MS: "2000" } }))
  )
}

describe("ScanHistory.Live", () => {
  it.effect("stores each gradable domain's fresh result once, and no NXDOMAIN name", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const first = yield* scanScore(domain("exists.org"))
      yield* scanScore(domain("ghost.org"))
      const again = yield* scanScore(domain("exists.org"))
      expect(again.cached).toBe(true)
      const rows = yield* sql<{ domain: string; grade: string; score: number; computed_at: number }>`
        SELECT domain, grade, score, computed_at FROM domain_results ORDER BY domain`
      expect(rows.map((r) => ({ ...r, score: Number(r.score), computed_at: Number(r.computed_at) }))).toEqual(
        [
          {
            domain: "exists.org",
            grade: first.grade,
            score: first.percentage,
            computed_at: Date.parse(first.timestamp)
          }
        ]
      )
    }).pipe(Effect.provide(app()))
  )
})
