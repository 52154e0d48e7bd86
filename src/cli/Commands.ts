/**
 * The `domain-audit` command line, parsed: a subcommand (`serve`, `scan`, `preview`, `batch`, `verify`) and its
 * options.
 * Pure: argv in, a command or a usage error out. Options are read by node's `util.parseArgs`
 * (strict: a misspelt option is an error, not silently ignored), which reads a lone `-` as the
 * positional it is (stdin), wherever the options stand.
 */
import { Either } from "effect"
import { readArgv } from "../records/CommandLine.ts"
import { type Domain, normaliseDomain } from "../records/DomainName.ts"
import { type BatchOptions, parseCli as parseBatch, USAGE as BATCH_USAGE } from "../batch/Cli.ts"
import { KEYS_USAGE, type KeysCommand, parseKeys } from "./KeysCommand.ts"
import {
  parseRecordLine,
  parseRemovalLine,
  type PreviewRecordInput,
  type PreviewRemovalInput
} from "../composite/PreviewInput.ts"

export const USAGE = `usage: domain-audit <command> [options]

How well is this domain protected? DNS, DNSSEC, email authentication, mail transport and web
security, scored.

commands:
  serve                     run the HTTP API (http://HOST:PORT/api; settings from the environment)
  scan <domain> [--json]    scan one domain and print its grade, categories and top issues
                            (--json: the same JSON as POST /api/scan)
  preview <domain> --record 'name TYPE value' ... [--remove 'name TYPE'] [--json]
                            scan the domain as if the records were published, beside
                            its live scan (docs/preview.md)
  batch <list | -> [opts]   scan a list of domains into JSONL or CSV, resumable
  keys <create|list|revoke|rotate> API keys for the HTTP API (docs/access.md)
  verify <file | URL | ->   check a report snapshot's content hash, or a history export's chain,
                            and the signature of either

Run 'domain-audit <command> --help' for a command's options. Settings (resolvers, timeouts,
limits) come from the environment: docs/configuration.md.`

export const SERVE_USAGE = `usage: domain-audit serve

Runs the HTTP API until SIGINT or SIGTERM: every endpoint under /api, the OpenAPI document at
/api/openapi.json and its rendering at /api/docs. HOST, PORT and every other setting come from the
environment (docs/configuration.md). 'npm start' runs this.`

export const SCAN_USAGE = `usage: domain-audit scan <domain> [--json]

Scans one domain with every check (as POST /api/scan does, without the service's cache) and prints
a summary: grade, percentage, each category, the most severe issues, and what could not be judged.
The domain is read as the API reads it: a URL gives its host, IDNs become A-labels.

options:
  --json        print the score as JSON, the same document POST /api/scan answers
  -h, --help    this text

Exit status: 0 when the domain was scanned (whatever its grade), 1 when the scan could not run,
2 on a usage error or a domain that cannot be scanned (an IP address, a single label...).`

export const PREVIEW_USAGE = `usage: domain-audit preview <domain> --record 'name TYPE value' ... [--remove 'name TYPE' ...] [--json]

Scans the domain as it will be once the records are published (as POST /api/scan/preview does):
each record replaces the live RRset of its name and type, each --remove deletes one, everything else
is read live. Prints the previewed grade beside the live one and what changes (docs/preview.md).
Nothing is published and nothing is stored.

options:
  --record <r>  a record as 'name TYPE value' ('@' is the domain), repeatable (at most 50)
  --remove <r>  an RRset to remove as 'name TYPE', repeatable
  --json        print the JSON POST /api/scan/preview answers
  -h, --help    this text

Exit status: 0 when the domain was previewed (whatever its grade), 1 when the scan could not run,
2 on a usage error, a domain that cannot be scanned or a record that cannot be previewed.`

export const VERIFY_USAGE = `usage: domain-audit verify <snapshot.json | URL | -> [--hash sha256:...] [--key jwks.json | URL]

Checks a report snapshot (GET /api/report/snapshot/{id}, saved or by URL) offline: its content
without \`evidence\`, as RFC 8785 canonical JSON, must hash (SHA-256) to its contentHash, or to
--hash, the hash you hold from elsewhere (the snapshot page, the PDF's footer). A history evidence
export (GET /api/history/{domain}/evidence) is checked as a hash chain: entries in sequence, each
naming the one before, each hashing to its own hash.

A signed copy's signature (Ed25519, JWS with detached payload) is checked too: with --key, under the
issuer's published keys (https://<service>/.well-known/domain-audit-keys.json), which proves who
issued it, and a copy that is unsigned or signed by another key fails; without, under the key the
copy carries, which proves it is unchanged since it was signed but not who signed it.

options:
  --hash <h>    the hash to check against instead of the snapshot's own
  --key <k>     a JWK Set (file or URL) whose keys the copy must be signed by
  -h, --help    this text

Exit status: 0 verified, 1 not verified (the reason on stdout) or not readable, 2 a usage error.`

export type Command =
  | { readonly _tag: "Help"; readonly text: string }
  | { readonly _tag: "Serve" }
  | { readonly _tag: "Scan"; readonly domain: Domain; readonly json: boolean }
  | {
      readonly _tag: "Preview"
      readonly domain: Domain
      readonly records: ReadonlyArray<PreviewRecordInput>
      readonly remove: ReadonlyArray<typeof PreviewRemovalInput.Type>
      readonly json: boolean
    }
  | { readonly _tag: "Batch"; readonly options: BatchOptions }
  | { readonly _tag: "Keys"; readonly command: Exclude<KeysCommand, { action: "help" }> }
  | {
      readonly _tag: "Verify"
      readonly source: string
      readonly hash: string | undefined
      readonly key: string | undefined
    }

