/**
 * Key rotation and tenants' report tags over the keys' SQLite database: `rotate` makes a key of the
 * same tenant and scopes and revokes the old one at once or after its grace (during which both
 * work, and the tenant's report address stays taken); a tenant's tag is random, its own and stable,
 * and names a tenant only while it has a key that works.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { ConfigProvider, Effect, Either, Layer } from "effect"
import fc from "fast-check"
import { AppConfig } from "../../../src/Config.ts"
import { ClusterSqlLive } from "../../../src/jobs/Cluster.ts"
import { keyState } from "../../../src/monitor/access/ApiKey.ts"
import { ApiKeys, ApiKeysCommandLive } from "../../../src/monitor/access/ApiKeys.ts"
import { looksLikeTag, newTag, tagOf, tenantOfTag } from "../../../src/monitor/access/TenantTags.ts"
import { runs } from "../../support/runs.ts"

const keysAt = () => {
  const settings = Layer.setConfigProvider(
    ConfigProvider.fromMap(new Map([["DATA_DIR", mkdtempSync(join(tmpdir(), "key-rotation-"))]]))
  )
  const config = AppConfig.Default.pipe(Layer.provide(settings))
  return Layer.merge(ApiKeysCommandLive, ClusterSqlLive).pipe(Layer.provide(config), Layer.provide(settings))
}

const HOUR = 3_600_000

describe("keys rotate", () => {
  it.scoped("makes a key of the same tenant and scopes, the old one revoked at once or after its grace", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const sql = yield* SqlClient.SqlClient
      const old = yield* keys.create({
        tenant: "acme",
        scopes: ["reports:read", "monitors"],
        validForMs: 90 * 24 * HOUR
      })
      const tag = yield* Effect.provideService(tagOf("acme"), SqlClient.SqlClient, sql)

      const rotated = yield* keys.rotate(old.record.id, HOUR)
      if (typeof rotated === "string") return expect.unreachable(rotated)
      expect(rotated.record).toMatchObject({ tenant: "acme", scopes: old.record.scopes })
      expect(rotated.record.id).not.toBe(old.record.id)
      // as long a validity as the old key had, from the rotation on
      expect(rotated.record.expiresAt! - rotated.record.createdAt).toBe(90 * 24 * HOUR)
      // in its grace, both keys work and both are usable at the edge
      expect((yield* keys.verify(old.key)).id).toBe(old.record.id)
      expect((yield* keys.verify(rotated.key)).id).toBe(rotated.record.id)
      const usable = yield* keys.usable
      expect([...usable.values()].sort()).toEqual([old.record.id, rotated.record.id].sort())
      // revoked at the end of the grace: an hour after the rotation
      const listed = (yield* keys.list).find((k) => k.id === old.record.id)!
      expect(listed.revokedAt).toBe(rotated.revokedAt)
      expect(keyState(listed, rotated.revokedAt - 1)).toBe("valid")
      expect(keyState(listed, rotated.revokedAt)).toBe("revoked")
      expect(rotated.revokedAt - rotated.record.createdAt).toBeLessThanOrEqual(HOUR)

      // revoking a key in its grace ends the grace now; the new key keeps working
      yield* keys.revoke(old.record.id)
      expect(Either.getLeft(yield* Effect.either(keys.verify(old.key)))).toMatchObject({
        _tag: "Some",
        value: { reason: "revoked" }
      })
      expect((yield* keys.verify(rotated.key)).id).toBe(rotated.record.id)
      // a revoked key has nothing to rotate; an unknown id is no key
      expect(yield* keys.rotate(old.record.id, 0)).toBe("revoked")
      expect(yield* keys.rotate("key_0000000000000000", 0)).toBe("none")

      // without a grace the old key stops at once; the tenant, with a working key, keeps its tag
      const again = yield* keys.rotate(rotated.record.id, 0)
      if (typeof again === "string") return expect.unreachable(again)
      expect(Either.isLeft(yield* Effect.either(keys.verify(rotated.key)))).toBe(true)
      expect((yield* keys.verify(again.key)).tenant).toBe("acme")
      const tenantNow = (text: string) =>
        Effect.provideService(tenantOfTag(text, Date.now()), SqlClient.SqlClient, sql)
      expect(yield* Effect.provideService(tagOf("acme"), SqlClient.SqlClient, sql)).toBe(tag)
      expect(yield* tenantNow(tag)).toBe("acme")
      // no key left that works: the tag names no one
      yield* keys.revoke(again.record.id)
      expect(yield* tenantNow(tag)).toBeUndefined()
    }).pipe(Effect.provide(keysAt()))
  )

  it.scoped("gives every tenant a tag of its own, with its first key", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const sql = yield* SqlClient.SqlClient
      yield* keys.create({ tenant: "acme", scopes: ["monitors"], validForMs: null })
      yield* keys.create({ tenant: "globex", scopes: ["monitors"], validForMs: null })
      const acme = yield* Effect.provideService(tagOf("acme"), SqlClient.SqlClient, sql)
      const globex = yield* Effect.provideService(tagOf("globex"), SqlClient.SqlClient, sql)
      expect(looksLikeTag(acme) && looksLikeTag(globex)).toBe(true)
      expect(acme).not.toBe(globex)
      expect(yield* Effect.provideService(tenantOfTag(globex, Date.now()), SqlClient.SqlClient, sql)).toBe(
        "globex"
      )
    }).pipe(Effect.provide(keysAt()))
  )
})

describe("a report tag", () => {
  it("is 16 base32 characters, a different one for different bytes", () =>
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 10, maxLength: 10 }),
        fc.uint8Array({ minLength: 10, maxLength: 10 }),
        (a, b) => {
          expect(looksLikeTag(newTag(a))).toBe(true)
          expect(newTag(a) === newTag(b)).toBe(Buffer.from(a).equals(Buffer.from(b)))
        }
      ),
      { numRuns: runs(200) }
    ))

  it("is RFC 4648 base32, in lower case", () => {
    // RFC 4648 §10: BASE32("fooba") = "MZXW6YTB"
    expect(newTag(new TextEncoder().encode("foobafooba"))).toBe("mzxw6ytbmzxw6ytb")
    expect(looksLikeTag("msp-a")).toBe(false)
    expect(looksLikeTag("MZXW6YTBMZXW6YTB")).toBe(false)
  })
})
