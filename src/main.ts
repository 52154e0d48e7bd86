/** Process entry of the server alone (`domain-audit serve`): settings -> layers -> HTTP server, until SIGINT/SIGTERM. */
import { runCli } from "./cli/Run.ts"

runCli(["serve"])
