/** `domain-audit batch --cluster`: the domains submitted in chunks to the cluster of CLUSTER_DATABASE_URL (docs/cluster.md). */
import { Effect, Layer } from "effect"
import { AppConfig } from "../Config.ts"
import { runBatch } from "../batch/Batch.ts"
import type { BatchOptions } from "../batch/Cli.ts"
import { BatchChunksLive } from "../batch/ClusterChunks.ts"
import { batchId, onCluster } from "../batch/OnCluster.ts"
import { multiRunner } from "../jobs/Cluster.ts"
import { JobsLive } from "../jobs/DeepScans.ts"
import { MonitorWorkflowsOnCluster } from "../monitor/Monitors.ts"
import { ScanHistoryLive } from "../Layers.ts"
import { ScanNetLive } from "../scan/ScanLive.ts"
import { SqlLive } from "../store/Sql.ts"

/**
 * This process as a runner: the batch's chunks it submits (and scans, for the shards it holds), and
 * what every runner registers: the deep-scan jobs, the monitors' workflows (a monitor run on a shard
 * this runner holds runs here, its scan recorded in this process's database as every fresh scan is).
 */
const RunnerLive = Layer.mergeAll(BatchChunksLive, JobsLive, MonitorWorkflowsOnCluster).pipe(
  Layer.provide(ScanHistoryLive),
  Layer.provide(SqlLive),
  Layer.provide(ScanNetLive)
)

/** Fails with the reason when no cluster is configured. */
export const batchOnCluster = (options: BatchOptions) =>
  Effect.gen(function* () {
    if (!multiRunner(yield* AppConfig))
      return yield* Effect.fail({ message: "--cluster needs CLUSTER_DATABASE_URL (docs/cluster.md)" })
    return yield* runBatch(options, onCluster(batchId(options), options.concurrency)).pipe(
      Effect.provide(RunnerLive),
      Effect.scoped
    )
  })
