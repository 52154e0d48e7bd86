/**
 * The monitors group: a monitor scans a domain at an interval and alerts its channels when
 * something changes for the worse (docs/monitoring.md). The shapes are the monitor's own
 * (monitor/MonitorModel.ts).
 */
import type { HttpApiEndpoint, HttpMethod } from "@effect/platform"
import { HttpApiGroup, HttpApiMiddleware, HttpApiSchema } from "@effect/platform"
import { Context, Schema } from "effect"
import {
  AlertList,
  CreateMonitor,
  Monitor,
  MonitorList,
  MonitorRunAccepted
} from "../monitor/MonitorModel.ts"
import { Endpoint } from "./Docs.ts"
import { Domain } from "./Domain.ts"
import { BadRequest, NotFound } from "./Errors.ts"
import { bearerGuard, type Viewer } from "./KeyGuard.ts"

export {
  Alert,
  AlertList,
  Channel,
  Monitor,
  MonitorList,
  MonitorRunAccepted
} from "../monitor/MonitorModel.ts"
import { cheap } from "./Cost.ts"

/**
 * Whose monitors a request sees, as MonitorsAccess decided: a tenant's API key its tenant's only
 * (`tenant`), the operator (the machine itself, an admin key, MONITORS_TOKEN) every one (undefined).
 */
export class MonitorsViewer extends Context.Tag("MonitorsViewer")<MonitorsViewer, Viewer>() {}

/** GET /monitors: a page of at most `limit` (1-100, default 100), after `cursor`. */
const MonitorPage = Schema.Struct({
  cursor: Schema.optional(
    Schema.String.pipe(Schema.maxLength(200)).annotations({
      description: "the nextCursor of the page before"
    })
  ),
  limit: Schema.optional(
    Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 100)).annotations({
      description: "monitors on the page, 1-100 (default 100)"
    })
  )
})

/**
 * Who may manage monitors: a monitor makes the service scan, and send webhooks and e-mail to the
 * addresses it names, for ever, and its channels are its owner's data. With `MONITORS_TOKEN` set,
 * `Authorization: Bearer <token>` (401 otherwise); without it, only clients on this machine
 * (loopback, behind `TRUSTED_PROXIES` the forwarded client; 403 otherwise).
 */
export class MonitorsAccess extends HttpApiMiddleware.Tag<MonitorsAccess>()("MonitorsAccess", {
  ...bearerGuard,
  provides: MonitorsViewer
}) {}

const MonitorPath = Schema.Struct({ id: Schema.String.pipe(Schema.maxLength(64)) })

/** An operation on one monitor (`/monitors/:id`): 404 when there is none, or none the caller may see. */
const onMonitor = <Name extends string, Method extends HttpMethod.HttpMethod>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, Method>
) => endpoint.setPath(MonitorPath).addError(NotFound)

const create = Endpoint.post("create", "/monitors", {
  summary: "Create a monitor",
  description:
    "Watches a domain: a fresh full scan every `every` (an ISO 8601 duration of at least MONITOR_MIN_INTERVAL), each entering the domain's history, and an alert to the monitor's channels (a Standard Webhooks-signed webhook or an e-mail) when a scan changes something for the worse. The first run comes within one interval, spread so monitors created together do not scan together. Webhook secrets are never answered back."
})
  .setPayload(Schema.Struct({ ...CreateMonitor.fields, domain: Domain }))
  .addSuccess(Monitor, { status: 201 })
  .addError(BadRequest)

const list = Endpoint.get("list", "/monitors", {
  summary: "List monitors",
  description:
    "The caller's monitors, a page at a time in creation order (`limit` up to 100; `nextCursor` asks for the next page, null on the last): each one's domain, interval, channels (without secrets), next and last run, last grade and runs so far. A tenant's API key sees its tenant's monitors; the operator sees every one."
})
  .setUrlParams(MonitorPage)
  .addSuccess(MonitorList)
  .addError(BadRequest)

const get = Endpoint.get("get", "/monitors/:id", {
  summary: "Read a monitor",
  description:
    "One monitor: its domain, interval, channels (without secrets), next and last run, last grade and runs so far."
})
  .pipe(onMonitor)
  .addSuccess(Monitor)

const del = Endpoint.del("delete", "/monitors/:id", {
  summary: "Delete a monitor",
  description: "Stops the monitor: no further runs or alerts. Its domain's history stays."
})
  .annotateContext(cheap)
  .pipe(onMonitor)
  .addSuccess(HttpApiSchema.NoContent)

const run = Endpoint.post("run", "/monitors/:id/run", {
  summary: "Run a monitor now",
  description:
    "Queues a run of the monitor at once (a fresh full scan, judged against the previous entry of the history, alerting on changes for the worse); the regular schedule keeps its phase."
})
  .pipe(onMonitor)
  .addSuccess(MonitorRunAccepted, { status: 202 })

const alerts = Endpoint.get("alerts", "/monitors/:id/alerts", {
  summary: "List a monitor's alerts",
  description:
    "The monitor's last 200 alerts, newest first: the changes that raised each, and each channel's delivery state (pending, delivered, or failed after its retries)."
})
  .pipe(onMonitor)
  .addSuccess(AlertList)

export class MonitorsApi extends HttpApiGroup.make("monitors")
  .add(create)
  .add(list)
  .add(get)
  .add(del)
  .add(run)
  .add(alerts)
  .middleware(MonitorsAccess) {}
