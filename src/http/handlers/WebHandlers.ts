/**
 * Handlers of the web group: the security-headers generator and the CSP scan; the checks served alone
 * (headers, web TLS, security.txt) by ServedHandlers.ts.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../../Api.ts"
import { BadRequest, Inconclusive, TooManyRequests } from "../../api/Errors.ts"
import { type CspScanError, CspScanner } from "../../composite/CspScanner.ts"
import { generate } from "../../records/SecurityHeaders.ts"
import { generated } from "./Generated.ts"
import { metered } from "../edge/Limits.ts"
import { handleServed } from "./ServedHandlers.ts"

/** The CSP scanner's refusals as the spec's statuses: 400 unscannable, 429 over the limit, 502 inconclusive. */
const cspScanError = (e: CspScanError): Effect.Effect<never, BadRequest | TooManyRequests | Inconclusive> => {
  switch (e.reason) {
    case "invalid-url":
      return Effect.fail(new BadRequest({ error: e.message }))
    case "rate-limited":
      return Effect.fail(new TooManyRequests({ error: e.message, retryAfter: e.retryAfterSeconds ?? 600 }))
    case "inconclusive":
      return Effect.fail(new Inconclusive({ error: e.message, inconclusive: true }))
  }
}

export const WebHandlers = HttpApiBuilder.group(Api, "web", (handlers) =>
  handleServed(
    "web",
    handlers
      .handle("headersGenerate", ({ payload }) => generated(generate(payload)))
      .handle("cspScan", ({ payload }) =>
        metered("cspScan", (charge) => Effect.flatMap(CspScanner, (s) => s.scan(payload, charge))).pipe(
          Effect.catchTag("CspScanError", cspScanError)
        )
      )
  )
)
