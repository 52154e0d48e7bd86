/**
 * Process entry of the batch scanner alone: `domain-audit batch <list> [options]` (docs/batch.md),
 * for launchers that start it directly. Exit status: 0 done, 1 fatal, 2 usage, 130 interrupted.
 */
import { runCli } from "../cli/Run.ts"

runCli(["batch", ...process.argv.slice(2)])
