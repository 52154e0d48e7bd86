/**
 * A worker thread of the parse pool (ParsePool.ts): it reads a report posted over HTTP (decompression,
 * the text decoder, saxes and the records folded into rows, all of Decode.ts `readPosted`) and
 * hands back the head and rows the store writes, or the refusal, so the service's own thread only
 * stores. The answer is the one the service's thread would have given: the same code reads it.
 */
import { parentPort } from "node:worker_threads"
import { Effect, Either } from "effect"
import { readPosted } from "./Decode.ts"
import { pack, type ParseAnswer, type ParseJob } from "./ParsePool.ts"
import { storable } from "./Storable.ts"

const answer = (job: ParseJob): Promise<ParseAnswer> =>
  Effect.runPromise(Effect.either(readPosted(job.kind, job.contentType, job.bytes, job.limits))).then(
    (read) =>
      Either.isRight(read)
        ? { id: job.id, ok: pack(storable(read.right)) }
        : { id: job.id, refused: { kind: read.left.kind, message: read.left.message } },
    (e: unknown) => ({ id: job.id, lost: e instanceof Error ? e.message : String(e) })
  )

parentPort?.on("message", (job: ParseJob) => {
  void answer(job).then((a) => parentPort!.postMessage(a))
})
