/** `domain-audit batch --cluster`: each domain submitted to the cluster of CLUSTER_DATABASE_URL (docs/cluster.md). */
import { Effect, Layer } from "effect"
import { AppConfig } from "../Config.ts"
import { runBatch } from "../batch/Batch.ts"
import type { BatchOptions } from "../batch/Cli.ts"
import { batchId, onCluster } from "../batch/OnCluster.ts"
import { multiRunner } from "../jobs/Cluster.ts"
import { JobsLive } from "../jobs/DeepScans.ts"
import { ScanNetLive } from "../scan/ScanLive.ts"

/** Fails with the reason when no cluster is configured. */
export const batchOnCluster = (options: BatchOptions) =>
  Effect.gen(function* () {
    if (!multiRunner(yield* AppConfig))
      return yield* Effect.fail({ message: "--cluster needs CLUSTER_DATABASE_URL (docs/cluster.md)" })
    return yield* runBatch(options, onCluster(batchId(options))).pipe(
      Effect.provide(JobsLive.pipe(Layer.provide(ScanNetLive))),
      Effect.scoped
    )
  })
