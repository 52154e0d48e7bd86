#!/usr/bin/env node
/**
 * `domain-audit`: rebuilds the bundle when a source is newer (scripts/build.mjs), then runs it in a
 * node whose heap is capped at MAX_HEAP_MB (default 384): under a cap V8 collects sooner, which keeps
 * a long batch or a busy server hundreds of MB smaller (docs/batch.md, "Memory and concurrency").
 * The cap must be given when node starts, hence a second process; signals are passed on to it and
 * its exit status is this one's. Commands: `domain-audit --help`.
 */
import { spawn } from "node:child_process"
import { constants } from "node:os"
import { build, CLI_BUNDLE, stale } from "../scripts/build.mjs"

if (stale()) await build()

const heapMb = process.env.MAX_HEAP_MB ?? "384"
const child = spawn(
  process.execPath,
  ["--enable-source-maps", `--max-old-space-size=${heapMb}`, CLI_BUNDLE, ...process.argv.slice(2)],
  { stdio: "inherit" }
)
// A Ctrl-C reaches both processes (one process group); a signal sent to this one alone must reach
// the command too. The command takes a repeated signal as one (src/cli/Run.ts).
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal))
child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)))
child.on("error", (e) => {
  process.stderr.write(`domain-audit: cannot start node: ${e.message}\n`)
  process.exit(1)
})
