/** Shared by the mail-transport world tests: GET a JSON endpoint of the app under test. */
import { HttpClient } from "@effect/platform"
import { Effect } from "effect"

export const getJson = (url: string) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.get(url)
    const json = (yield* response.json) as any
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`)
    return json
  }).pipe(Effect.scoped)
