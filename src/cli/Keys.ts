/**
 * `domain-audit keys` at work (KeysCommand.ts parses it): keys created, listed and revoked in the
 * cluster's database, where the running service reads them.
 */
import { Effect } from "effect"
import { type KeyRecord, keyState } from "../monitor/access/ApiKey.ts"
import { ApiKeys, ApiKeysCommandLive } from "../monitor/access/ApiKeys.ts"
import type { KeysCommand } from "./KeysCommand.ts"

const iso = (ms: number | null) => (ms === null ? "never" : new Date(ms).toISOString())

/** One line of `keys list`: tab-separated, so scripts can cut it. */
export const keyLine = (key: KeyRecord, now: number) =>
  [key.id, key.tenant, key.scopes.join(","), iso(key.createdAt), iso(key.expiresAt), keyState(key, now)].join(
    "\t"
  )

/** A key command that could not be done (exit 1). */
export class KeysFailed {
  readonly _tag = "KeysFailed"
  constructor(readonly message: string) {}
}

export const runKeys = (command: Exclude<KeysCommand, { action: "help" }>) =>
  Effect.gen(function* () {
    const keys = yield* ApiKeys
    const out = (text: string) => Effect.sync(() => void process.stdout.write(text + "\n"))
    switch (command.action) {
      case "create": {
        const { key, record } = yield* keys.create(command)
        yield* out(key)
        yield* Effect.sync(
          () =>
            void process.stderr.write(
              `created ${record.id} for tenant ${record.tenant} (${record.scopes.join(",")}), expires ${iso(record.expiresAt)}; the key above is shown only this once\n`
            )
        )
        return
      }
      case "list": {
        const now = Date.now()
        yield* out(["id", "tenant", "scopes", "created", "expires", "state"].join("\t"))
        for (const key of yield* keys.list) yield* out(keyLine(key, now))
        return
      }
      case "revoke": {
        if (!(yield* keys.revoke(command.id)))
          return yield* Effect.fail(new KeysFailed(`no key with id '${command.id.slice(0, 80)}'`))
        yield* out(`revoked ${command.id}`)
        return
      }
      case "rotate": {
        const rotated = yield* keys.rotate(command.id, command.graceMs)
        if (rotated === "none")
          return yield* Effect.fail(new KeysFailed(`no key with id '${command.id.slice(0, 80)}'`))
        if (rotated === "revoked")
          return yield* Effect.fail(
            new KeysFailed(
              `${command.id.slice(0, 80)} is revoked: nothing to rotate (keys create makes a new key for its tenant)`
            )
          )
        yield* out(rotated.key)
        yield* Effect.sync(
          () =>
            void process.stderr.write(
              `created ${rotated.record.id} for tenant ${rotated.record.tenant} (${rotated.record.scopes.join(",")}), expires ${iso(rotated.record.expiresAt)}; ${command.id} is revoked ${command.graceMs === 0 ? "now" : `at ${iso(rotated.revokedAt)}`}; the key above is shown only this once\n`
            )
        )
      }
    }
  }).pipe(Effect.provide(ApiKeysCommandLive))
