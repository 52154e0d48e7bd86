/**
 * The optional language model behind `/ai/explain` (docs/ai.md): one chat completion from the
 * OpenAI-compatible endpoint the operator configured (AI_BASE_URL, AI_MODEL, AI_API_KEY).
 *
 * - Without those settings `enabled` is false and `complete` fails at once: nothing is sent anywhere.
 * - It calls `POST {AI_BASE_URL}/chat/completions`, the one route every "OpenAI-compatible" server
 *   implements (OpenAI, Azure, vLLM, Ollama, llama.cpp, LM Studio, gateways). `@effect/ai-openai`
 *   0.41 would fit our Effect versions, but its language model speaks only OpenAI's newer
 *   `/responses` API, which most compatible servers lack; so this is a small typed client instead.
 * - Address policy: the endpoint is the operator's configuration, never a user's input, so it is not
 *   held to the policy for user-supplied targets (a model on the operator's private network is
 *   normal). What is enforced instead: only that exact URL is called, redirects are not followed,
 *   the URL is https (plain http only on loopback: ConfigOperations.ts), and the whole exchange has a deadline
 *   (AI_TIMEOUT_MS), after which the caller serves the knowledge-base answer.
 * - Nothing is logged: neither the prompt nor the answer (they may carry what the user submitted).
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Duration, Effect, Redacted, Schema } from "effect"
import { AppConfig } from "../Config.ts"

export class AiModelError extends Schema.TaggedError<AiModelError>()("AiModelError", {
  reason: Schema.String
}) {}

export interface ChatMessage {
  readonly role: "system" | "user"
  readonly content: string
}

/** The part of a chat completion we read (OpenAI's `choices[].message.content`). */
const Completion = Schema.Struct({
  choices: Schema.NonEmptyArray(
    Schema.Struct({ message: Schema.Struct({ content: Schema.NullOr(Schema.String) }) })
  )
})

/** Longest answer kept: an explanation, not an essay; also bounds what a broken server can push at us. */
export const MAX_ANSWER_CHARS = 4_000

export class AiModel extends Effect.Service<AiModel>()("AiModel", {
  effect: Effect.gen(function* () {
    const { ai } = yield* AppConfig
    // redirects are not followed (the platform client does not unless asked to)
    const client = (yield* HttpClient.HttpClient).pipe(HttpClient.filterStatusOk)
    const complete = (messages: ReadonlyArray<ChatMessage>): Effect.Effect<string, AiModelError> => {
      if (ai === null) return Effect.fail(new AiModelError({ reason: "no model is configured" }))
      const request = HttpClientRequest.post(`${ai.baseUrl}/chat/completions`).pipe(
        HttpClientRequest.bearerToken(Redacted.value(ai.apiKey)),
        HttpClientRequest.bodyUnsafeJson({ model: ai.model, messages, temperature: 0.2, max_tokens: 500 })
      )
      return client.execute(request).pipe(
        Effect.flatMap((response) => response.json),
        Effect.flatMap(Schema.decodeUnknown(Completion)),
        Effect.scoped,
        Effect.timeoutFail({
          duration: Duration.millis(ai.timeoutMs),
          onTimeout: () => new AiModelError({ reason: `no answer within ${ai.timeoutMs} ms` })
        }),
        Effect.flatMap(({ choices }) => {
          const text = (choices[0].message.content ?? "").trim()
          return text === ""
            ? Effect.fail(new AiModelError({ reason: "empty answer" }))
            : Effect.succeed(text.slice(0, MAX_ANSWER_CHARS))
        }),
        Effect.catchAll((e) =>
          Effect.fail(
            e instanceof AiModelError
              ? e
              : new AiModelError({
                  reason:
                    e._tag === "ResponseError"
                      ? `the model answered HTTP ${e.response.status}`
                      : e._tag === "ParseError"
                        ? "the answer is not a chat completion"
                        : `the model could not be reached (${e._tag})`
                })
          )
        )
      )
    }
    return { enabled: ai !== null, complete } as const
  }),
  dependencies: [NodeHttpClient.layer]
}) {}
