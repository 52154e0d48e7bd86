/**
 * Runs a `domain-audit` command as the process: settings -> the layers it needs -> its work, with the
 * exit status a shell can act on: 0 done, 1 a fatal error, 2 a usage error, 130 interrupted (Ctrl-C).
 * `serve` logs as the server always has; `scan` and `batch` log to stderr, so that stdout carries
 * only their results (a summary, JSON, or the CSV/JSONL records).
 */
import type { Domain } from "../records/DomainName.ts"
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Either, Exit, Logger, Schema } from "effect"
import { AppConfig } from "../Config.ts"
import { inProcess, inProcessAt, runBatch } from "../batch/Batch.ts"
import { isFailure } from "../batch/Record.ts"
import type { BatchOptions } from "../batch/Cli.ts"
import { ScanNetLive } from "../scan/ScanLive.ts"
import { ScanScore } from "../score/Score.ts"
import { type Command, parseCommand, PREVIEW_USAGE } from "./Commands.ts"
import { PreviewScore, previewAgainst } from "../composite/Preview.ts"
import { scan } from "../scan/Scanner.ts"
import { previewSummary } from "./PreviewSummary.ts"
import { scanSummary } from "./ScanSummary.ts"
import { verifyDocument } from "./Verify.ts"
import { keysOf } from "../report/VerifySignature.ts"
import { downloadText } from "../net/Download.ts"
import { readFile } from "node:fs/promises"

/** The command line was wrong: exit 2, with the command's usage. */
class UsageError {
  readonly _tag = "UsageError"
  constructor(
    readonly message: string,
    readonly usage: string
  ) {}
}

/** The work could not be done: exit 1. */
class CommandError {
  readonly _tag = "CommandError"
  constructor(readonly message: string) {}
}

/**
 * The server and the cluster are loaded only by the commands that use them (esbuild splits them
 * into chunks of their own): the HTTP API's modules cost a process ~1 s of CPU and ~95 MB at start,
 * the cluster's ~45 MB more, which a `scan` or an in-process `batch` has no use for.
 */
const serve = Effect.flatMap(
  Effect.promise(() => import("./Serve.ts")),
  (m) => m.serve
)

const encodeScore = Schema.encodeSync(ScanScore)

/** One domain scanned and scored here, printed as a summary or as POST /scan's JSON. */
const scanOne = (domain: Domain, json: boolean) =>
  Effect.gen(function* () {
    const record = yield* inProcess(domain).pipe(Effect.provide(ScanNetLive))
    if (isFailure(record))
      return yield* Effect.fail(new CommandError(`the scan could not run: ${record.error}`))
    process.stdout.write(
      json
        ? JSON.stringify(encodeScore(record.score), null, 2) + "\n"
        : scanSummary(record, record.score.unscannable)
    )
  })

const encodePreview = Schema.encodeSync(PreviewScore)

/** One domain previewed with its changes here, beside its live scan, printed as a summary or JSON. */
const previewOne = (command: Extract<Command, { _tag: "Preview" }>) =>
  previewAgainst(
    command.domain,
    { records: command.records, remove: command.remove },
    [],
    scan(command.domain)
  ).pipe(
    Effect.map(({ score }) =>
      process.stdout.write(
        command.json
          ? JSON.stringify(encodePreview(score), null, 2) + "\n"
          : previewSummary(command.domain, score)
      )
    ),
    Effect.catchTag("PreviewRefused", (e) => Effect.fail(new UsageError(e.message, PREVIEW_USAGE))),
    Effect.provide(ScanNetLive)
  )

/** The document to verify: a URL fetched, `-` from stdin, else a file. */
const readSource = (source: string) =>
  /^https?:\/\//i.test(source)
    ? Effect.flatMap(AppConfig, (config) => downloadText(source, config.requestTimeoutMs))
    : Effect.tryPromise({
        try: async () => {
          if (source !== "-") return await readFile(source, "utf8")
          let text = ""
          for await (const chunk of process.stdin) text += String(chunk)
          return text
        },
        catch: (e) =>
          new CommandError(`${source} cannot be read: ${e instanceof Error ? e.message : String(e)}`)
      })

/** The JWK Set of `--key` (a file or a URL), read like the document. */
const readKeys = (source: string) =>
  Effect.gen(function* () {
    const text = yield* readSource(source)
    const keys = keysOf(
      yield* Effect.try({ try: () => JSON.parse(text) as unknown, catch: () => undefined }).pipe(
        Effect.orElseSucceed(() => undefined)
      )
    )
    if (keys === undefined)
      return yield* Effect.fail(new CommandError(`${source} is not a JWK Set (RFC 7517: {"keys": [...]})`))
    return keys
  })

