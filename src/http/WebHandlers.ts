/** Handlers of the web group: security headers (analyse, generate) and the CSP scan. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.ts"
import { BadRequest, Inconclusive, TooManyRequests } from "../api/Errors.ts"
import { Headers } from "../checks/headers/Headers.ts"
import { CspScanner } from "../scan/CspScanner.ts"
import { runCheck } from "../scan/Scanner.ts"
import { generate } from "../generate/SecurityHeaders.ts"
import { generated } from "./Generated.ts"
import { clientAddress } from "./ClientAddress.ts"

/** The caller's address for the CSP rate limit: the socket peer, or the client behind a trusted proxy. */
const clientIp = clientAddress

export const WebHandlers = HttpApiBuilder.group(Api, "web", (handlers) =>
  handlers
    .handle("headersAnalyze", ({ urlParams }) => runCheck(Headers, urlParams.domain))
    .handle("headersGenerate", ({ payload }) => generated(generate(payload)))
    .handle("cspScan", ({ payload }) =>
      Effect.gen(function* () {
        const scanner = yield* CspScanner
        return yield* scanner.scan(payload, yield* clientIp)
      }).pipe(
        Effect.catchTag(
          "CspScanError",
          (e): Effect.Effect<never, BadRequest | TooManyRequests | Inconclusive> => {
            switch (e.reason) {
              case "invalid-url":
                return Effect.fail(new BadRequest({ error: e.message }))
              case "rate-limited":
                return Effect.fail(
                  new TooManyRequests({ error: e.message, retryAfter: e.retryAfterSeconds ?? 600 })
                )
              case "inconclusive":
                return Effect.fail(new Inconclusive({ error: e.message, inconclusive: true }))
            }
          }
        )
      )
    )
)
