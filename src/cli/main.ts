/**
 * `domain-audit <command>`: the command line's process entry, bundled as `dist/cli.mjs` and started
 * by `bin/domain-audit.mjs` (which sets the heap cap). Commands: `src/cli/Commands.ts`.
 */
import { runCli } from "./Run.ts"

runCli(process.argv.slice(2))
