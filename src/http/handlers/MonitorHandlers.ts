/** Handlers of the monitors group (docs/monitoring.md). */
import { HttpApiBuilder } from "@effect/platform"
import { Layer } from "effect"
import { Api } from "../../Api.ts"
import { MonitorsAccessLive } from "../edge/Access.ts"
import {
  createMonitor,
  deleteMonitor,
  getMonitor,
  listMonitors,
  monitorAlerts,
  runMonitor
} from "./MonitorRoutes.ts"

export const MonitorHandlers = HttpApiBuilder.group(Api, "monitors", (handlers) =>
  handlers
    .handle("create", ({ payload }) => createMonitor(payload))
    .handle("list", ({ urlParams }) => listMonitors(urlParams))
    .handle("get", ({ path }) => getMonitor(path.id))
    .handle("delete", ({ path }) => deleteMonitor(path.id))
    .handle("run", ({ path }) => runMonitor(path.id))
    .handle("alerts", ({ path }) => monitorAlerts(path.id))
).pipe(Layer.provide(MonitorsAccessLive))
