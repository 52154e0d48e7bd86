/**
 * What Ctrl-C prints: how many results were written, and the command that picks the run up where it
 * stopped (resuming reads the output file: docs/batch.md "Resuming"). The command is rebuilt from the
 * parsed options, so it is the same run whatever spelling or order the options were given in.
 */
import { readlinkSync, statSync } from "node:fs"
import type { BatchOptions } from "./Cli.ts"

/** Where stdin and stdout lead, when they are regular files (`< list.txt`, `> out.csv`). */
export interface StandardFiles {
  readonly stdin: string | undefined
  readonly stdout: string | undefined
}

/** The file behind a descriptor, on systems that show it (Linux's /proc); undefined for pipes and terminals. */
const fileOf = (fd: 0 | 1): string | undefined => {
  try {
    const path = readlinkSync(`/proc/self/fd/${fd}`)
    return path.startsWith("/") && statSync(path).isFile() ? path : undefined
  } catch {
    return undefined
  }
}

export const standardFiles = (): StandardFiles => ({ stdin: fileOf(0), stdout: fileOf(1) })

/** A word as a POSIX shell reads it back: bare when safe, else single-quoted. */
export const shellWord = (word: string): string =>
  /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`

/**
 * The command that resumes the run of `options`, or why there is none: results that went to a pipe
 * or a terminal cannot be read back. Results redirected to a file (`> out.csv`) are resumed by naming
 * that file with `--out`, which appends to it.
 */
export const resumeCommand = (
  options: BatchOptions,
  files: StandardFiles
): { readonly command: string } | { readonly cannot: string } => {
  const out = options.out ?? files.stdout
  if (out === undefined)
    return { cannot: "the results went to stdout, which cannot be resumed: name a file with --out" }
  const words = [
    "npx",
    "domain-audit",
    "batch",
    options.input,
    "--out",
    out,
    "--format",
    options.format,
    "--concurrency",
    String(options.concurrency),
    ...(options.rejects ? ["--rejects", options.rejects] : []),
    ...(options.quiet ? ["--quiet"] : []),
    ...(options.cluster ? ["--cluster"] : []),
    ...(options.compare ? ["--compare", options.compare] : []),
    ...(options.depth !== undefined && options.depth !== "full" ? ["--depth", options.depth] : [])
  ]
  const stdin =
    options.input !== "-"
      ? ""
      : files.stdin
        ? ` < ${shellWord(files.stdin)}`
        : "  # with the same list on stdin"
  return { command: words.map(shellWord).join(" ") + stdin }
}

/** The lines Ctrl-C prints: results written, then the resume command (or why there is none). */
export const interruptedText = (
  written: { readonly thisRun: number; readonly before: number },
  options: BatchOptions,
  files: StandardFiles
): string => {
  const resume = resumeCommand(options, files)
  const out = options.out ?? files.stdout
  const total = written.before > 0 && out ? ` (${written.before + written.thisRun} in ${out})` : ""
  return (
    `batch: interrupted: ${written.thisRun} results written${total}\n` +
    ("command" in resume ? `batch: resume with: ${resume.command}\n` : `batch: ${resume.cannot}\n`)
  )
}
