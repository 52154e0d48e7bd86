/**
 * The monitors routes over `monitor/Monitors.ts`: the contract's errors and, for a created monitor,
 * its URL in `Location` (RFC 9110 §15.3.2).
 */
import type { Domain } from "../../records/DomainName.ts"
import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { BadRequest, NotFound } from "../../api/Errors.ts"
import { MonitorsViewer } from "../../api/Monitoring.ts"
import type { AlertLanguage, Channel } from "../../monitor/MonitorModel.ts"
import { Monitors } from "../../monitor/Monitors.ts"
import { publicBaseUrl } from "../edge/PublicUrl.ts"

const found =
  <A>(what: string) =>
  (value: A | undefined) =>
    value === undefined
      ? Effect.fail(new NotFound({ error: `no monitor with id ${what}` }))
      : Effect.succeed(value)

export const createMonitor = (payload: {
  readonly domain: Domain
  readonly every: string
  readonly alerts: ReadonlyArray<Channel>
  readonly lang?: AlertLanguage | undefined
}) =>
  Effect.gen(function* () {
    const monitors = yield* Monitors
    const baseUrl = yield* publicBaseUrl
    const { tenant } = yield* MonitorsViewer
    const monitor = yield* monitors
      .create({ ...payload, baseUrl, tenant })
      .pipe(Effect.mapError((e) => new BadRequest({ error: e.message })))
    const location = `${baseUrl}/monitors/${encodeURIComponent(monitor.id)}`
    yield* HttpApp.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "Location", location))
    )
    return monitor
  })

/** The Monitors service and whose monitors this request sees. */
const withViewer = <A, E, R>(f: (m: Monitors, viewer: string | undefined) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(Effect.zip(Monitors, MonitorsViewer), ([m, v]) => f(m, v.tenant))

export const listMonitors = (page: {
  readonly cursor?: string | undefined
  readonly limit?: number | undefined
}) =>
  withViewer((m, viewer) => m.list(viewer, { cursor: page.cursor, limit: page.limit ?? 100 })).pipe(
    Effect.mapError((e) => new BadRequest({ error: e.message }))
  )

export const getMonitor = (id: string) =>
  withViewer((m, viewer) => m.get(id, viewer)).pipe(Effect.flatMap(found(id)))

export const deleteMonitor = (id: string) =>
  withViewer((m, viewer) => m.remove(id, viewer)).pipe(
    Effect.flatMap((deleted) => found(id)(deleted ? true : undefined)),
    Effect.asVoid
  )

export const runMonitor = (id: string) =>
  withViewer((m, viewer) => m.runNow(id, viewer)).pipe(Effect.flatMap(found(id)))

export const monitorAlerts = (id: string) =>
  withViewer((m, viewer) => m.alerts(id, viewer)).pipe(Effect.flatMap(found(id)))
