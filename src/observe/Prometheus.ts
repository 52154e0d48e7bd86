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

/** A scrape's answer: what a listener writes back. */
export interface Scraped {
  readonly status: number
  readonly headers: Readonly<Record<string, string | number | ReadonlyArray<string>>>
  readonly body: string
}

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
    /**
     * A scrape answered as data, for a listener that serves it elsewhere (`HEALTH_PORT`'s thread):
     * `respond` writes to this stand-in with statusCode, setHeader, writeHead and end only.
     */
    const scrape = (method: string) =>
      new Promise<Scraped>((resolve) => {
        const headers: Record<string, string | number | ReadonlyArray<string>> = {}
        const res = {
          statusCode: 200,
          setHeader(name: string, value: string | number | ReadonlyArray<string>) {
            headers[name.toLowerCase()] = value
            return res
          },
          writeHead(status: number, more: Record<string, string | number | ReadonlyArray<string>> = {}) {
            res.statusCode = status
            for (const [name, value] of Object.entries(more)) res.setHeader(name, value)
            return res
          },
          end(body?: string | Buffer) {
            resolve({
              status: res.statusCode,
              headers,
              body: method === "HEAD" || body === undefined ? "" : String(body)
            })
            return res
          }
        }
        respond(
          unsafeCoerce<{ method: string }, IncomingMessage>({ method }),
          unsafeCoerce<typeof res, ServerResponse>(res)
        )
      })
    return { respond, scrape } as const
  }).pipe(Effect.provide(Resource.layer({ serviceName: "domain-audit" })))
}) {}