/** A usage error: the message and the usage text of the command it concerns. */
export interface UsageProblem {
  readonly message: string
  readonly usage: string
}

const problem = (message: string, usage: string): Either.Either<Command, UsageProblem> =>
  Either.left({ message, usage })

type Read = {
  readonly values: Record<string, string | boolean | undefined>
  readonly positionals: Array<string>
}

/** `argv` read against `options` (booleans only), or the usage error of an unknown option. */
const strict = (
  argv: ReadonlyArray<string>,
  flags: ReadonlyArray<string>,
  usage: string
): Read | UsageProblem => {
  const options = Object.fromEntries(flags.map((flag) => [flag, { type: "boolean" as const }]))
  return Either.getOrElse(readArgv(argv, options), (message): Read | UsageProblem => ({ message, usage }))
}

const parseServe = (argv: ReadonlyArray<string>): Either.Either<Command, UsageProblem> => {
  const read = strict(argv, [], SERVE_USAGE)
  if ("message" in read) return Either.left(read)
  if (read.values.help) return Either.right({ _tag: "Help", text: SERVE_USAGE })
  return read.positionals.length > 0
    ? problem(`serve takes no arguments; got ${read.positionals.join(" ")}`, SERVE_USAGE)
    : Either.right({ _tag: "Serve" })
}

const parseScan = (argv: ReadonlyArray<string>): Either.Either<Command, UsageProblem> => {
  const read = strict(argv, ["json"], SCAN_USAGE)
  if ("message" in read) return Either.left(read)
  const { values, positionals } = read
  if (values.help) return Either.right({ _tag: "Help", text: SCAN_USAGE })
  if (positionals.length !== 1)
    return problem(
      positionals.length === 0
        ? "name the domain to scan"
        : `one domain at a time; got ${positionals.length}: ${positionals.join(" ")}`,
      SCAN_USAGE
    )
  return Either.match(normaliseDomain(positionals[0]!), {
    onLeft: (reason) => problem(reason, SCAN_USAGE),
    onRight: (domain) => Either.right({ _tag: "Scan", domain, json: values.json === true })
  })
}

const parsePreview = (argv: ReadonlyArray<string>): Either.Either<Command, UsageProblem> => {
  const read = readArgv(argv, {
    record: { type: "string", multiple: true },
    remove: { type: "string", multiple: true },
    json: { type: "boolean" }
  })
  if (Either.isLeft(read)) return problem(read.left, PREVIEW_USAGE)
  const { values, positionals } = read.right
  if (values.help) return Either.right({ _tag: "Help", text: PREVIEW_USAGE })
  if (positionals.length !== 1) return problem("name one domain to preview", PREVIEW_USAGE)
  const records = Either.all((values.record ?? []).map(parseRecordLine))
  const remove = Either.all((values.remove ?? []).map(parseRemovalLine))
  if (Either.isLeft(records)) return problem(records.left, PREVIEW_USAGE)
  if (Either.isLeft(remove)) return problem(remove.left, PREVIEW_USAGE)
  if (records.right.length === 0 && remove.right.length === 0)
    return problem("give at least one --record or --remove", PREVIEW_USAGE)
  return Either.match(normaliseDomain(positionals[0]!), {
    onLeft: (reason) => problem(reason, PREVIEW_USAGE),
    onRight: (domain) =>
      Either.right({
        _tag: "Preview",
        domain,
        records: records.right,
        remove: remove.right,
        json: values.json === true
      })
  })
}

const parseVerify = (argv: ReadonlyArray<string>): Either.Either<Command, UsageProblem> => {
  const parsed = readArgv(argv, { hash: { type: "string" }, key: { type: "string" } })
  if (Either.isLeft(parsed)) return problem(parsed.left, VERIFY_USAGE)
  const read = parsed.right
  if (read.values.help) return Either.right({ _tag: "Help", text: VERIFY_USAGE })
  if (read.positionals.length !== 1)
    return problem("name one snapshot: a file, a URL, or - for stdin", VERIFY_USAGE)
  const hash = read.values.hash
  if (hash !== undefined && !/^sha256:[0-9a-f]{64}$/.test(hash))
    return problem("--hash takes sha256: and 64 lower-case hex digits", VERIFY_USAGE)
  return Either.right({ _tag: "Verify", source: read.positionals[0]!, hash, key: read.values.key })
}

const parseBatchCommand = (argv: ReadonlyArray<string>): Either.Either<Command, UsageProblem> =>
  Either.match(parseBatch(argv), {
    onLeft: (message) => problem(message, BATCH_USAGE),
    onRight: (parsed) =>
      Either.right(
        parsed._tag === "Help"
          ? { _tag: "Help", text: BATCH_USAGE }
          : { _tag: "Batch", options: parsed.options }
      )
  })

/** The command of `argv` (without node and the script). */
export const parseCommand = (argv: ReadonlyArray<string>): Either.Either<Command, UsageProblem> => {
  const [name, ...rest] = argv
  switch (name) {
    case "serve":
      return parseServe(rest)
    case "scan":
      return parseScan(rest)
    case "preview":
      return parsePreview(rest)
    case "batch":
      return parseBatchCommand(rest)
    case "keys":
      return Either.match(parseKeys(rest), {
        onLeft: (message) => problem(message, KEYS_USAGE),
        onRight: (command) =>
          Either.right(
            command.action === "help" ? { _tag: "Help", text: KEYS_USAGE } : { _tag: "Keys", command }
          )
      })
    case "verify":
      return parseVerify(rest)
    case "help":
    case "--help":
    case "-h":
      return Either.right({ _tag: "Help", text: USAGE })
    case undefined:
      return problem("name a command", USAGE)
    default:
      return problem(`unknown command '${name}'`, USAGE)
  }
}
