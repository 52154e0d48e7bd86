/**
 * `LOG_FORMAT=json`: one JSON object per line on stdout, for log shippers that parse rather than
 * read. Fields: `timestamp` (ISO 8601), `level`, `message`, every log annotation (`requestId` on a
 * request's lines, `domain` on a scan's), `traceId` and `spanId` of the span the line was written
 * in (the ids the exported trace carries, so a line leads to its trace), and `cause` for a failure.
 * `text` keeps Effect's default line format.
 */
import { Cause, Context, FiberRef, FiberRefs, HashMap, Layer, Logger, Option, Tracer } from "effect"

const text = (message: unknown): string => {
  const parts = Array.isArray(message) ? message : [message]
  return parts
    .map((p) => (typeof p === "string" ? p : p instanceof Error ? `${p.name}: ${p.message}` : safeJson(p)))
    .join(" ")
}

const safeJson = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/** One log entry as the JSON line's fields. */
export const jsonLogger = Logger.make(({ logLevel, message, date, annotations, cause, context }) => {
  const line: Record<string, unknown> = {
    timestamp: date.toISOString(),
    level: logLevel.label,
    message: text(message)
  }
  for (const [key, value] of HashMap.toEntries(annotations)) if (!(key in line)) line[key] = value
  const span = Context.getOption(FiberRefs.getOrDefault(context, FiberRef.currentContext), Tracer.ParentSpan)
  if (Option.isSome(span)) {
    line.traceId = span.value.traceId
    line.spanId = span.value.spanId
  }
  if (!Cause.isEmpty(cause)) line.cause = Cause.pretty(cause, { renderErrorCause: true })
  process.stdout.write(safeJson(line) + "\n")
})

/**
 * The logger for `LOG_FORMAT`: JSON lines in place of the text loggers (Effect's default, and the
 * "pretty" one the node runtime puts in its place), or those as they are.
 */
export const logFormatLayer = (format: "text" | "json"): Layer.Layer<never> =>
  format === "json"
    ? Layer.merge(
        Logger.replace(Logger.defaultLogger, jsonLogger),
        Logger.replace(Logger.prettyLoggerDefault, jsonLogger)
      )
    : Layer.empty
