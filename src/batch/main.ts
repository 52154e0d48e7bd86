/**
 * `npm run batch -- domains.txt [options]`: the batch scanner's process entry (docs/batch.md).
 * argv -> options; settings -> the same live net layers the server builds (`scan/ScanLive.ts`);
 * then `runBatch`. Logs go to stderr: stdout may be the results.
 * Exit status: 0 done, 1 fatal (a file cannot be read or written, the output cannot be resumed),
 * 2 usage, 130 interrupted (Ctrl-C; the output stays resumable).
 */
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Either, Exit, Layer, Logger } from "effect"
import { AppConfig } from "../Config.ts"
import { multiRunner } from "../jobs/Cluster.ts"
import { JobsLive } from "../jobs/DeepScans.ts"
import { ScanNetLive } from "../scan/ScanLive.ts"
import { inProcess, runBatch } from "./Batch.ts"
import { parseCli, USAGE } from "./Cli.ts"
import { batchId, onCluster } from "./OnCluster.ts"

class UsageError {
  readonly _tag = "UsageError"
  constructor(readonly message: string) {}
}

const main = Effect.gen(function* () {
  const parsed = parseCli(process.argv.slice(2))
  if (Either.isLeft(parsed)) return yield* Effect.fail(new UsageError(parsed.left))
  if (parsed.right._tag === "Help") return void process.stdout.write(USAGE + "\n")
  const { options } = parsed.right
  const config = yield* AppConfig
  if (!options.cluster)
    return yield* runBatch(options, inProcess).pipe(
      Effect.provide(ScanNetLive),
      Logger.withMinimumLogLevel(config.logLevel)
    )
  if (!multiRunner(config))
    return yield* Effect.fail(new UsageError("--cluster needs CLUSTER_DATABASE_URL (docs/cluster.md)"))
  yield* runBatch(options, onCluster(batchId(options))).pipe(
    Effect.provide(JobsLive.pipe(Layer.provide(ScanNetLive))),
    Effect.scoped,
    Logger.withMinimumLogLevel(config.logLevel)
  )
})

const exitCode = (exit: Exit.Exit<unknown, { readonly _tag: string; readonly message: string }>): number => {
  if (Exit.isSuccess(exit)) return 0
  if (Cause.isInterruptedOnly(exit.cause)) return 130
  const failure = Cause.failureOption(exit.cause)
  if (failure._tag === "Some") {
    process.stderr.write(
      failure.value._tag === "UsageError"
        ? `batch: ${failure.value.message}\n\n${USAGE}\n`
        : `batch: ${failure.value.message}\n`
    )
    return failure.value._tag === "UsageError" ? 2 : 1
  }
  process.stderr.write(`batch: ${Cause.pretty(exit.cause)}\n`)
  return 1
}

main.pipe(
  Effect.provide(
    Layer.merge(
      AppConfig.Default,
      Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger))
    )
  ),
  (program) =>
    NodeRuntime.runMain(program, {
      disableErrorReporting: true,
      teardown: (exit, onExit) =>
        onExit(exitCode(exit as Exit.Exit<unknown, { _tag: string; message: string }>))
    })
)
