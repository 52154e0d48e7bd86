/**
 * The batch scanner: a list of domains in, one record per domain out, `concurrency` scans at a time.
 *
 * - The list is streamed, never held: lines are read as the scans need them (the stream pulls at
 *   most `concurrency` domains ahead), and each record is written as soon as its scan ends, in
 *   completion order. What stays in memory is the set of domain names seen, for duplicates.
 * - Resuming: the domains the output already holds are skipped (`Resume.ts`).
 * - How a domain is scanned is an `Executor`: `inProcess` runs the Scanner here, one domain at a
 *   time; a `ChunkExecutor` takes the domains in chunks and answers each domain's record as written
 *   (`OnCluster.ts`: a chunk per message to the cluster's runners).
 */
import type { Domain } from "../records/DomainName.ts"
import { Cause, Chunk, Effect, Option, Stream } from "effect"
import type { ScanDepth } from "../kernel/Depth.ts"
import { scan } from "../scan/Scanner.ts"
import type { ScanContext } from "../scan/FactsLive.ts"
import { score } from "../score/Score.ts"
import type { BatchOptions } from "./Cli.ts"
import { type BatchFileError, lines, openInput, openOutput } from "./Files.ts"
import { type HeapMeter, HeapRoom, v8Heap } from "./HeapRoom.ts"
import { parseLine } from "./Lines.ts"
import { Progress, type ProgressSink } from "./Progress.ts"
import { type BatchRecord, csvHeader } from "./Record.ts"
import { readWritten, type ResumeError } from "./Resume.ts"
import { comparedLine, type Previous, readPrevious } from "./Compare.ts"
import { interruptedText, standardFiles } from "./ResumeCommand.ts"
import { type BatchSummary, summaryText, Tally } from "./Summary.ts"
import { recordOfLine, toWritten, type Written } from "./Written.ts"

/** Scans one (normalised) domain into its record; never fails: a failure is a record too. */
export type Executor<R> = (domain: Domain) => Effect.Effect<BatchRecord, never, R>

/**
 * Scans `size` domains at a time (the last chunk may be shorter) and answers each one's record as
 * written in `format` (JSONL whenever `--compare` is given); never fails.
 */
export interface ChunkExecutor<R> {
  readonly size: number
  readonly run: (
    domains: ReadonlyArray<Domain>,
    format: BatchOptions["format"]
  ) => Effect.Effect<ReadonlyArray<Written>, never, R>
}

/** The Scanner and the score at `depth` (kernel/Depth.ts), in this process, over the live net layers. */
export const inProcessAt =
  (depth: ScanDepth): Executor<ScanContext> =>
  (domain) =>
    scanned(domain, depth)

/** The full scan, in this process (the cluster's runners and `domain-audit scan` use it). */
export const inProcess: Executor<ScanContext> = inProcessAt("full")

const scanned = (domain: Domain, depth: ScanDepth) =>
  scan(domain, { depth }).pipe(
    // The batch exports no traces: a live span costs random ids (built a character at a time) and
    // memory in each of the ~1,000 scans in flight, for nothing (docs/bench.md, the batch).
    Effect.withTracerEnabled(false),
    Effect.map((result): BatchRecord => ({ domain, scan: result, score: score(result) })),
    Effect.catchAllCause((cause) =>
      Effect.as(
        Effect.logError(`batch: the scan of ${domain} failed`, cause),
        // Only the first line: the record is data, the full cause is in the log.
        {
          domain,
          ...(depth === "full" ? {} : { depth }),
          error: Cause.pretty(cause).split("\n")[0] ?? "the scan failed"
        } satisfies BatchRecord
      )
    )
  )

/** A domain's text: its record, with the changes since `previous` when comparing. */
const textOf = (done: Written, previous: Previous | undefined, record?: BatchRecord) =>
  previous === undefined ? done.text : comparedLine(record ?? recordOfLine(done.text), previous)

/** Classifies each domain of the list once: new, a repeat within the list, or written before. */
class Seen {
  readonly names = new Set<string>()
  constructor(private readonly written: ReadonlySet<string>) {}
  take(domain: Domain): "new" | "duplicate" | "written" {
    if (this.names.has(domain)) return "duplicate"
    this.names.add(domain)
    return this.written.has(domain) ? "written" : "new"
  }
}

