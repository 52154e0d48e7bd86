/**
 * Who may do what (`Config.ts` spreads these into AppConfig; docs/access.md): the machine's own
 * administrator, API keys, and the bounds per owner.
 */
import { Config } from "effect"
import { duration, int, ms } from "./ConfigValues.ts"

export const accessSettings = {
  // loopback requests that name this machine act as admin (http/edge/LocalAdmin.ts); false: keys only
  localAdmin: Config.boolean("LOCAL_ADMIN").pipe(Config.withDefault(true)),
  // monitors one tenant (or the operator) may have at once (monitor/Monitors.ts)
  monitorsPerTenant: int("MONITORS_PER_TENANT", 1000),
  // how often the usable API keys are read again for the rate limits (http/edge/KeyClients.ts)
  apiKeysRefreshMs: ms("API_KEYS_REFRESH_MS", 10_000),
  // how long a verified domain stays verified before its challenge is looked for again
  // (monitor/access/DomainClaim.ts)
  domainRecheckMs: duration("DOMAIN_RECHECK", "P1D")
}
