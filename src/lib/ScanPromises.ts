/**
 * The door for any JavaScript or TypeScript caller: Promises and an async iterable over the same
 * Scanner service the Effect door offers (`ScannerService.ts`), which runs the engine the server,
 * the batch and the command line run. Each call builds the services once (settings, resolver and
 * its TTL cache, HTTPS client, MX prober) and closes them when it is done, so nothing is left
 * running behind a script.
 */
import { Cause, Effect, Either, Exit, Layer, ManagedRuntime, Option, Stream } from "effect"
import { type LibraryOptions, settingsLayer, stderrLogger } from "./LibraryOptions.ts"
import {
  type GradedPreview,
  type GradedScan,
  InvalidDomain,
  type ScanSettings,
  Scanner
} from "./ScannerService.ts"
import { PreviewRefused } from "../composite/Preview.ts"
import {
  parseRecordLine,
  type PreviewFileInput,
  type PreviewRecordInput,
  type PreviewRemovalInput
} from "../composite/PreviewInput.ts"
import { AppConfig } from "../Config.ts"

export type ScanOptions = LibraryOptions & ScanSettings

/** One entry of `scanMany`: the graded scan, or why the input could not be scanned. */
export type ScanEntry =
  | ({ readonly ok: true; readonly input: string } & GradedScan)
  | { readonly ok: false; readonly input: string; readonly error: string }

/** `names` belong to one domain, so a list of domains takes none. */
export interface ScanManyOptions extends Omit<ScanOptions, "names"> {
  /** Scans in flight at once (default 8). */
  readonly concurrency?: number
  /** Called with each entry as it completes, before the iterator yields it; awaited. */
  readonly onResult?: (entry: ScanEntry) => void | Promise<void>
}

/** A setting was invalid, or a domain was not one (`cause` is the `InvalidDomain`). */
export class DomainAuditError extends Error {
  override readonly name = "DomainAuditError"
}

const runtimeOf = (options: LibraryOptions) =>
  ManagedRuntime.make(
    Layer.mergeAll(Scanner.Default, stderrLogger.pipe(Layer.provide(AppConfig.Default))).pipe(
      Layer.provide(settingsLayer(options))
    )
  )

/**
 * The value of a finished run, or its failure thrown as a `DomainAuditError` whose message is the
 * failure's own (an InvalidDomain's reason, a ConfigError naming the setting) or the cause's first line.
 */
const valueOf = <A>(exit: Exit.Exit<A, unknown>): A => {
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.failureOption(exit.cause)
  if (Option.isSome(failure)) {
    const error = failure.value
    const message =
      error instanceof InvalidDomain || error instanceof PreviewRefused ? error.message : String(error)
    throw new DomainAuditError(message, { cause: error })
  }
  throw new DomainAuditError(Cause.pretty(exit.cause).split("\n")[0] ?? "the scan failed")
}

/**
 * Scans `domain` (a name, or a URL whose host is scanned) and scores it. Rejects with a
 * `DomainAuditError` when it is not a domain or a setting is invalid; a domain that is slow,
 * broken or does not exist resolves like any other (unknown checks; `score.unscannable` says why
 * a domain cannot be graded).
 */
export const scan = async (domain: string, options: ScanOptions = {}): Promise<GradedScan> => {
  const runtime = runtimeOf(options)
  try {
    return valueOf(await runtime.runPromiseExit(Effect.flatMap(Scanner, (s) => s.scan(domain, options))))
  } finally {
    await runtime.dispose()
  }
}

/** A record to preview: `{ name, type, value, ttl? }`, or the line `name TYPE value`. */
export type PreviewRecord = PreviewRecordInput | string

export interface PreviewOptions extends ScanOptions {
  /** RRsets to remove: `{ name, type }`. */
  readonly remove?: ReadonlyArray<typeof PreviewRemovalInput.Type>
  /** An MTA-STS policy or security.txt body served in place of the live one: `{ url, body }`. */
  readonly files?: ReadonlyArray<typeof PreviewFileInput.Type>
}

/**
 * Scans `domain` as it will be once `records` are published (each replacing the live RRset of its
 * name and type; docs/preview.md), beside a live scan of it; `score.compared` says what changes.
 * Rejects with a `DomainAuditError` naming the record when a record cannot be previewed.
 */
export const preview = async (
  domain: string,
  records: ReadonlyArray<PreviewRecord>,
  options: PreviewOptions = {}
): Promise<GradedPreview> => {
  const read = records.map((r) => (typeof r === "string" ? parseRecordLine(r) : Either.right(r)))
  const bad = read.find(Either.isLeft)
  if (bad !== undefined) throw new DomainAuditError(bad.left)
  const changes = {
    records: read.map((r) => Either.getOrThrow(r)),
    remove: options.remove,
    files: options.files
  }
  const runtime = runtimeOf(options)
  try {
    return valueOf(
      await runtime.runPromiseExit(Effect.flatMap(Scanner, (s) => s.preview(domain, changes, options)))
    )
  } finally {
    await runtime.dispose()
  }
}

/** An input of `scanMany`: an iterable or async iterable of domains. */
export type Domains = Iterable<string> | AsyncIterable<string>

const streamOf = (domains: Domains): Stream.Stream<string, unknown> =>
  Symbol.asyncIterator in domains
    ? Stream.fromAsyncIterable(domains, (e) => e)
    : Stream.fromIterable(domains as Iterable<string>)

/**
 * Scans every domain of `domains`, `concurrency` at a time over one set of services (one resolver
 * cache), yielding each entry as its scan completes (completion order, not input order). An input
 * that is not a domain yields `{ ok: false, error }` and the rest go on. Breaking out of the loop
 * stops the scans still running.
 */
export async function* scanMany(domains: Domains, options: ScanManyOptions = {}): AsyncGenerator<ScanEntry> {
  const runtime = runtimeOf(options)
  try {
    const settings = {
      ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
      ...(options.depth === undefined ? {} : { depth: options.depth })
    }
    const entries = streamOf(domains).pipe(
      Stream.mapEffect(
        (input) =>
          Effect.flatMap(Scanner, (scanner) => scanner.scan(input, settings)).pipe(
            Effect.map((graded): ScanEntry => ({ ok: true, input, ...graded })),
            Effect.catchTag("InvalidDomain", (e) =>
              Effect.succeed<ScanEntry>({ ok: false, input, error: e.message })
            )
          ),
        { concurrency: Math.max(1, options.concurrency ?? 8), unordered: true }
      )
    )
    const iterator = Stream.toAsyncIterableRuntime(
      entries,
      valueOf(await runtime.runPromiseExit(Effect.runtime<Scanner>()))
    )
    for await (const entry of iterator) {
      await options.onResult?.(entry)
      yield entry
    }
  } finally {
    await runtime.dispose()
  }
}
