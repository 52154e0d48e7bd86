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

layer(testApp({ HEALTH_REFRESH_MS: "100" }, dataDir), { excludeTestServices: true })("health", (it) => {
  it.effect("is 200 healthy while the database works, 503 {error} within a refresh once it is unusable", () =>
    Effect.gen(function* () {
      const before = yield* health
      expect(before.status).toBe(200)
      expect(before.body.status).toBe("healthy")
      expect(before.body.services.database).toMatchObject({ status: "healthy", journalMode: "wal" })
      // Break the schema from a second connection, as a bad restore or a stray tool would.
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`DROP TABLE app_meta`
      }).pipe(Effect.provide(SqliteClient.layer({ filename: join(dataDir, "domain-audit.sqlite") })))
      // The check runs in the background every HEALTH_REFRESH_MS: poll (bounded) until it has seen it.
      let after = yield* health
      for (let i = 0; i < 50 && after.status === 200; i++)
        after = yield* Effect.zipRight(
          Effect.promise(() => new Promise((r) => setTimeout(r, 100))),
          health
        )
      expect(after.status).toBe(503)
      expect(after.body).toEqual({ error: expect.stringMatching(/^database unusable: /) })
    })
  )
})

layer(testApp({ HEALTH_REFRESH_MS: "60000" }))("health under load", (it) => {
  it.effect("answers from the last background check: requests do not touch the database", () =>
    Effect.gen(function* () {
      const answers = yield* Effect.forEach([1, 2, 3, 4, 5], () => health)
      for (const a of answers) expect(a.status).toBe(200)
      const checkedAt = answers.map((a) => a.body.services.database.checkedAt)
      expect(checkedAt[0]).toEqual(expect.any(String))
      // One check (at start-up) served every request; each answer still has its own timestamp and age.
      expect(new Set(checkedAt).size).toBe(1)
      expect(answers.every((a) => typeof a.body.services.database.ageMs === "number")).toBe(true)
    })
  )
})
