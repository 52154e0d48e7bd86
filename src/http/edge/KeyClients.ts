/**
 * Which bucket a request's limits are charged to when it presents an API key (docs/access.md): the
 * key's own, under the key quota (`RATE_KEY_MULTIPLIER` times the per-address policies), in place of
 * its address's. A tenant behind a shared address is not held to its neighbours' use, and a key
 * spread over many addresses is held to one quota.
 *
 * The gatekeeper decides in node's request event, before any fiber, so the usable keys are kept in
 * memory and read from the store in the background every `API_KEYS_REFRESH_MS`. Only a key that was usable at
 * the last read gets a bucket of its own; anything else (malformed, unknown, revoked, expired, or
 * created since) is charged to its address, so tokens made up by a client never mint buckets. A key
 * revoked within the last `API_KEYS_REFRESH_MS` keeps its bucket that long; the access decision itself
 * (Access.ts) asks the store on every request.
 */
import { Duration, Effect, Schedule } from "effect"
import { AppConfig } from "../../Config.ts"
import { ApiKeys, ApiKeysLive } from "../../monitor/access/ApiKeys.ts"
import { keyHash, looksLikeKey } from "../../monitor/access/ApiKey.ts"
import { KEY_CLIENT } from "./RateLimit.ts"

/** The bucket key of `authorization`'s API key when it was usable at the last read, else undefined. */
export const keyClientOf = (usable: ReadonlyMap<string, string>, authorization: string | undefined) => {
  // RFC 6750 §2.1: the scheme is case-insensitive, one space, then the token.
  const match = authorization === undefined ? null : /^bearer ([^\s]+)$/i.exec(authorization)
  if (match === null || !looksLikeKey(match[1]!)) return undefined
  const id = usable.get(keyHash(match[1]!))
  return id === undefined ? undefined : KEY_CLIENT + id
}

export class KeyClients extends Effect.Service<KeyClients>()("KeyClients", {
  scoped: Effect.gen(function* () {
    const keys = yield* ApiKeys
    const refresh = Duration.millis((yield* AppConfig).apiKeysRefreshMs)
    let usable: ReadonlyMap<string, string> = new Map()
    let anyDefined = false
    const read = Effect.zip(keys.usable, keys.anyDefined).pipe(
      Effect.tap(([found, any]) =>
        Effect.sync(() => {
          usable = found
          anyDefined = any
        })
      ),
      // a store that cannot be read leaves the last known keys in place: the access check still asks it
      Effect.catchAllCause((cause) => Effect.logWarning("API keys could not be read for rate limits", cause))
    )
    yield* read
    yield* read.pipe(Effect.repeat(Schedule.spaced(refresh)), Effect.delay(refresh), Effect.forkScoped)
    return {
      /** The bucket key for a request with this `Authorization` header, when it names a usable key. */
      clientOf: (authorization: string | undefined) => keyClientOf(usable, authorization),
      /**
       * Whether a key had been created at the last read: from then on what belongs to someone is
       * closed to anonymous clients (pages, which carry no key, say it is private).
       */
      anyDefined: () => anyDefined
    } as const
  }),
  dependencies: [ApiKeysLive]
}) {}
