/**
 * The one way our commands read their argv (`domain-audit` and its subcommands, the batch scanner):
 * node's `parseArgs`, strict (an unknown option is an error), positionals allowed, `-h`/`--help`
 * always known. Pure: the error is the message to print above the usage, never a throw.
 */
import { parseArgs, type ParseArgsConfig } from "node:util"
import { Either } from "effect"

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig["options"]>

const HELP = { help: { type: "boolean", short: "h" } } as const

type Config<O extends ParseArgsOptionsConfig> = {
  args: Array<string>
  allowPositionals: true
  strict: true
  options: O & typeof HELP
}

/** What `argv` says against `options` and `--help`: the values by option and the positionals. */
export type ReadArgv<O extends ParseArgsOptionsConfig> = ReturnType<typeof parseArgs<Config<O>>>

/** `argv` read against `options` and `--help`, or why it cannot be. */
export const readArgv = <const O extends ParseArgsOptionsConfig>(
  argv: ReadonlyArray<string>,
  options: O
): Either.Either<ReadArgv<O>, string> => {
  const config: Config<O> = {
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { ...options, ...HELP }
  }
  try {
    return Either.right(parseArgs(config))
  } catch (e) {
    return Either.left(e instanceof Error ? e.message : String(e))
  }
}
