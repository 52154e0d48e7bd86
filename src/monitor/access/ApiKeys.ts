/**
 * The API keys service (docs/access.md): create, list and revoke keys (the `domain-audit keys`
 * command), and tell the edge which key a request presents. A key that cannot be used is refused
 * with the reason a client can act on: malformed, unknown, revoked or expired; never which tenant
 * it was, or anything else about it.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { ClusterLive, ClusterSqlLive } from "../../jobs/Cluster.ts"
import { type KeyRecord, keyHash, keyState, looksLikeKey, newKey, sameHash, type Scope } from "./ApiKey.ts"
import { tagOf } from "./TenantTags.ts"
import {
  anyKey,
  ensureKeyTables,
  findKey,
  findKeyByHash,
  insertKey,
  listKeys,
  revokeKey,
  usableKeys
} from "./ApiKeyStore.ts"

/** The presented key cannot be used; `reason` says why (401). */
export class KeyRefused extends Schema.TaggedError<KeyRefused>()("KeyRefused", {
  reason: Schema.Literal("malformed", "unknown", "revoked", "expired")
}) {
  override get message() {
    switch (this.reason) {
      case "malformed":
        return "the bearer token is not an API key (da_ followed by 43 or more base64url characters) nor the MONITORS_TOKEN"
      case "unknown":
        return "this API key is not known here"
      case "revoked":
        return "this API key has been revoked"
      case "expired":
        return "this API key has expired"
    }
  }
}

export class ApiKeys extends Effect.Service<ApiKeys>()("ApiKeys", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
      Effect.provideService(effect, SqlClient.SqlClient, sql)
    /** A new key for `tenant`; the key's text is in the answer and nowhere else. */
    const create = (input: {
      readonly tenant: string
      readonly scopes: ReadonlyArray<Scope>
      readonly validForMs: number | null
    }) =>
      Effect.gen(function* () {
        const { key, hash, id } = newKey()
        const now = Date.now()
        const record: KeyRecord = {
          id,
          tenant: input.tenant,
          scopes: input.scopes,
          createdAt: now,
          expiresAt: input.validForMs === null ? null : now + input.validForMs,
          revokedAt: null
        }
        yield* run(insertKey({ ...record, hash }))
        // the tenant's report address exists from its first key on (docs/access.md)
        yield* run(tagOf(record.tenant))
        return { key, record }
      })
    return {
      create,
      /**
       * A new key for the tenant and scopes of `id`, valid as long as `id` was (from now), and `id`
       * revoked once `graceMs` has passed (0: at once), so a client can move to the new one first.
       * `none` when there is no such key, `revoked` when it is revoked already (its tenant's access
       * was cut: rotating it would give it back; `keys create` does that on purpose).
       */
      rotate: (id: string, graceMs: number) =>
        Effect.gen(function* () {
          const old = yield* run(findKey(id))
          const now = Date.now()
          if (old === undefined) return "none" as const
          if (keyState(old, now) === "revoked") return "revoked" as const
          const made = yield* create({
            tenant: old.tenant,
            scopes: old.scopes,
            validForMs: old.expiresAt === null ? null : old.expiresAt - old.createdAt
          })
          yield* run(revokeKey(id, now + graceMs))
          return { ...made, revokedAt: Math.min(now + graceMs, old.revokedAt ?? Infinity) }
        }),
      list: run(Effect.map(listKeys, (rows) => rows.map(({ hash: _, ...record }): KeyRecord => record))),
      revoke: (id: string) => run(revokeKey(id, Date.now())),
      /** The id of every key usable now, by its SHA-256 (the edge's per-key buckets, KeyClients.ts). */
      usable: Effect.suspend(() => run(usableKeys(Date.now()))),
      /** Whether any key exists (reports stay open until one does). */
      anyDefined: run(anyKey),
      /** The key `text` names, if usable now. */
      verify: (text: string) =>
        Effect.gen(function* () {
          if (!looksLikeKey(text)) return yield* Effect.fail(new KeyRefused({ reason: "malformed" }))
          const hash = keyHash(text)
          const row = yield* run(findKeyByHash(hash))
          // The lookup found the row by its hash; the comparison in constant time is the decision.
          if (row === undefined || !sameHash(row.hash, hash))
            return yield* Effect.fail(new KeyRefused({ reason: "unknown" }))
          const state = keyState(row, Date.now())
          if (state !== "valid") return yield* Effect.fail(new KeyRefused({ reason: state }))
          const { hash: _, ...record } = row
          return record as KeyRecord
        })
    } as const
  })
}) {}

const withTable = <A, E, R>(layer: Layer.Layer<A, E, R>) =>
  layer.pipe(Layer.provide(Layer.effectDiscard(ensureKeyTables)))

/** The keys in this process's cluster database, for the server. */
export const ApiKeysLive = withTable(ApiKeys.Default).pipe(Layer.provide(ClusterLive))

/** The keys in the cluster database alone, for the command line (no runner is started). */
export const ApiKeysCommandLive = withTable(ApiKeys.Default).pipe(Layer.provide(ClusterSqlLive))
