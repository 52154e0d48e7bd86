/**
 * The batch scanner's command line, parsed (node's `util.parseArgs`: strict, so an unknown or
 * misspelt option is an error rather than silently ignored). Pure: argv in, options or a usage
 * error out.
 */
import { readArgv } from "../records/CommandLine.ts"
import { Either } from "effect"
import { type ScanDepth, ScanDepths } from "../kernel/Depth.ts"
import { type Format, Formats } from "./Record.ts"

export interface BatchOptions {
  /** The domain list: a file, or `-` for stdin. */
  readonly input: string
  /** The results file (appended to and resumed), or `undefined` for stdout. */
  readonly out: string | undefined
  readonly format: Format
  /** Scans in flight at once. */
  readonly concurrency: number
  /** A file listing the invalid lines (rewritten by each run), beside the report on stderr. */
  readonly rejects: string | undefined
  /** No progress and no per-line reports on stderr; the summary only. */
  readonly quiet: boolean
  /** Submit each domain to the cluster of CLUSTER_DATABASE_URL instead of scanning in this process. */
  readonly cluster: boolean
  /** An earlier JSONL output: each record gains the changes since that file's record of its domain. */
  readonly compare?: string | undefined
  /** How deep each domain is scanned (kernel/Depth.ts); `full` by default. */
  readonly depth?: ScanDepth
}

export const DEFAULT_CONCURRENCY = 50
export const MAX_CONCURRENCY = 10_000

export const USAGE = `usage: domain-audit batch <domains.txt | -> [options]
       (or: npm run -s batch -- <domains.txt | -> [options])

Scans every domain of a list (one a line; # comments, blank lines, URLs and duplicates are fine)
and writes one result per domain. Re-running with the same --out resumes where it stopped.

options:
  -o, --out FILE          results file, appended to and resumed (default: stdout, no resuming)
  -f, --format FORMAT     jsonl (one full scan and score per line) or csv (one flat row per domain);
                          default: csv when --out ends in .csv, else jsonl
  -c, --concurrency N     scans in flight at once, 1-${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})
      --rejects FILE      also list the invalid lines in FILE (line number, text, reason; tab-separated)
      --depth DEPTH       quick, standard or full (default): quick asks no TLS versions or cipher
                          suites (certificates only), standard only those of the mail servers;
                          what a depth leaves out is not checked, and its records and scores say so
  -q, --quiet             no progress and no per-line reports on stderr, only the summary
      --compare FILE      an earlier JSONL output: each record gains "changes", what changed since
                          FILE's record of the domain (null when it has none); JSONL only
      --cluster           submit each domain to the cluster of CLUSTER_DATABASE_URL (this process
                          joins it as one runner: set RUNNER_HOST/RUNNER_PORT; docs/cluster.md)
  -h, --help              this text

Settings (resolvers, timeouts, SMTP and web limits) come from the environment, as for the server:
see docs/configuration.md. Results alone go to stdout; progress, reports and the summary
to stderr. Ctrl-C stops the run and prints the command that resumes it. Exit status: 0 when the list
was processed (invalid lines and domains that could not be scanned are reported, not fatal), 1 on a
fatal error, 2 on a usage error, 130 when interrupted. docs/batch.md has the formats, the CSV
columns and the throughput figures.`

export type Parsed = { readonly _tag: "Help" } | { readonly _tag: "Run"; readonly options: BatchOptions }

export const parseCli = (argv: ReadonlyArray<string>): Either.Either<Parsed, string> => {
  const parsed = readArgv(argv, {
    out: { type: "string", short: "o" },
    format: { type: "string", short: "f" },
    concurrency: { type: "string", short: "c" },
    rejects: { type: "string" },
    quiet: { type: "boolean", short: "q" },
    cluster: { type: "boolean" },
    compare: { type: "string" },
    depth: { type: "string" }
  })
  if (Either.isLeft(parsed)) return Either.left(parsed.left)
  const { values, positionals } = parsed.right
  if (values.help) return Either.right({ _tag: "Help" })
  if (positionals.length !== 1)
    return Either.left(
      positionals.length === 0
        ? "name the domain list (a file, or - for stdin)"
        : `one domain list at a time; got ${positionals.length}: ${positionals.join(" ")}`
    )
  const format = values.format ?? (values.out?.toLowerCase().endsWith(".csv") ? "csv" : "jsonl")
  if (!(Formats as ReadonlyArray<string>).includes(format))
    return Either.left(`--format must be ${Formats.join(" or ")}; got '${format}'`)
  const concurrencyText = values.concurrency ?? String(DEFAULT_CONCURRENCY)
  const concurrency = /^\d+$/.test(concurrencyText) ? Number(concurrencyText) : NaN
  if (!(concurrency >= 1 && concurrency <= MAX_CONCURRENCY))
    return Either.left(
      `--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}; got '${concurrencyText}'`
    )
  if (values.out !== undefined && values.out === values.rejects)
    return Either.left("--out and --rejects must be different files")
  if (values.compare !== undefined && format !== "jsonl")
    return Either.left("--compare adds the changes to JSONL records: use --format jsonl")
  if (values.compare !== undefined && (values.compare === values.out || values.compare === "-"))
    return Either.left("--compare takes an earlier output file, not this run's output or stdin")
  if (values.out === "-") return Either.left("--out takes a file; leave it out to write to stdout")
  const depth = values.depth ?? "full"
  if (!(ScanDepths as ReadonlyArray<string>).includes(depth))
    return Either.left(`--depth must be ${ScanDepths.join(", ")}; got '${depth}'`)
  // The cluster's runners scan a chunk in full (its message carries no depth).
  if (depth !== "full" && values.cluster)
    return Either.left("--depth quick and standard run in this process: leave out --cluster")
  return Either.right({
    _tag: "Run",
    options: {
      input: positionals[0]!,
      out: values.out,
      format: format as Format,
      concurrency,
      rejects: values.rejects,
      quiet: values.quiet ?? false,
      cluster: values.cluster ?? false,
      compare: values.compare,
      depth: depth as ScanDepth
    }
  })
}
