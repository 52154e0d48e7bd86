/** Handler of the signing keys group: the key set the service signs with (report/SigningKey.ts). */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../../Api.ts"
import { SigningKey } from "../../report/SigningKey.ts"

export const SigningKeyHandlers = HttpApiBuilder.group(Api, "signingKeys", (handlers) =>
  Effect.map(SigningKey, (key) => handlers.handle("signingKeys", () => Effect.succeed(key.keySet)))
)
