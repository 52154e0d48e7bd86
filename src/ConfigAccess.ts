/**
 * Who may do what (`Config.ts` spreads these into AppConfig; docs/access.md): the machine's own
 * administrator, API keys, and the bounds per owner.
 */
import { Config } from "effect"
import { int } from "./ConfigValues.ts"

export const accessSettings = {
  // loopback requests that name this machine act as admin (http/edge/LocalAdmin.ts); false: keys only
  localAdmin: Config.boolean("LOCAL_ADMIN").pipe(Config.withDefault(true)),
  // monitors one tenant (or the operator) may have at once (monitor/Monitors.ts)
  monitorsPerTenant: int("MONITORS_PER_TENANT", 1000)
}
