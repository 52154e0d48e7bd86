/**
 * The monitors routes over `monitor/Monitors.ts`: the contract's errors and, for a created monitor,
 * its URL in `Location` (RFC 9110 §15.3.2).
 */
import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { BadRequest, NotFound } from "../../api/Errors.ts"
import type { Channel } from "../../monitor/MonitorModel.ts"
import { Monitors } from "../../monitor/Monitors.ts"
import { publicBaseUrl } from "../edge/PublicUrl.ts"

const found =
  <A>(what: string) =>
  (value: A | undefined) =>
    value === undefined
      ? Effect.fail(new NotFound({ error: `no monitor with id ${what}` }))
      : Effect.succeed(value)

export const createMonitor = (payload: {
  readonly domain: string
  readonly every: string
  readonly alerts: ReadonlyArray<Channel>
}) =>
  Effect.gen(function* () {
    const monitors = yield* Monitors
    const baseUrl = yield* publicBaseUrl
    const monitor = yield* monitors
      .create({ ...payload, baseUrl })
      .pipe(Effect.mapError((e) => new BadRequest({ error: e.message })))
    const location = `${baseUrl}/monitors/${encodeURIComponent(monitor.id)}`
    yield* HttpApp.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "Location", location))
    )
    return monitor
  })

export const listMonitors = Effect.flatMap(Monitors, (m) => m.list)

export const getMonitor = (id: string) =>
  Effect.flatMap(Monitors, (m) => m.get(id)).pipe(Effect.flatMap(found(id)))

export const deleteMonitor = (id: string) =>
  Effect.flatMap(Monitors, (m) => m.remove(id)).pipe(
    Effect.flatMap((deleted) => found(id)(deleted ? true : undefined)),
    Effect.asVoid
  )

export const runMonitor = (id: string) =>
  Effect.flatMap(Monitors, (m) => m.runNow(id)).pipe(Effect.flatMap(found(id)))

export const monitorAlerts = (id: string) =>
  Effect.flatMap(Monitors, (m) => m.alerts(id)).pipe(Effect.flatMap(found(id)))
