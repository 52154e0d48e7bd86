/**
 * Handler of the signing keys group: the key set the service signs with (report/SigningKey.ts),
 * readable from any origin (`Access-Control-Allow-Origin: *`; public keys, no credentials), so that a
 * page elsewhere can verify a snapshot in the browser with the keys fetched from here.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Schema } from "effect"
import { Api } from "../../Api.ts"
import { JwkSet } from "../../report/Jws.ts"
import { SigningKey } from "../../report/SigningKey.ts"

export const SigningKeyHandlers = HttpApiBuilder.group(Api, "signingKeys", (handlers) =>
  Effect.map(SigningKey, (key) => {
    const body = Schema.encodeSync(JwkSet)(key.keySet)
    return handlers.handleRaw("signingKeys", () =>
      Effect.succeed(HttpServerResponse.unsafeJson(body, { headers: { "Access-Control-Allow-Origin": "*" } }))
    )
  })
)