/** A snapshot or a history export checked offline: 0 verified, 1 not (or not readable). */
const verify = (source: string, hash: string | undefined, key: string | undefined) =>
  Effect.gen(function* () {
    const keys = key === undefined ? undefined : yield* readKeys(key)
    const text = yield* readSource(source)
    const document = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: () => new CommandError(`${source} is not JSON`)
    })
    const verdict = verifyDocument(document, hash, keys)
    process.stdout.write(verdict.lines.join("\n") + "\n")
    if (!verdict.valid) return yield* Effect.fail(new CommandError("not verified"))
  })

const batch = (options: BatchOptions) =>
  Effect.gen(function* () {
    if (!options.cluster)
      return yield* runBatch(options, inProcessAt(options.depth ?? "full")).pipe(Effect.provide(ScanNetLive))
    const { batchOnCluster } = yield* Effect.promise(() => import("./ClusterBatch.ts"))
    return yield* batchOnCluster(options)
  })

/** Logs on stderr as logfmt, at LOG_LEVEL. */
const onStderr = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.flatMap(AppConfig, (config) => Logger.withMinimumLogLevel(self, config.logLevel)).pipe(
    Effect.provide(Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger)))
  )

const commandEffect = (command: Command): Effect.Effect<unknown, unknown, AppConfig> => {
  switch (command._tag) {
    case "Help":
      return Effect.sync(() => void process.stdout.write(command.text + "\n"))
    case "Serve":
      return serve
    case "Scan":
      return onStderr(scanOne(command.domain, command.json))
    case "Preview":
      return onStderr(previewOne(command))
    case "Batch":
      return onStderr(batch(command.options))
    case "Keys":
      return onStderr(
        Effect.flatMap(
          Effect.promise(() => import("./Keys.ts")),
          (m) => m.runKeys(command.command)
        )
      )
    case "Verify":
      return onStderr(verify(command.source, command.hash, command.key))
  }
}

const exitCode = (exit: Exit.Exit<unknown, unknown>, interruptedCode: number): number => {
  if (Exit.isSuccess(exit)) return 0
  if (Cause.isInterruptedOnly(exit.cause)) return interruptedCode
  const failure = Cause.failureOption(exit.cause)
  if (failure._tag === "None") {
    process.stderr.write(`domain-audit: ${Cause.pretty(exit.cause)}\n`)
    return 1
  }
  const error = failure.value
  if (error instanceof UsageError) {
    process.stderr.write(`domain-audit: ${error.message}\n\n${error.usage}\n`)
    return 2
  }
  // The batch's file errors and ours carry a message; a setting that cannot be read (ConfigError)
  // names it in its text.
  process.stderr.write(`domain-audit: ${describeFailure(error)}\n`)
  return 1
}

/**
 * What a failure says, or what its cause says when its own message is empty: the platform's
 * ServeError carries only a cause (a port in use: "listen EADDRINUSE: address already in use ...").
 */
export const describeFailure = (error: unknown): string => {
  const { message, cause } = error as { readonly message?: unknown; readonly cause?: unknown }
  if (typeof message === "string" && message !== "") return message
  if (cause instanceof Error && cause.message !== "") return cause.message
  return String(error)
}

/**
 * One Ctrl-C can arrive two or three times: the terminal signals the whole process group, and npm
 * and the launcher (bin/domain-audit.mjs) pass the signal on to their child as well. The first one
 * stops the command (`runMain` interrupts it, and a batch says how to resume); copies within a second
 * are that same keypress; a signal after that is a second Ctrl-C: quit at once (a batch's output
 * stays resumable: a torn last record is cut off by the next run).
 */
const ECHO_MS = 1000
const takeRepeatedSignals = () => {
  let firstMs: number | undefined
  const onSignal = () => {
    const now = Date.now()
    if (firstMs === undefined) firstMs = now
    else if (now - firstMs > ECHO_MS) process.exit(130)
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
}

/** Runs the command of `argv` (without node and the script) as this process, then exits. */
export const runCli = (argv: ReadonlyArray<string>): void => {
  takeRepeatedSignals()
  const parsed = parseCommand(argv)
  const program: Effect.Effect<unknown, unknown> = Either.match(parsed, {
    onLeft: (p) => Effect.fail(new UsageError(p.message, p.usage)),
    onRight: (command) => Effect.provide(commandEffect(command), AppConfig.Default)
  })
  // The server ends 0 when stopped, as a service should; a stopped batch or scan is not done: 130.
  const interruptedCode = Either.isRight(parsed) && parsed.right._tag === "Serve" ? 0 : 130
  NodeRuntime.runMain(program, {
    disableErrorReporting: true,
    teardown: (exit, onExit) => onExit(exitCode(exit, interruptedCode))
  })
}
