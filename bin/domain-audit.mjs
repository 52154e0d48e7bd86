#!/usr/bin/env node
/**
 * `domain-audit`: rebuilds the bundle when a source is newer (scripts/build.mjs), then runs it in a
 * node whose heap is capped at MAX_HEAP_MB (default 384): under a cap V8 collects sooner, which keeps
 * a long batch or a busy server hundreds of MB smaller (docs/batch.md, "Memory and concurrency").
 * The young generation is pinned at the 16 MB semi-spaces V8 11 (Node.js 20) gives such a heap:
 * Node.js 24's V8 (13.6) sizes it from the heap, 64 MB semi-spaces here, which took the
 * batch's peak RSS from ~500 to ~590 MB at 1,000 scans in flight for no less CPU (docs/bench.md).
 * glibc's malloc gets two arenas (MALLOC_ARENA_MAX=2, unless set): with one per thread that
 * allocates (node's main thread, V8's and libuv's workers, OpenSSL under them all) the batch held
 * 20-35 MB more at its peak on Node.js 24, for no CPU (docs/bench.md).
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
  [
    "--enable-source-maps",
    `--max-old-space-size=${heapMb}`,
    "--max-semi-space-size=16",
    CLI_BUNDLE,
    ...process.argv.slice(2)
  ],
  { stdio: "inherit", env: { MALLOC_ARENA_MAX: "2", ...process.env } }
)
// A Ctrl-C reaches both processes (one process group); a signal sent to this one alone must reach
// the command too. The command takes a repeated signal as one (src/cli/Run.ts).
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal))
child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)))
child.on("error", (e) => {
  process.stderr.write(`domain-audit: cannot start node: ${e.message}\n`)
  process.exit(1)
})
