import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { HttpClient } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { testApp } from "./harness.ts"

const dataDir = mkdtempSync(join(tmpdir(), "domain-audit-health-"))

const health = Effect.gen(function* () {
  const response = yield* HttpClient.get("/api/health")
  return { status: response.status, body: (yield* response.json) as Record<string, any> }
}).pipe(Effect.scoped)

layer(testApp({}, dataDir))("health", (it) => {
  it.effect("is 200 healthy while the database works, 503 {error} once it is unusable", () =>
    Effect.gen(function* () {
      const before = yield* health
      expect(before.status).toBe(200)
      expect(before.body.status).toBe("healthy")
      // Break the schema from a second connection, as a bad restore or a stray tool would.
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`DROP TABLE app_meta`
      }).pipe(Effect.provide(SqliteClient.layer({ filename: join(dataDir, "domain-audit.sqlite") })))
      const after = yield* health
      expect(after.status).toBe(503)
      expect(after.body).toEqual({ error: expect.stringMatching(/^database unusable: /) })
    })
  )
})
