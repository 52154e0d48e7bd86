/**
 * The batch scanner's work on the cluster (`batch --cluster`, docs/cluster.md): a chunk of domains
 * per message, each chunk an entity of its own (`BatchChunk`, its id a hash of the run and the
 * chunk's domains), scanned by the runner that owns the chunk's shard.
 *
 * - One persisted request per chunk and one reply (`ClusterSchema.Persisted`): the cluster stores
 *   both in its database, so a runner that dies mid-chunk loses nothing: the runner that takes its
 *   shard over reads the unprocessed request back and scans the chunk again (at least once; the
 *   batch writes each domain once, when the reply arrives).
 * - The reply is each domain's record as the batch writes it (`Written.ts`): the runner scores and
 *   formats it, so the submitting process decodes no scan result.
 * - Uninterruptible: an interrupted batch (Ctrl-C) leaves its chunks running; a re-run with the same
 *   output cuts the rest of the list into the same chunks and is answered from storage.
 *
 * Every runner registers the entity (`Layers.ts` for `domain-audit serve`, `cli/ClusterBatch.ts`
 * for the batch process itself), so any of them can take a chunk.
 */
import { createHash } from "node:crypto"
import { ClusterSchema, Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { Effect, Layer, Schema } from "effect"
import { type Domain, DomainFromString } from "../records/DomainName.ts"
import { ClusterLive } from "../jobs/Cluster.ts"
import type { ScanContext } from "../scan/FactsLive.ts"
import { inProcess } from "./Batch.ts"
import { Formats } from "./Record.ts"
import { toWritten, Written } from "./Written.ts"

const ScanChunk = Rpc.make("scan", {
  payload: { domains: Schema.Array(DomainFromString), format: Schema.Literal(...Formats) },
  // The entity id names the chunk: one request per entity, so no key beyond it.
  primaryKey: () => "",
  success: Schema.Array(Written)
})
  .annotate(ClusterSchema.Persisted, true)
  .annotate(ClusterSchema.Uninterruptible, true)

export const BatchChunk = Entity.make("BatchChunk", [ScanChunk])

/** A chunk's entity id: the run, the format and the domains, so that a re-run finds its chunks. */
export const chunkId = (batchId: string, format: string, domains: ReadonlyArray<string>): string =>
  createHash("sha256")
    .update(`${batchId}\n${format}\n${domains.join("\n")}`)
    .digest("hex")
    .slice(0, 32)

/** The runner's side: the chunk's domains scanned at once, in this process, each as written. */
const ChunkHandler = BatchChunk.toLayer(
  Effect.gen(function* () {
    const context = yield* Effect.context<ScanContext>()
    return {
      scan: ({ payload }) =>
        Effect.forEach(
          payload.domains,
          (domain) => Effect.map(inProcess(domain), (record) => toWritten(record, payload.format)),
          { concurrency: "unbounded" }
        ).pipe(Effect.provide(context))
    }
  })
)

/** The submitting side: a chunk sent to whichever runner owns it, its records awaited. */
export class BatchChunks extends Effect.Service<BatchChunks>()("BatchChunks", {
  effect: Effect.map(
    BatchChunk.client,
    (client) =>
      ({
        scan: (id: string, domains: ReadonlyArray<Domain>, format: (typeof Formats)[number]) =>
          client(id).scan({ domains, format })
      }) as const
  )
}) {}

/** The entity registered on this process's cluster, and its client. */
export const BatchChunksLive = Layer.merge(ChunkHandler, BatchChunks.Default).pipe(Layer.provide(ClusterLive))