export const runBatch = <R>(
  options: BatchOptions,
  executor: Executor<R> | ChunkExecutor<R>,
  stderr: ProgressSink = process.stderr,
  heap: HeapMeter = v8Heap()
): Effect.Effect<BatchSummary, BatchFileError | ResumeError, R> =>
  Effect.gen(function* () {
    const source = yield* openInput(options.input)
    const inputName = options.input === "-" ? "stdin" : options.input
    const tally = new Tally()
    const written = options.out
      ? yield* readWritten(
          options.out,
          options.format,
          (record) => tally.addWritten(options.format, record),
          options.depth ?? "full"
        )
      : { domains: new Set<string>(), records: 0, tornBytes: 0, hasHeader: options.format === "jsonl" }
    const progress = new Progress(stderr)
    const say = (text: string) => (options.quiet ? undefined : progress.note(text))
    if (written.tornBytes > 0)
      say(
        `batch: cut a torn last record (${written.tornBytes} bytes) from ${options.out}; its domain is scanned again`
      )
    if (written.records > 0) say(`batch: ${options.out} holds ${written.records} results; resuming`)

    // A second pass over a file gives the bar its total; stdin can be read only once.
    if (options.input !== "-") {
      const seen = new Seen(written.domains)
      const total = yield* lines(source, inputName).pipe(
        Stream.runFold(0, (n, raw) => {
          const line = parseLine(raw)
          return line._tag === "Domain" && seen.take(line.domain) === "new" ? n + 1 : n
        })
      )
      progress.setTotal(total)
    }

    const output = yield* openOutput(options.out)
    const previous = options.compare ? yield* readPrevious(options.compare) : undefined
    if (previous !== undefined) yield* Effect.addFinalizer(() => Effect.sync(() => previous.close()))
    const rejects = options.rejects ? yield* openOutput(options.rejects, false) : undefined
    if (!written.hasHeader) yield* output.write(csvHeader())

    const seen = new Seen(written.domains)
    let lineNo = 0
    let duplicates = 0
    let alreadyWritten = 0
    let invalid = 0
    if (!options.quiet) progress.start()
    const domains = lines(source, inputName).pipe(
      Stream.mapEffect((raw) => {
        lineNo++
        const line = parseLine(raw)
        if (line._tag === "Skip") return Effect.succeed(Option.none<Domain>())
        if (line._tag === "Invalid") {
          invalid++
          say(`${inputName}:${lineNo}: skipped: ${line.reason}`)
          const listed = rejects
            ? rejects.write(`${lineNo}\t${line.text.replace(/\s/g, " ")}\t${line.reason}\n`)
            : Effect.void
          return Effect.as(listed, Option.none<Domain>())
        }
        const kind = seen.take(line.domain)
        if (kind === "duplicate") duplicates++
        if (kind === "written") alreadyWritten++
        return Effect.succeed(kind === "new" ? Option.some(line.domain) : Option.none<Domain>())
      }),
      Stream.filterMap((domain) => domain)
    )
    const room = new HeapRoom(heap)
    const write = (done: Written, record?: BatchRecord) =>
      Effect.zipRight(
        output.write(textOf(done, previous, record)),
        Effect.sync(() => {
          progress.record(done)
          tally.addCounts(done.grade, done.issues)
        })
      )
    const scanned =
      typeof executor === "function"
        ? domains.pipe(
            Stream.mapEffect(
              (domain) =>
                // Comparing formats the record with its changes: no plain text to format first.
                Effect.map(room.admit(executor(domain)), (record) => ({
                  done: toWritten(record, options.format, previous === undefined ? undefined : ""),
                  record
                })),
              { concurrency: options.concurrency, unordered: true }
            ),
            Stream.runForEach(({ done, record }) => write(done, record))
          )
        : domains.pipe(
            // Fixed sizes, not time windows: a resumed run cuts what is left into the same chunks
            // (whole chunks were written), so a chunk already scanned is answered from storage.
            Stream.grouped(executor.size),
            Stream.mapEffect(
              (chunk) => room.admit(executor.run(Chunk.toReadonlyArray(chunk), options.format), chunk.length),
              { concurrency: Math.max(1, Math.ceil(options.concurrency / executor.size)), unordered: true }
            ),
            Stream.runForEach((chunk) => Effect.forEach(chunk, (done) => write(done), { discard: true }))
          )
    yield* scanned.pipe(
      Effect.ensuring(Effect.sync(() => progress.stop())),
      Effect.onInterrupt(() =>
        Effect.sync(() =>
          stderr.write(
            interruptedText(
              { thisRun: progress.snapshot().done, before: written.records },
              options,
              standardFiles()
            )
          )
        )
      )
    )
    const counts = progress.snapshot()
    const summary: BatchSummary = {
      scanned: counts.done,
      failed: counts.failed,
      incomplete: counts.incomplete,
      alreadyWritten,
      duplicates,
      invalid,
      tornBytes: written.tornBytes,
      heldForMemory: room.held,
      heldForDns: room.heldForDns,
      elapsedMs: counts.elapsedMs,
      grades: tally.grades,
      topIssues: tally.top()
    }
    stderr.write(summaryText(summary, options.out))
    return summary
  }).pipe(Effect.scoped)
