/**
 * The cluster the scan jobs run on (@effect/cluster 0.60), chosen by `CLUSTER_DATABASE_URL`:
 *
 * - empty (the default): one process, `SingleRunner` over SQLite at `$DATA_DIR/cluster.sqlite`
 *   (runner storage in SQLite too: with the library's in-memory one, a runner built outside the
 *   HTTP app, as `scanOnCluster`'s test does, flapped between healthy and not and never ran its jobs).
 *   Messages and workflow state are durable (`SqlMessageStorage` has a SQLite dialect), so a job
 *   survives a restart of the service; no setup.
 * - a Postgres URL: this process is one runner of many. Runners register in the shared database
 *   (`SqlRunnerStorage`), hold their shards with Postgres advisory locks, and talk to each other
 *   over TCP (`NodeClusterSocket`) at `RUNNER_HOST:RUNNER_PORT`. A runner that dies loses its locks
 *   with its database connection; the others take its shards over and re-deliver its unfinished
 *   messages from storage (docs/cluster.md).
 *
 * The cluster's database is its own SqlClient, provided here and not exposed: the app's SQLite
 * (`store/Sql.ts`) stays per process.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { ClusterWorkflowEngine, RunnerAddress, ShardingConfig, SingleRunner } from "@effect/cluster"
import { NodeClusterSocket } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Duration, Effect, Layer, Logger, Option, Redacted } from "effect"
import { AppConfig, type Settings } from "../Config.ts"
import { ensureTable } from "./DeepScanStore.ts"

/** How long an idle entity is kept in memory (the reaper looks every 5 s at best). */
export const ENTITY_MAX_IDLE_MS = 5_000

/** Whether CLUSTER_DATABASE_URL asks for multi-runner mode. */
export const multiRunner = (config: Pick<Settings, "clusterDatabaseUrl">) =>
  Redacted.value(config.clusterDatabaseUrl).trim() !== ""

/** The sharding settings from AppConfig (not the library's env names, which collide with HOST and PORT). */
export const shardingConfig = (config: Settings): ShardingConfig.ShardingConfig["Type"] => {
  const address = RunnerAddress.make(config.runnerHost, config.runnerPort)
  return {
    ...ShardingConfig.defaults,
    runnerAddress: Option.some(address),
    runnerListenAddress: Option.some(
      RunnerAddress.make(
        config.runnerListenHost === "" ? config.runnerHost : config.runnerListenHost,
        config.runnerPort
      )
    ),
    shardsPerGroup: config.clusterShards,
    runnerHealthCheckInterval: Duration.millis(config.clusterHealthCheckMs),
    // A finished message is looked for in storage at this interval when its reply was not pushed.
    entityReplyPollInterval: Duration.millis(200),
    // An entity with no request in progress is dropped after this (the library's default is a
    // minute). A workflow that waits for a durable clock has none: its wake-up is a message in
    // storage, and the entity is built again from storage when it arrives. Held for a minute, the
    // suspended runs of 10,000 monitors (every run is an entity of its own) took the heap past a
    // 384 MB cap (docs/bench.md, "scripts/bench/monitors.ts").
    entityMaxIdleTime: Duration.millis(ENTITY_MAX_IDLE_MS)
  }
}

/** The cluster's own database: SQLite under DATA_DIR, or the shared Postgres. */
const clusterSql = (config: Settings): Layer.Layer<SqlClient.SqlClient, unknown> =>
  multiRunner(config)
    ? PgClient.layer({ url: config.clusterDatabaseUrl })
    : Layer.unwrapEffect(
        Effect.sync(() => {
          mkdirSync(config.dataDir, { recursive: true })
          return SqliteClient.layer({ filename: join(config.dataDir, "cluster.sqlite") })
        })
      )

/**
 * The cluster's database alone, without a runner: for commands that read or write its tables
 * (`domain-audit keys`) while the service runs.
 */
export const ClusterSqlLive = Layer.unwrapEffect(Effect.map(AppConfig, clusterSql)).pipe(Layer.orDie)

/** The two-key advisory lock that serialises runner starts (the library's shard locks use the one-key form). */
const START_LOCK = [0x646f6d61, 1] as const

/**
 * Build `layer` (this runner's storages and sharding) while holding a Postgres advisory lock.
 * First starts of several runners at once each run `CREATE TABLE IF NOT EXISTS`, ours and the
 * library's; Postgres does not serialise those (both may insert the table's row type: "duplicate key
 * value violates unique constraint pg_type_typname_nsp_index"), and the library's storage makes it
 * fatal. With the lock, a runner's build waits for the one in progress; the built layer lives on in
 * the outer scope after the lock is released.
 */
const startOneAtATime = <A, E, R>(layer: Layer.Layer<A, E, R>) =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const outer = yield* Effect.scope
      const built = yield* Effect.scoped(
        Effect.gen(function* () {
          const conn = yield* sql.reserve
          yield* conn.executeRaw("SELECT pg_advisory_lock($1, $2)", START_LOCK)
          return yield* Layer.buildWithScope(layer, outer).pipe(
            Effect.ensuring(Effect.ignore(conn.executeRaw("SELECT pg_advisory_unlock($1, $2)", START_LOCK)))
          )
        })
      )
      return Layer.succeedContext(built)
    })
  )

/** The workflow engine over `runner`, over `sql`. */
const withEngine = <A, E, R, S, E2>(
  runner: Layer.Layer<A, E, R>,
  sql: Layer.Layer<S, E2>,
  config: Settings
) =>
  // The cluster's fibers log on their own: hold them to LOG_LEVEL wherever the layer is built.
  ClusterWorkflowEngine.layer.pipe(
    Layer.provideMerge(runner),
    Layer.provideMerge(sql),
    Layer.provide(Logger.minimumLogLevel(config.logLevel))
  )

/**
 * Sharding, message storage, the workflow engine and the cluster's SqlClient (with the jobs table
 * created), for this process as a runner.
 */
export const ClusterLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => {
    const sharding = shardingConfig(config)
    if (!multiRunner(config)) {
      const runner = SingleRunner.layer({ shardingConfig: sharding, runnerStorage: "sql" })
      return withEngine(
        runner,
        Layer.effectDiscard(ensureTable).pipe(Layer.provideMerge(clusterSql(config))),
        config
      )
    }
    const runner = startOneAtATime(
      NodeClusterSocket.layer({ storage: "sql", shardingConfig: sharding }).pipe(
        Layer.provideMerge(Layer.effectDiscard(ensureTable))
      )
    )
    return withEngine(runner, clusterSql(config), config)
  })
).pipe(Layer.orDie)
