/**
 * The cluster executor of the batch scanner (`--cluster`): the domains go to the cluster named by
 * CLUSTER_DATABASE_URL in chunks (`ClusterChunks.ts`), each scanned by whichever runner owns its
 * shard; this process joins as one runner. The batch id names the run, so a re-run with the same
 * output file finds the chunks it had already sent instead of scanning them again.
 */
import { createHash } from "node:crypto"
import { resolve } from "node:path"
import { Cause, Effect } from "effect"
import type { ChunkExecutor } from "./Batch.ts"
import type { BatchOptions } from "./Cli.ts"
import { BatchChunks, chunkId } from "./ClusterChunks.ts"
import { toWritten } from "./Written.ts"

/** One id per output file (stdout: one per process), so resuming a file resumes its jobs. */
export const batchId = (options: Pick<BatchOptions, "out">, now = Date.now()): string =>
  createHash("sha256")
    .update(options.out === undefined ? `stdout ${now} ${process.pid}` : `file ${resolve(options.out)}`)
    .digest("hex")
    .slice(0, 16)

/**
 * Domains per message. Each message costs the cluster a stored request, a stored reply and their
 * reads (~6 Postgres statements, docs/scale.md), whatever its size; a chunk's records come back when
 * its slowest domain is done, so a chunk much larger than this holds finished scans back. At least
 * four chunks are in flight, so that the work spreads over the runners.
 */
export const MAX_CHUNK = 10

export const chunkSize = (concurrency: number): number =>
  Math.max(1, Math.min(MAX_CHUNK, Math.floor(concurrency / 4)))

export const onCluster = (id: string, concurrency: number): ChunkExecutor<BatchChunks> => ({
  size: chunkSize(concurrency),
  run: (domains, format) =>
    Effect.flatMap(BatchChunks, (chunks) => chunks.scan(chunkId(id, format, domains), domains, format)).pipe(
      Effect.catchAllCause((cause) =>
        Effect.as(
          Effect.logError(`batch: the cluster scan of ${domains.join(", ")} failed`, cause),
          domains.map((domain) =>
            toWritten(
              { domain, error: Cause.pretty(cause).split("\n")[0] ?? "the cluster scan failed" },
              format
            )
          )
        )
      )
    )
})
