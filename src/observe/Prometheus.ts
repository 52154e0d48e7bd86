/**
 * The Prometheus text endpoint: Effect's metric registry read through `@effect/opentelemetry`'s
 * metric producer and written by the OpenTelemetry Prometheus exporter's serializer. The exporter's
 * own HTTP server is never started: the text is served by the listeners the service already has
 * (`GET /metrics` on `HEALTH_PORT`, and on the API port with `METRICS_ON_API=true`), so no third
 * port needs opening, and a scrape answers from node's request event without the Effect runtime.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import * as Metrics from "@effect/opentelemetry/Metrics"
import * as Resource from "@effect/opentelemetry/Resource"
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus"
import type { MetricReader } from "@opentelemetry/sdk-metrics"
import { Effect } from "effect"
import { unsafeCoerce } from "effect/Function"
import { makeRuntimeSampler } from "./Runtime.ts"

export class MetricsEndpoint extends Effect.Service<MetricsEndpoint>()("MetricsEndpoint", {
  scoped: Effect.gen(function* () {
    // The scope info would add a label set naming the library to every series: nothing to decide by.
    const exporter = new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true })
    // The exporter carries its own copy of sdk-metrics: the same reader, typed by another declaration.
    const reader = unsafeCoerce<PrometheusExporter, MetricReader>(exporter)
    yield* Metrics.registerProducer(yield* Metrics.makeProducer, () => reader)
    const runtime = yield* Effect.acquireRelease(Effect.sync(makeRuntimeSampler), (s) => Effect.sync(s.stop))
    /** Answer a scrape: the process gauges sampled now, then every series. */
    const respond = (req: IncomingMessage, res: ServerResponse) => {
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { "content-type": "application/json", allow: "GET, HEAD" })
        return void res.end(JSON.stringify({ error: "use GET" }))
      }
      runtime.sample()
      exporter.getMetricsRequestHandler(req, res)
    }
    return { respond } as const
  }).pipe(Effect.provide(Resource.layer({ serviceName: "domain-audit" })))
}) {}
