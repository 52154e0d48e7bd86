/**
 * A deep-scan result stored by an earlier version of the service (its Schema has gained fields
 * since) is read back as what it is: completed, no result, and an error saying to submit it again.
 * Not a 500, and not a body the contract does not describe.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testApp } from "./harness.ts"

const dataDir = mkdtempSync(join(tmpdir(), "domain-audit-deep-stored-"))

layer(testApp({}, dataDir), { excludeTestServices: true })("a deep scan stored in an older format", (it) => {
  it.effect("reads as completed with no result and an error that says what to do", () =>
    Effect.gen(function* () {
      // the app has created the table; write the row as an older version would have left it
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const old = JSON.stringify({
          kind: "mail",
          scan: { domain: "perfect.com", checks: { "smtp-tls": {} } }
        })
        yield* sql`INSERT INTO deep_scans (scan_id, domain, kind, requested_at, started_at, finished_at, status, result)
          VALUES ('0123456789abcdef0123', 'perfect.com', 'mail', 1, 1, 2, 'completed', ${old})`
      }).pipe(Effect.provide(SqliteClient.layer({ filename: join(dataDir, "cluster.sqlite") })))
      const r = yield* call("GET", "/api/scan/deep/0123456789abcdef0123")
      expect(r.status).toBe(200)
      expect(r.json).toMatchObject({
        scan_id: "0123456789abcdef0123",
        status: "completed",
        result: null,
        error: expect.stringMatching(/earlier version .* submit the scan again/)
      })
    })
  )
})
