/**
 * Traces out over OTLP/HTTP (protobuf) when `OTEL_EXPORTER_OTLP_ENDPOINT` is set: every request's
 * span (the platform's `http.server`), the scan's, each check's, and the DNS, SMTP and HTTPS spans
 * under them, batched and sent to `<endpoint>/v1/traces` (the OTLP specification's path). Loaded
 * only then (cli/Serve.ts imports it on demand): with no endpoint no OpenTelemetry module is read
 * and no tracer layer exists.
 */
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Layer } from "effect"
import { Exporting } from "./Spans.ts"

/** The tracer for `endpoint` (a base URL), flushed and shut down when the layer is released. */
export const tracingLayer = (endpoint: string) =>
  Layer.merge(
    NodeSdk.layer(() => ({
      // service.name is fixed; OTEL_RESOURCE_ATTRIBUTES (read by the library) adds others
      resource: { serviceName: "domain-audit" },
      spanProcessor: new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` })),
      // the spans still batched get this long to leave when the process stops (within its grace)
      shutdownTimeout: "5 seconds"
    })),
    Layer.locallyScoped(Exporting, true)
  )
