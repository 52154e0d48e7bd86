/**
 * Who may do what, decided here for every endpoint that is not public (docs/access.md); the
 * contract declares which guard each endpoint has (api/Monitoring.ts `MonitorsAccess`,
 * api/Inbound.ts `ReportsReadAccess` and `ReportsWriteAccess`, api/Domains.ts `DomainsAccess`),
 * the handlers never decide.
 *
 * A request is one of:
 * - the machine itself (LocalAdmin.ts), sending no bearer token: may do everything, unless
 *   `LOCAL_ADMIN=false`; a request from the machine that sends a key or token is judged by it;
 * - an API key (`Authorization: Bearer da_...`, RFC 6750 §2.1): may do what its scopes say; a key
 *   that is malformed, unknown, revoked or expired is 401 saying which, a key without the scope 403;
 * - `MONITORS_TOKEN` as the bearer token: may manage monitors (compared in constant time);
 * - anonymous: may read and post reports while no API key exists at all (the embedded default),
 *   nothing here otherwise.
 * No refusal says anything about a key but why it cannot be used. A key store that cannot answer
 * is 503 (retry later), not a refusal.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import type { HttpServerRequest } from "@effect/platform"
import { Effect, Layer, Redacted } from "effect"
import { Forbidden, Unauthorized, Unavailable } from "../../api/Errors.ts"
import { DomainsAccess } from "../../api/Domains.ts"
import { HistoryReadAccess } from "../../api/History.ts"
import { ReportsReadAccess, ReportsWriteAccess } from "../../api/Inbound.ts"
import { MonitorsAccess } from "../../api/Monitoring.ts"
import { ANONYMOUS_POST, postedWith } from "../../inbound/Authenticity.ts"
import { AppConfig } from "../../Config.ts"
import { grants, type KeyRecord, type Scope } from "../../monitor/access/ApiKey.ts"
import { ApiKeys, ApiKeysLive } from "../../monitor/access/ApiKeys.ts"
import { localAdmin } from "./LocalAdmin.ts"

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest()

/**
 * The key store cannot answer (SQLITE_BUSY, the database gone): an outage, 503 with Retry-After as
 * every store outage is, never a 401 that would tell the client its key is bad.
 */
const unavailable = () =>
  new Unavailable({
    error: "API keys cannot be checked right now (the key store is unavailable); retry later"
  })

/** One guard: `scope` for keys, what an empty bearer gets, and whether MONITORS_TOKEN counts. */
interface Guard {
  readonly scope: Scope
  /** What the endpoints are, in a sentence's words ("monitors", "reading received reports"). */
  readonly what: string
  readonly monitorsToken: boolean
  /** Open to anonymous clients while no key exists (the embedded default). */
  readonly openWithoutKeys: boolean
}

/** The guard's middleware: who passes, and the refusal of everyone else. */
const makeGuard = (guard: Guard) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const keys = yield* ApiKeys
    const token = Redacted.value(config.monitorsToken)
    const expected = digest(token)
    const needs = `${guard.what} need Authorization: Bearer with an API key that has the ${guard.scope} scope${guard.monitorsToken && token !== "" ? ", or the MONITORS_TOKEN" : ""}`
    return {
      /** The key that decided, undefined when no key did (the machine, the token, an open door). */
      bearer: (
        sent: Redacted.Redacted<string>
      ): Effect.Effect<
        KeyRecord | undefined,
        Unauthorized | Forbidden | Unavailable,
        HttpServerRequest.HttpServerRequest
      > =>
        Effect.gen(function* () {
          const text = Redacted.value(sent).trim()
          // A key sent from this machine is the key's tenant, not the machine: a tenant's tool
          // running beside the service sees what the tenant may, no more.
          if (text === "" && (yield* Effect.provideService(localAdmin, AppConfig, config))) return undefined
          if (text !== "") {
            if (guard.monitorsToken && token !== "" && timingSafeEqual(digest(text), expected))
              return undefined
            const key = yield* keys.verify(text).pipe(
              Effect.catchTags({
                KeyRefused: (refused) =>
                  Effect.fail(
                    new Unauthorized({
                      error:
                        refused.reason === "malformed" && guard.monitorsToken && token !== ""
                          ? `${guard.what} need Authorization: Bearer with the MONITORS_TOKEN or an API key with the ${guard.scope} scope`
                          : refused.message
                    })
                  ),
                SqlError: unavailable
              })
            )
            if (grants(key, guard.scope)) return key
            return yield* Effect.fail(new Forbidden({ error: `this API key lacks the ${guard.scope} scope` }))
          }
          const anyKey = yield* keys.anyDefined.pipe(Effect.catchTag("SqlError", unavailable))
          if (guard.openWithoutKeys && !anyKey) return undefined
          if (anyKey || (guard.monitorsToken && token !== ""))
            return yield* Effect.fail(new Unauthorized({ error: needs }))
          return yield* Effect.fail(
            new Forbidden({
              error: `${guard.what} are managed only from this machine (by a name it answers to: localhost, its address or ALLOWED_HOSTS) unless the service sets MONITORS_TOKEN or an API key is created (domain-audit keys create)`
            })
          )
        })
    }
  })

