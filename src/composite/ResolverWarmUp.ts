/**
 * The resolver's warm-up: one question (the root's NS set) through the scans' own resolver. Any
 * DNS answer, even an error rcode, proves the sockets and the query path are up; a network failure
 * or a timeout ends the warm-up too, reported rather than waited on forever. `/health` answers
 * `starting` until it has ended.
 */
import { Effect } from "effect"
import { Resolver } from "../net/Resolver.ts"

export interface ResolverHealth {
  readonly status: "healthy" | "degraded"
  readonly answered: boolean
  readonly detail: string
  readonly latencyMs: number
}

export const resolverWarmUp: Effect.Effect<ResolverHealth, never, Resolver> = Effect.gen(function* () {
  const resolver = yield* Resolver
  const start = Date.now()
  const outcome = yield* Effect.either(resolver.query(".", "NS"))
  const latencyMs = Date.now() - start
  return outcome._tag === "Right"
    ? { status: "healthy", answered: true, detail: "the root's NS set was answered", latencyMs }
    : {
        status: "degraded",
        answered: false,
        detail: `the resolver did not answer: ${outcome.left.message}`,
        latencyMs
      }
})
