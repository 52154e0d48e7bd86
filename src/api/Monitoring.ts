/**
 * The monitors group: a monitor scans a domain at an interval and alerts its channels when
 * something changes for the worse (docs/monitoring.md). The shapes are the monitor's own
 * (monitor/MonitorModel.ts).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import {
  AlertList,
  CreateMonitor,
  Monitor,
  MonitorList,
  MonitorRunAccepted
} from "../monitor/MonitorModel.ts"
import { Domain } from "./Domain.ts"
import { BadRequest, NotFound } from "./Errors.ts"

export {
  Alert,
  AlertList,
  Channel,
  Monitor,
  MonitorList,
  MonitorRunAccepted
} from "../monitor/MonitorModel.ts"

const MonitorPath = Schema.Struct({ id: Schema.String.pipe(Schema.maxLength(64)) })

export class MonitorsApi extends HttpApiGroup.make("monitors")
  .add(
    HttpApiEndpoint.post("create", "/monitors")
      .setPayload(Schema.Struct({ ...CreateMonitor.fields, domain: Domain }))
      .addSuccess(Monitor, { status: 201 })
      .addError(BadRequest)
  )
  .add(HttpApiEndpoint.get("list", "/monitors").addSuccess(MonitorList))
  .add(
    HttpApiEndpoint.get("get", "/monitors/:id").setPath(MonitorPath).addSuccess(Monitor).addError(NotFound)
  )
  .add(
    HttpApiEndpoint.del("delete", "/monitors/:id")
      .setPath(MonitorPath)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.post("run", "/monitors/:id/run")
      .setPath(MonitorPath)
      .addSuccess(MonitorRunAccepted, { status: 202 })
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.get("alerts", "/monitors/:id/alerts")
      .setPath(MonitorPath)
      .addSuccess(AlertList)
      .addError(NotFound)
  ) {}