/**
 * A guard that says whose data the request may read: a tenant's key its tenant's (`tenant`); the
 * operator (the machine, an admin key, the token) and an open door every one's (undefined).
 */
const forTenant = (guard: Effect.Effect.Success<ReturnType<typeof makeGuard>>) => ({
  bearer: (sent: Redacted.Redacted<string>) =>
    Effect.map(guard.bearer(sent), (key) => ({
      tenant: key === undefined || key.scopes.includes("admin") ? undefined : key.tenant
    }))
})

/** Keys of a tenant see and manage their tenant's monitors; the operator every one (docs/access.md). */
const monitorsGuard = Effect.map(
  makeGuard({ scope: "monitors", what: "monitors", monitorsToken: true, openWithoutKeys: false }),
  forTenant
)

export const MonitorsAccessLive = Layer.effect(MonitorsAccess, monitorsGuard).pipe(Layer.provide(ApiKeysLive))

/**
 * Keys with `reports:read` read the reports of their tenant's verified domains (the handler asks
 * which, by `tenant`); the operator (the machine, an admin key) and the open default read all.
 */
const reportsReadGuard = Effect.map(
  makeGuard({
    scope: "reports:read",
    what: "received reports",
    monitorsToken: false,
    openWithoutKeys: true
  }),
  forTenant
)

export const ReportsReadAccessLive = Layer.effect(ReportsReadAccess, reportsReadGuard).pipe(
  Layer.provide(ApiKeysLive)
)

/**
 * The write guard also says who posted (docs/reports-in.md "Authenticity"): a report posted with a
 * `reports:write` key, or from the machine itself, is authenticated by that; one posted through
 * the open door (no key exists yet) is not. A tenant's key posts for its tenant's verified domains
 * only (the handler asks, once the report's domain is read); the operator for any.
 */
const reportsWriteGuard = Effect.gen(function* () {
  const config = yield* AppConfig
  const guard = yield* makeGuard({
    scope: "reports:write",
    what: "reports posted over HTTP",
    monitorsToken: false,
    openWithoutKeys: true
  })
  return {
    bearer: (sent: Redacted.Redacted<string>) =>
      Effect.gen(function* () {
        const key = yield* guard.bearer(sent)
        if (key !== undefined)
          return {
            authenticity: postedWith(`with the API key ${key.id}`),
            tenant: key.scopes.includes("admin") ? undefined : key.tenant
          }
        const local = yield* Effect.provideService(localAdmin, AppConfig, config)
        return { authenticity: local ? postedWith("from this machine") : ANONYMOUS_POST, tenant: undefined }
      })
  }
})

export const ReportsWriteAccessLive = Layer.effect(ReportsWriteAccess, reportsWriteGuard).pipe(
  Layer.provide(ApiKeysLive)
)

/**
 * Verified domains are each a tenant's: a usable key of whatever scope acts for its tenant; without one there is no
 * tenant to act for (401), whoever asks, the machine itself included.
 */
const domainsGuard = Effect.map(ApiKeys, (keys) => ({
  bearer: (sent: Redacted.Redacted<string>) => {
    const text = Redacted.value(sent).trim()
    if (text === "")
      return Effect.fail(
        new Unauthorized({
          error:
            "verified domains belong to a tenant: need Authorization: Bearer with an API key (domain-audit keys create --tenant <name>)"
        })
      )
    return keys.verify(text).pipe(
      Effect.map((key) => ({ tenant: key.tenant })),
      Effect.catchTags({
        KeyRefused: (refused) => Effect.fail(new Unauthorized({ error: refused.message })),
        SqlError: unavailable
      })
    )
  }
}))

export const DomainsAccessLive = Layer.effect(DomainsAccess, domainsGuard).pipe(Layer.provide(ApiKeysLive))

/**
 * Keys with `history` read the history and evidence of their tenant's verified domains (the handler
 * asks which, by `tenant`); the operator (the machine, an admin key) and the open default read all.
 */
const historyReadGuard = Effect.map(
  makeGuard({ scope: "history", what: "histories", monitorsToken: false, openWithoutKeys: true }),
  forTenant
)

export const HistoryReadAccessLive = Layer.effect(HistoryReadAccess, historyReadGuard).pipe(
  Layer.provide(ApiKeysLive)
)

/**
 * Every guard's bearer check by the contract's guard name, for the edge to run before it judges a
 * body (AuthFirst.ts): the same checks the guards' layers serve, over the same keys (ApiKeysLive).
 */
export const accessGuards = Effect.all({
  MonitorsAccess: monitorsGuard,
  ReportsReadAccess: reportsReadGuard,
  ReportsWriteAccess: reportsWriteGuard,
  DomainsAccess: domainsGuard,
  HistoryReadAccess: historyReadGuard
})
