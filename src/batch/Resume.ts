/**
 * Resuming: which domains an output file already holds, and the repair of a torn last record.
 *
 * The batch appends one record per write, so a run killed mid-write (SIGKILL, power loss) leaves at
 * most the last record incomplete: the bytes after the last complete record. Those are cut off
 * (the file is truncated to its complete prefix) before anything is appended, so a record is never
 * duplicated nor glued to a fragment. Every complete record names its domain first.
 */
import { createReadStream, existsSync, statSync, truncateSync } from "node:fs"
import { Effect, Schema } from "effect"
import { parseCsvRecord } from "./Csv.ts"
import { type ScanDepth, ScanDepths } from "../kernel/Depth.ts"
import { CSV_COLUMNS, type Format } from "./Record.ts"

const LF = 0x0a
const QUOTE = 0x22

/**
 * Splits a byte stream into complete records. A record ends at LF; in CSV only at an LF outside
 * quotes (RFC 4180 2.6: a quoted field may hold line breaks). Inside quotes `""` is an escaped quote:
 * counting quote parity handles it, even split across chunks. JSON lines never hold a raw LF.
 */
export class RecordSplitter {
  private pending: Array<Buffer> = []
  private quoted = false
  /** Bytes consumed by complete records so far (with their terminators). */
  complete = 0

  constructor(private readonly format: Format) {}

  /** The complete records that `chunk` finishes, as text without their line end. */
  push(chunk: Buffer): Array<string> {
    const out: Array<string> = []
    let start = 0
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!
      if (byte === QUOTE && this.format === "csv") this.quoted = !this.quoted
      else if (byte === LF && !this.quoted) {
        this.pending.push(chunk.subarray(start, i))
        const bytes = Buffer.concat(this.pending)
        this.complete += bytes.length + 1
        this.pending = []
        start = i + 1
        out.push(bytes.toString("utf8").replace(/\r$/, ""))
      }
    }
    if (start < chunk.length) this.pending.push(Buffer.from(chunk.subarray(start)))
    return out
  }
}

/** The output file cannot be resumed (it is another format, or not a batch output). */
export class ResumeError extends Schema.TaggedError<ResumeError>()("ResumeError", {
  message: Schema.String
}) {}

const JSONL_HEAD = /^\{"domain":"([a-z0-9.-]+)"(?:,"depth":"([a-z]+)")?/
const DEPTH_COLUMN = CSV_COLUMNS.indexOf("depth")

/** A record's depth as written; `full` for a record without one (written before depths existed). */
const depthIn = (text: string | undefined): ScanDepth | ResumeError =>
  text === undefined || text === ""
    ? "full"
    : (ScanDepths as ReadonlyArray<string>).includes(text)
      ? (text as ScanDepth)
      : new ResumeError({ message: `a record's depth '${text}' is not one of ${ScanDepths.join(", ")}` })

/** The domain and depth of one complete record (no domain for the CSV header). */
export const domainOfRecord = (
  format: Format,
  record: string,
  index: number
): { readonly domain?: string; readonly depth?: ScanDepth } | ResumeError => {
  if (format === "csv") {
    const fields = parseCsvRecord(record)
    if (index === 0)
      return fields.join(",") === CSV_COLUMNS.join(",")
        ? {}
        : new ResumeError({ message: "its first line is not this version's CSV header" })
    if (fields.length !== CSV_COLUMNS.length || fields[0] === "")
      return new ResumeError({
        message: `record ${index + 1} has ${fields.length} columns, not ${CSV_COLUMNS.length}`
      })
    const depth = depthIn(fields[DEPTH_COLUMN])
    return depth instanceof ResumeError ? depth : { domain: fields[0]!, depth }
  }
  const fast = JSONL_HEAD.exec(record)
  if (fast) {
    const depth = depthIn(fast[2])
    return depth instanceof ResumeError ? depth : { domain: fast[1]!, depth }
  }
  try {
    const parsed: unknown = JSON.parse(record)
    const { domain, depth } = (parsed ?? {}) as { domain?: unknown; depth?: unknown }
    if (typeof domain === "string") {
      const read = depthIn(typeof depth === "string" ? depth : undefined)
      return read instanceof ResumeError ? read : { domain, depth: read }
    }
  } catch {
    // reported below
  }
  return new ResumeError({ message: `line ${index + 1} is not a JSON record with a domain` })
}

export interface Written {
  /** Domains the file holds a complete record for. */
  readonly domains: Set<string>
  /** Complete records, header excluded. */
  readonly records: number
  /** Bytes of a torn last record that were cut off (0: the file was whole). */
  readonly tornBytes: number
  /** Whether the file holds the CSV header already (always true for JSONL, which has none). */
  readonly hasHeader: boolean
}

/**
 * Reads what `path` already holds (streamed: memory grows with the number of domains, not the size
 * of their records), and truncates a torn last record. A missing or empty file holds nothing.
 */
export const readWritten = (
  path: string,
  format: Format,
  /** Called with each complete record (header excluded): the summary counts what was written before. */
  onRecord: (record: string) => void = () => {},
  /**
   * The depth of this run: a file holding a record of another depth is refused, for its domains
   * would be skipped as done while they were checked less (or more) than this run checks.
   */
  depth: ScanDepth = "full"
): Effect.Effect<Written, ResumeError> =>
  Effect.gen(function* () {
    const empty: Written = { domains: new Set(), records: 0, tornBytes: 0, hasHeader: format === "jsonl" }
    if (!existsSync(path) || statSync(path).size === 0) return empty
    const size = statSync(path).size
    const splitter = new RecordSplitter(format)
    const domains = new Set<string>()
    let index = 0
    let problem: ResumeError | undefined
    yield* Effect.tryPromise({
      try: async () => {
        for await (const chunk of createReadStream(path)) {
          for (const record of splitter.push(chunk as Buffer)) {
            const read = domainOfRecord(format, record, index++)
            if (read instanceof ResumeError) {
              problem = read
              return
            }
            if (read.depth !== undefined && read.depth !== depth) {
              problem = new ResumeError({
                message: `it holds results scanned at depth ${read.depth} (${read.domain ?? "a record"}), and this run's depth is ${depth}: give --depth ${read.depth} to resume it, or another --out`
              })
              return
            }
            if (read.domain !== undefined) {
              domains.add(read.domain)
              onRecord(record)
            }
          }
        }
      },
      catch: (e) => new ResumeError({ message: `cannot read it: ${String(e)}` })
    })
    if (problem) return yield* Effect.fail(problem)
    const tornBytes = size - splitter.complete
    if (tornBytes > 0)
      yield* Effect.try({
        try: () => truncateSync(path, splitter.complete),
        catch: (e) => new ResumeError({ message: `cannot cut its torn last record: ${String(e)}` })
      })
    const records = format === "csv" ? Math.max(0, index - 1) : index
    return { domains, records, tornBytes, hasHeader: format === "jsonl" || index > 0 }
  }).pipe(
    Effect.mapError(
      (e) => new ResumeError({ message: `${path} cannot be resumed as ${format}: ${e.message}` })
    )
  )
