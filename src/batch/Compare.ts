/**
 * `batch --compare previous.jsonl`: each record written gains `changes`, what changed since the
 * domain's record in an earlier JSONL output (monitor/Diff.ts): `null` when that file has no scan of
 * the domain, `[]` when nothing changed.
 *
 * The earlier file is not held in memory (tens of thousands of scans of 35 KB each would not fit the
 * batch's heap): it is read once for the byte range of each domain's line, and a line is read back
 * and decoded only when its domain's new record is written.
 */
import { closeSync, createReadStream, existsSync, openSync, readSync, statSync } from "node:fs"
import { Effect, Either, Schema } from "effect"
import type { ScanResult } from "../scan/ScanResult.ts"
import { readStoredScan } from "../scan/StoredScan.ts"
import { Change } from "../monitor/Change.ts"
import { diffScans } from "../monitor/Diff.ts"
import { BatchFileError } from "./Files.ts"
import { type BatchRecord, encodedRecord, isFailure, jsonLine } from "./Record.ts"
import { domainOfRecord } from "./Resume.ts"

const LF = 0x0a
// The domain is the first member of every record: its first bytes name it.
const HEAD_BYTES = 512

const encodeChanges = Schema.encodeSync(Schema.Array(Change))

export interface Previous {
  /** The changes from the domain's earlier scan to `record`'s; null when there is none to compare. */
  readonly changesOf: (record: BatchRecord) => ReadonlyArray<Change> | null
  readonly close: () => void
}

/** Index `path` (an earlier JSONL output): each domain's line, by byte offset. */
export const readPrevious = (path: string): Effect.Effect<Previous, BatchFileError> =>
  Effect.gen(function* () {
    if (!existsSync(path) || !statSync(path).isFile())
      return yield* Effect.fail(new BatchFileError({ message: `--compare: ${path} is not a file` }))
    const lines = new Map<string, { readonly start: number; readonly length: number }>()
    yield* Effect.tryPromise({
      try: async () => {
        let offset = 0
        let start = 0
        let head: Array<Buffer> = []
        let headBytes = 0
        let index = 0
        for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
          let from = 0
          for (let i = 0; i < chunk.length; i++) {
            if (chunk[i] !== LF) continue
            if (headBytes < HEAD_BYTES) head.push(chunk.subarray(from, i))
            const read = domainOfRecord("jsonl", Buffer.concat(head).toString("utf8"), index++)
            if ("domain" in read && read.domain !== undefined)
              lines.set(read.domain, { start, length: offset + i - start })
            start = offset + i + 1
            head = []
            headBytes = 0
            from = i + 1
          }
          if (headBytes < HEAD_BYTES && from < chunk.length) {
            head.push(
              Buffer.from(chunk.subarray(from, Math.min(chunk.length, from + HEAD_BYTES - headBytes)))
            )
            headBytes += Math.min(chunk.length - from, HEAD_BYTES - headBytes)
          }
          offset += chunk.length
        }
      },
      catch: (e) => new BatchFileError({ message: `--compare: cannot read ${path}: ${String(e)}` })
    })
    const fd = openSync(path, "r")
    const scanOf = (domain: string): ScanResult | null => {
      const line = lines.get(domain)
      if (line === undefined) return null
      const bytes = Buffer.alloc(line.length)
      readSync(fd, bytes, 0, line.length, line.start)
      let parsed: { readonly scan?: unknown }
      try {
        parsed = JSON.parse(bytes.toString("utf8")) as { readonly scan?: unknown }
      } catch {
        return null
      }
      // Written by the registry of its time: a check added since is "not checked then" (StoredScan.ts).
      return Either.getOrNull(readStoredScan(parsed.scan))
    }
    return {
      changesOf: (record) => {
        if (isFailure(record)) return null
        const before = scanOf(record.domain)
        return before === null ? null : diffScans(before, record.scan)
      },
      close: () => closeSync(fd)
    }
  })

/** One JSONL line with the changes since `previous`'s record of the domain (`changes` last). */
export const comparedLine = (record: BatchRecord, previous: Previous): string => {
  if (isFailure(record)) return jsonLine(record)
  const changes = previous.changesOf(record)
  return (
    JSON.stringify({ ...encodedRecord(record), changes: changes === null ? null : encodeChanges(changes) }) +
    "\n"
  )
}
