/**
 * Spans worth their cost only when they leave the process. A DNS question is cheaper than a span
 * (scripts/bench/resolver), so its span is made only while traces are exported (Tracing.ts sets
 * `Exporting`); the check spans and the scan's are made whenever the tracer is on.
 */
import { FiberRef } from "effect"

/** True inside the server when `OTEL_EXPORTER_OTLP_ENDPOINT` is set. */
export const Exporting = FiberRef.unsafeMake(false)
