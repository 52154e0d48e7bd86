/**
 * Reports posted over HTTP can be read in worker threads (ParseWorker.ts, `REPORTS_PARSE_WORKERS`,
 * off by default), not on the service's own thread: decompressing, decoding and parsing a report
 * costs about as much CPU on that thread as storing it. The thread that serves HTTP and writes
 * SQLite then only stores what a worker read; the process spends more CPU in all (the hand-over, a
 * second heap), which pays only with a CPU to spare (docs/bench.md "What keeps a report cheap").
 * Workers start with the first report; a worker that cannot start or dies hands its reports back
 * to be read on the service's thread (`ParseWorkerLost`), so a report is never lost or answered
 * differently for it.
 */
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Worker } from "node:worker_threads"
import { Effect, Schema } from "effect"
import { packRows, unpackRows } from "../store/DmarcRows.ts"
import type { ReportHead } from "../store/InboundReports.ts"
import { type RefusalKind, refuse, type ReportLimits, type ReportRefused } from "./Refusal.ts"
import type { ReportKind, StoredRows } from "./Storable.ts"

/** A report for a worker to read (Decode.ts `readPosted`'s arguments). */
export interface ParseJob {
  readonly id: number
  readonly kind: ReportKind
  readonly contentType: string | undefined
  readonly bytes: Uint8Array
  readonly limits: ReportLimits
}

/** A report read by a worker: its head and rows as the store writes them (Storable.ts `storable`). */
export interface Readied {
  readonly head: ReportHead
  readonly rows: StoredRows
}

export { packRows, unpackRows }

/**
 * A report read, as a worker hands it back: a DMARC report's rows packed (store/DmarcRows.ts
 * `packRows`: one flat array of their values, copied between threads at about half the cost of as
 * many objects, since the copy of an object is built property by property).
 */
export interface ReadiedPacked {
  readonly head: ReportHead
  readonly rows:
    | Exclude<StoredRows, { readonly kind: "dmarc" }>
    | {
        readonly kind: "dmarc"
        readonly packed: Array<string | number>
        readonly selectors: ReadonlyArray<string>
      }
}

/** `readied` packed for the hand-over. */
export const pack = ({ head, rows }: Readied): ReadiedPacked => ({
  head,
  rows:
    rows.kind === "dmarc" ? { kind: "dmarc", packed: packRows(rows.rows), selectors: rows.selectors } : rows
})

const unpack = ({ head, rows }: ReadiedPacked): Readied => ({
  head,
  rows:
    rows.kind === "dmarc" ? { kind: "dmarc", rows: unpackRows(rows.packed), selectors: rows.selectors } : rows
})

/** A worker's answer: the report read, its refusal, or an unexpected failure (read it here instead). */
export type ParseAnswer =
  | { readonly id: number; readonly ok: ReadiedPacked }
  | { readonly id: number; readonly refused: { readonly kind: RefusalKind; readonly message: string } }
  | { readonly id: number; readonly lost: string }

/** The worker could not read the report (it failed to start, died, or threw): read it on this thread. */
export class ParseWorkerLost extends Schema.TaggedError<ParseWorkerLost>()("ParseWorkerLost", {
  reason: Schema.String
}) {}

/**
 * How to start a worker: the bundle's `dist/inbound/ParseWorker.mjs` (scripts/build.mjs), whose
 * chunks sit in dist/chunks; from the sources (tests, `tsx`), this module's neighbour `.ts` through
 * tsx's loader, registered in the worker first (node 20 applies no `--import` to a worker's script).
 */
const workerScript = (): { readonly script: string | URL; readonly eval: boolean } | undefined => {
  if (import.meta.url.endsWith(".ts")) {
    const source = JSON.stringify(new URL("./ParseWorker.ts", import.meta.url).href)
    return {
      script: `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${source}) })`,
      eval: true
    }
  }
  for (const path of ["../inbound/ParseWorker.mjs", "./inbound/ParseWorker.mjs"]) {
    const url = new URL(path, import.meta.url)
    if (existsSync(fileURLToPath(url))) return { script: url, eval: false }
  }
  return undefined
}

