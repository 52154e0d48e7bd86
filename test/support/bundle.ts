/**
 * The service and the command line as the product runs them: the esbuild bundle in dist/
 * (scripts/build.mjs, what `npm start` and `domain-audit` run), built by the suite's global setup
 * when a source is newer (test/world/globalSetup.ts). A child process started from the bundle takes
 * about half the CPU to start of one that compiles src/ through tsx as it loads (3.5 s against
 * 6.2 s on the two-core machine), and the suite starts dozens of them.
 */
import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../", import.meta.url))

/** node's arguments that start the server (`domain-audit serve` without the heap cap's wrapper). */
export const SERVER = ["--enable-source-maps", join(root, "dist/main.mjs")]

/** node's arguments that start the command line (`domain-audit` without the heap cap's wrapper). */
export const CLI = ["--enable-source-maps", join(root, "dist/cli/main.mjs")]

/** Rebuilds dist/ when a source is newer than it (scripts/build.mjs decides; well under a second otherwise). */
export const buildBundle = () =>
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], {
    cwd: root,
    stdio: "inherit",
    timeout: 120_000
  })
