/**
 * The batch scanner's files: the domain list read as a stream of lines (a file, or stdin for `-`),
 * and the output appended with backpressure (a write waits while the stream's buffer is full, so a
 * slow disk or a slow reader of stdout slows the scans down instead of filling memory).
 */
import { createReadStream, createWriteStream, existsSync, statSync, type WriteStream } from "node:fs"
import { createInterface } from "node:readline"
import type { Readable, Writable } from "node:stream"
import { Effect, Schema, type Scope, Stream } from "effect"

/** A fatal problem with the batch's files: the run stops and the process exits non-zero. */
export class BatchFileError extends Schema.TaggedError<BatchFileError>()("BatchFileError", {
  message: Schema.String
}) {}

const describe = (e: unknown) => (e instanceof Error ? e.message : String(e))

/** The list's source: stdin for `-`, else the file (checked now, so that a typo fails at once). */
export const openInput = (path: string): Effect.Effect<() => Readable, BatchFileError> =>
  Effect.suspend((): Effect.Effect<() => Readable, BatchFileError> => {
    if (path === "-") return Effect.succeed(() => process.stdin)
    if (!existsSync(path) || !statSync(path).isFile())
      return Effect.fail(new BatchFileError({ message: `${path}: no such file` }))
    return Effect.succeed(() => createReadStream(path))
  })

/** The lines of `source`, one at a time (readline takes LF and CRLF ends alike). */
export const lines = (source: () => Readable, name: string): Stream.Stream<string, BatchFileError> =>
  Stream.suspend(() =>
    Stream.fromAsyncIterable(
      createInterface({ input: source(), crlfDelay: Infinity }),
      (e) => new BatchFileError({ message: `${name}: ${describe(e)}` })
    )
  )

export interface Sink {
  /** Appends `text`; waits while the stream's buffer is full. */
  readonly write: (text: string) => Effect.Effect<void, BatchFileError>
}

/** Writes to `stream` with backpressure, failing (fatally) if the stream reports an error. */
const sinkOf = (stream: Writable, name: string): Sink => {
  let failure: BatchFileError | undefined
  stream.on("error", (e) => {
    failure = new BatchFileError({ message: `${name}: ${describe(e)}` })
  })
  return {
    write: (text) =>
      Effect.async<void, BatchFileError>((resume) => {
        if (failure) return resume(Effect.fail(failure))
        if (stream.write(text)) return resume(Effect.void)
        const onError = () => resume(Effect.fail(failure!))
        stream.once("error", onError)
        stream.once("drain", () => {
          stream.off("error", onError)
          resume(Effect.void)
        })
      })
  }
}

/**
 * An output file, or stdout for `undefined`. `append` keeps what the file holds (the results, see
 * `Resume.ts`); otherwise it is emptied first (the rejects, which each run lists afresh).
 * Closed, and flushed, when the scope ends.
 */
export const openOutput = (
  path: string | undefined,
  append = true
): Effect.Effect<Sink, BatchFileError, Scope.Scope> =>
  path === undefined
    ? Effect.succeed(sinkOf(process.stdout, "stdout"))
    : Effect.map(
        Effect.acquireRelease(
          Effect.async<WriteStream, BatchFileError>((resume) => {
            const stream = createWriteStream(path, { flags: append ? "a" : "w" })
            stream.once("open", () => resume(Effect.succeed(stream)))
            stream.once("error", (e) =>
              resume(Effect.fail(new BatchFileError({ message: `${path}: ${describe(e)}` })))
            )
          }),
          (stream) => Effect.async<void>((resume) => void stream.end(() => resume(Effect.void)))
        ),
        (stream) => sinkOf(stream, path)
      )