interface Slot {
  worker: Worker | undefined
  readonly waiting: Map<number, (answer: ParseAnswer) => void>
}

/**
 * A pool of `size` workers (`REPORTS_PARSE_WORKERS`), started as reports come. `parse` sends a job
 * to the worker with the fewest jobs in hand; `close` ends them.
 */
export const parsePool = (size: number) => {
  const script = workerScript()
  // without the worker's script (a bundle built without it) there is no pool: reports are read here
  const slots: Array<Slot> = Array.from({ length: script === undefined ? 0 : size }, () => ({
    worker: undefined,
    waiting: new Map()
  }))
  let nextId = 0
  let closed = false
  /** A worker failed before it answered once (its script cannot load): no more are started. */
  let broken = false

  const lose = (slot: Slot, reason: string) => {
    slot.worker = undefined
    const waiting = [...slot.waiting]
    slot.waiting.clear()
    for (const [id, resume] of waiting) resume({ id, lost: reason })
  }

  const start = (slot: Slot) => {
    if (script === undefined) return undefined
    const worker = new Worker(script.script, { eval: script.eval })
    // a pool with nothing in hand does not keep the process alive
    worker.unref()
    let answered = false
    const fail = (reason: string) => {
      if (slot.worker !== worker) return
      if (!answered) broken = true
      lose(slot, reason)
    }
    worker.on("message", (answer: ParseAnswer) => {
      answered = true
      const resume = slot.waiting.get(answer.id)
      slot.waiting.delete(answer.id)
      if (slot.waiting.size === 0) worker.unref()
      resume?.(answer)
    })
    worker.on("error", (e) => fail(e.message))
    worker.on("exit", (code) => fail(`the parse worker exited (${code})`))
    slot.worker = worker
    return worker
  }

  const parse = (job: Omit<ParseJob, "id">): Effect.Effect<Readied, ReportRefused | ParseWorkerLost> =>
    Effect.async<Readied, ReportRefused | ParseWorkerLost>((resume) => {
      const slot = slots.reduce<Slot | undefined>(
        (a, b) => (a === undefined || b.waiting.size < a.waiting.size ? b : a),
        undefined
      )
      const worker =
        closed || slot === undefined ? undefined : (slot.worker ?? (broken ? undefined : start(slot)))
      if (worker === undefined) return resume(Effect.fail(new ParseWorkerLost({ reason: "no parse worker" })))
      const id = nextId++
      slot!.waiting.set(id, (answer) =>
        resume(
          "ok" in answer
            ? Effect.succeed(unpack(answer.ok))
            : "refused" in answer
              ? Effect.fail(refuse(answer.refused.kind, answer.refused.message))
              : Effect.fail(new ParseWorkerLost({ reason: answer.lost }))
        )
      )
      worker.ref()
      // the bytes copied to a buffer of their own and moved, not the pool buffer they may share cloned
      const bytes = job.bytes.slice()
      worker.postMessage({ ...job, bytes, id } satisfies ParseJob, [bytes.buffer])
      // interrupted (the client went away): its answer, when it comes, is dropped
      return Effect.sync(() => {
        slot!.waiting.delete(id)
        if (slot!.waiting.size === 0) worker.unref()
      })
    })

  const close = () => {
    closed = true
    return Promise.all(
      slots.map((slot) => {
        const worker = slot.worker
        slot.worker = undefined
        return worker?.terminate()
      })
    ).then(() => undefined)
  }
  /** Whether reports go to the workers: none configured, closed, or their script failed to load: no. */
  const available = () => slots.length > 0 && !broken && !closed
  return { parse, close, available }
}

export type ParsePool = ReturnType<typeof parsePool>
