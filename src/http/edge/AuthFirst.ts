/**
 * Who the client is comes before what its body may be: where an endpoint has an access guard
 * (Access.ts), a body the edge refuses (415, 413, a JSON document too deep) is answered with the
 * guard's own refusal when the guard refuses the client (401, 403, or 503 when the key store cannot
 * answer), so an unauthenticated client learns nothing of an endpoint's body rules. RFC 9110 §15
 * orders no status codes; this is the order of the checks a request passes: identity, then body.
 * The guard runs here only when the body is refused: a request that passes the body rules meets it
 * once, in the app.
 */
import { HttpApi, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Redacted } from "effect"
import { Api } from "../../Api.ts"
import type { Forbidden, Unauthorized, Unavailable } from "../../api/Errors.ts"
import { accessGuards } from "./Access.ts"

type GuardName = keyof Effect.Effect.Success<typeof accessGuards>

const GUARDS: ReadonlyArray<GuardName> = [
  "MonitorsAccess",
  "ReportsReadAccess",
  "ReportsWriteAccess",
  "DomainsAccess",
  "HistoryReadAccess"
]

/** A guarded endpoint: its method, its path as a pattern (`:name` one segment), its guard. */
interface Guarded {
  readonly method: string
  readonly path: RegExp
  readonly guard: GuardName
}

const pattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[^/]+/g, "[^/]+")}$`)

/** Every endpoint of the contract that has an access guard, read from the contract itself. */
const guardedRoutes = (): ReadonlyArray<Guarded> => {
  const routes: Array<Guarded> = []
  HttpApi.reflect(Api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, middleware }) => {
      const guard = GUARDS.find((name) => [...middleware].some((m) => m.key === name))
      if (guard !== undefined) routes.push({ method: endpoint.method, path: pattern(endpoint.path), guard })
    }
  })
  return routes
}

/** The bearer token of RFC 6750 §2.1, as the contract's bearer security reads it ("" when none). */
const bearerOf = (authorization: string | undefined) =>
  Redacted.make(/^bearer\s+(.*)$/is.exec(authorization ?? "")?.[1] ?? "")

const STATUS = { Unauthorized: 401, Forbidden: 403, Unavailable: 503 } as const

/**
 * The refusal of `request` by its endpoint's guard, or undefined when the endpoint has none or the
 * guard lets the client pass.
 */
export const makeAuthFirst = Effect.gen(function* () {
  const routes = guardedRoutes()
  const guards = yield* accessGuards
  return (
    request: HttpServerRequest.HttpServerRequest,
    path: string
  ): Effect.Effect<HttpServerResponse.HttpServerResponse | undefined> => {
    const route = routes.find((r) => r.method === request.method && r.path.test(path))
    if (route === undefined) return Effect.succeed(undefined)
    const bearer: (
      token: Redacted.Redacted<string>
    ) => Effect.Effect<unknown, Unauthorized | Forbidden | Unavailable, HttpServerRequest.HttpServerRequest> =
      guards[route.guard].bearer
    return bearer(bearerOf(request.headers["authorization"])).pipe(
      Effect.as(undefined),
      Effect.catchAll((refused) =>
        Effect.succeed(
          HttpServerResponse.unsafeJson({ error: refused.error }, { status: STATUS[refused._tag] })
        )
      ),
      // a guard that cannot run leaves the body's refusal as the answer
      Effect.catchAllDefect(() => Effect.succeed(undefined)),
      Effect.provideService(HttpServerRequest.HttpServerRequest, request)
    )
  }
})

export type AuthFirst = Effect.Effect.Success<typeof makeAuthFirst>
