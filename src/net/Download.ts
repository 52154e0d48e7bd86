/**
 * A document the user names by URL (the `verify` command's snapshot or evidence export): fetched as
 * the user's own request, from the user's machine, so not through the scanner's guarded Web client
 * (whose address policy refuses private addresses: a user checking their own service on localhost
 * is not a scan target). Bounded in time and size.
 */
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { Duration, Effect, Schema } from "effect"

export class DownloadError extends Schema.TaggedError<DownloadError>()("DownloadError", {
  url: Schema.String,
  message: Schema.String
}) {}

/** The largest document taken: a report with every section is a few hundred kB. */
const MAX_BYTES = 64 * 1024 * 1024

/** The body of `url` as text (a 2xx answer only), within `timeoutMs`. */
export const downloadText = (url: string, timeoutMs: number): Effect.Effect<string, DownloadError> =>
  Effect.gen(function* () {
    const response = yield* HttpClient.get(url)
    if (response.status < 200 || response.status > 299)
      return yield* Effect.fail(new DownloadError({ url, message: `answered HTTP ${response.status}` }))
    const bytes = yield* response.arrayBuffer
    if (bytes.byteLength > MAX_BYTES)
      return yield* Effect.fail(new DownloadError({ url, message: `larger than ${MAX_BYTES} bytes` }))
    return new TextDecoder().decode(bytes)
  }).pipe(
    Effect.scoped,
    Effect.timeoutFail({
      duration: Duration.millis(timeoutMs),
      onTimeout: () => new DownloadError({ url, message: `no answer within ${timeoutMs} ms` })
    }),
    Effect.catchAll((e) =>
      e instanceof DownloadError
        ? Effect.fail(e)
        : Effect.fail(new DownloadError({ url, message: String(e) }))
    ),
    Effect.provide(FetchHttpClient.layer)
  )
