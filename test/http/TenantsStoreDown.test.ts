/**
 * The tenants' store (API keys, verified domains: the cluster's database under DATA_DIR) failing
 * under the API. Its failure is an outage: 503 with `{ "error": string }` and Retry-After, as the
 * other stores answer (docs/access.md "When the store cannot answer"), never a 500, never a 401 that
 * calls a good key bad, never a 403 that says a domain is not verified when nobody could tell. The
 * store is made to fail from a second connection to the same file: a table taken away (reads fail),
 * or the write lock held past the app's busy wait (SQLITE_BUSY).
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { ConfigProvider, Context, Effect, Layer } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { ApiKeys, ApiKeysCommandLive } from "../../src/monitor/access/ApiKeys.ts"
import { call, testApp } from "./harness.ts"

const dataDir = mkdtempSync(join(tmpdir(), "domain-audit-tenants-down-"))

const keysAt = ApiKeysCommandLive.pipe(
  Layer.provide(AppConfig.Default),
  Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["DATA_DIR", dataDir]]))))
)

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` })

/** A second connection to the app's cluster database, open for the enclosing scope. */
const other = Effect.map(
  Layer.build(SqliteClient.layer({ filename: join(dataDir, "cluster.sqlite") })),
  (context) => Context.get(context, SqlClient.SqlClient)
)

/** Run `effect` with `table` renamed away, then put it back. */
const without = <A, E, R>(table: string, effect: Effect.Effect<A, E, R>) =>
  Effect.scoped(
    Effect.flatMap(other, (sql) =>
      Effect.acquireUseRelease(
        sql.unsafe(`ALTER TABLE ${table} RENAME TO ${table}_away`),
        () => effect,
        () => Effect.orDie(sql.unsafe(`ALTER TABLE ${table}_away RENAME TO ${table}`))
      )
    )
  )

/** The answer of an outage: 503, the error body, Retry-After. */
const expectOutage = (r: Effect.Effect.Success<ReturnType<typeof call>>) => {
  expect(r.status).toBe(503)
  expect(r.json).toEqual({ error: expect.stringMatching(/retry later/) })
  expect(Number(r.headers["retry-after"])).toBeGreaterThan(0)
}

describe("the tenants' store failing", () => {
  it.live(
    "answers 503 with Retry-After: the guards, the verified domains, a tenant's reports",
    () =>
      Effect.gen(function* () {
        const key = yield* Effect.map(
          Effect.flatMap(ApiKeys, (keys) =>
            keys.create({ tenant: "msp-a", scopes: ["reports:read"], validForMs: null })
          ),
          (made) => made.key
        ).pipe(Effect.provide(keysAt))

        yield* Effect.gen(function* () {
          const claimed = yield* call("POST", "/api/domains", { domain: "a-customer.com" }, bearer(key))
          expect(claimed.status).toBe(201)

          // SQLITE_BUSY: another connection holds the write lock past the app's busy wait
          const busy = yield* Effect.scoped(
            Effect.flatMap(other, (sql) =>
              Effect.acquireUseRelease(
                sql.unsafe("BEGIN IMMEDIATE"),
                () => call("POST", "/api/domains", { domain: "b-customer.com" }, bearer(key)),
                () => Effect.orDie(sql.unsafe("ROLLBACK"))
              )
            )
          )
          expectOutage(busy)

          // The tables taken away last: the SQLite client keeps a statement that failed to
          // prepare as failed for a while, so nothing after them would see the store as it is.
          // The claims cannot be read: the key is good, its tenant's domains unknown.
          yield* without(
            "tenant_domains",
            Effect.gen(function* () {
              expectOutage(yield* call("GET", "/api/domains", undefined, bearer(key)))
              expectOutage(yield* call("GET", "/api/domains/a-customer.com", undefined, bearer(key)))
              expectOutage(yield* call("GET", "/api/reports/dmarc/a-customer.com", undefined, bearer(key)))
            })
          )

          // the keys cannot be read: the guards cannot tell whether the key is good
          yield* without(
            "api_keys",
            Effect.gen(function* () {
              expectOutage(yield* call("GET", "/api/domains", undefined, bearer(key)))
              expectOutage(yield* call("GET", "/api/reports/dmarc/a-customer.com", undefined, bearer(key)))
            })
          )
        }).pipe(Effect.provide(testApp({ LOCAL_ADMIN: "false" }, dataDir)))
      }),
    60_000
  )
})
