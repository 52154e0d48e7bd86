/**
 * The cluster executor of the batch scanner (`--cluster`): each domain becomes a `full` job of the
 * cluster named by CLUSTER_DATABASE_URL (`jobs/DeepScans.ts` `scanOnCluster`), scanned by whichever
 * runner owns its shard; this process joins as one runner. The batch id names the run, so a re-run
 * with the same output file finds the jobs it had already started instead of scanning again.
 */
import { createHash } from "node:crypto"
import { resolve } from "node:path"
import { Cause, Effect } from "effect"
import { scanOnCluster } from "../jobs/DeepScans.ts"
import { score } from "../score/Score.ts"
import type { Executor } from "./Batch.ts"
import type { BatchOptions } from "./Cli.ts"
import type { BatchRecord } from "./Record.ts"

/** One id per output file (stdout: one per process), so resuming a file resumes its jobs. */
export const batchId = (options: Pick<BatchOptions, "out">, now = Date.now()): string =>
  createHash("sha256")
    .update(options.out === undefined ? `stdout ${now} ${process.pid}` : `file ${resolve(options.out)}`)
    .digest("hex")
    .slice(0, 16)

export const onCluster = (id: string) =>
  ((domain) =>
    scanOnCluster(domain, id).pipe(
      Effect.flatMap((result) =>
        result.type === "full"
          ? Effect.succeed<BatchRecord>({ domain, scan: result.scan, score: score(result.scan) })
          : Effect.dieMessage(`job of ${domain} answered a ${result.type} scan`)
      ),
      Effect.catchAllCause((cause) =>
        Effect.as(Effect.logError(`batch: the cluster scan of ${domain} failed`, cause), {
          domain,
          error: Cause.pretty(cause).split("\n")[0] ?? "the cluster scan failed"
        } satisfies BatchRecord)
      )
    )) satisfies Executor<any>
