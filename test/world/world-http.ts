/** Shared by the mail-transport world tests: GET a JSON endpoint of the app under test. */
import { HttpClient } from "@effect/platform"
import { Effect } from "effect"
import { worldEnv } from "./env.ts"

export const getJson = (url: string) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.get(url)
    const json = (yield* response.json) as any
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`)
    return json
  }).pipe(Effect.scoped)

/**
 * The world's settings with the service's own DNS timeouts (the harness defaults to 200 ms and no
 * retry, which a loaded 2-core machine misses when DKIM asks a hundred selectors at once).
 */
export const mailWorldEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  ...worldEnv(),
  DNS_TIMEOUT_MS: "2000",
  DNS_RETRIES: "2",
  ...extra
})
