/**
 * The Validated ROA Payloads that route-origin validation reads (RFC 6811), from the source the
 * operator configures (`RPKI_VRPS`): a file, or an http(s) URL fetched through the guarded client,
 * in the JSON rpki-client and Routinator export. Loaded at first use and again after
 * `RPKI_VRPS_REFRESH_MS`, one load at a time, within `RPKI_VRPS_MAX_BYTES`. Unset, validation is
 * off: the check says so and scores nothing. A failed reload keeps the payloads last loaded; a
 * source that could not be read is tried again after `RPKI_VRPS_RETRY_MS` (not a whole refresh).
 */
import { stat, readFile } from "node:fs/promises"
import { Clock, Effect } from "effect"
import { AppConfig } from "../Config.ts"
import { parseVrpJson, type Vrp } from "../records/RouteOrigin.ts"
import { Web } from "./Web.ts"

export type VrpLoad =
  | { readonly status: "off" }
  | {
      readonly status: "loaded"
      readonly source: string
      readonly vrps: ReadonlyArray<Vrp>
      /** Entries of the export that were not VRPs. */
      readonly skipped: number
      readonly loadedAt: string
    }
  | { readonly status: "unavailable"; readonly source: string; readonly reason: string }

const parsed = (source: string, text: string, now: number): VrpLoad => {
  const file = parseVrpJson(text)
  return file === null
    ? { status: "unavailable", source, reason: "not a VRP export (a JSON object with a roas array)" }
    : {
        status: "loaded",
        source,
        vrps: file.vrps,
        skipped: file.skipped,
        loadedAt: new Date(now).toISOString()
      }
}

export class RpkiVrps extends Effect.Service<RpkiVrps>()("RpkiVrps", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const web = yield* Web
    const source = config.rpkiVrps
    const maxBytes = config.rpkiVrpsMaxBytes
    const isUrl = /^https?:\/\//i.test(source)
    const readSource: Effect.Effect<string, string> = isUrl
      ? Effect.map(
          Effect.mapError(
            web.get(source, { maxBytes, accept: "application/json" }),
            (e) => `${e.reason}: ${e.message}`
          ),
          (res) => new TextDecoder().decode(res.body)
        )
      : Effect.tryPromise({
          try: async () => {
            const size = (await stat(source)).size
            if (size > maxBytes) throw new Error(`${size} bytes, more than RPKI_VRPS_MAX_BYTES (${maxBytes})`)
            return readFile(source, "utf8")
          },
          catch: (e) => (e instanceof Error ? e.message : String(e))
        })
    const load = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      readSource.pipe(
        Effect.map((text) => parsed(source, text, now)),
        Effect.catchAll((reason) => Effect.succeed<VrpLoad>({ status: "unavailable", source, reason }))
      )
    )
    let last: { readonly load: VrpLoad; readonly at: number } | null = null
    const permit = yield* Effect.makeSemaphore(1)
    const current: Effect.Effect<VrpLoad> =
      source === ""
        ? Effect.succeed({ status: "off" })
        : permit.withPermits(1)(
            Effect.gen(function* () {
              const now = yield* Clock.currentTimeMillis
              const kept = last
              const age = kept === null ? Infinity : now - kept.at
              const fresh =
                kept?.load.status === "loaded"
                  ? age < config.rpkiVrpsRefreshMs
                  : age < Math.min(config.rpkiVrpsRetryMs, config.rpkiVrpsRefreshMs)
              if (kept !== null && fresh) return kept.load
              const loaded = yield* load
              // A reload that fails keeps serving what was loaded (and says nothing new was read).
              const keep =
                loaded.status === "unavailable" && kept?.load.status === "loaded" ? kept.load : loaded
              last = { load: keep, at: now }
              if (loaded.status === "unavailable")
                yield* Effect.logWarning(`RPKI_VRPS: ${loaded.reason}`).pipe(
                  Effect.annotateLogs("source", source)
                )
              return keep
            })
          )
    return { current }
  })
}) {}
