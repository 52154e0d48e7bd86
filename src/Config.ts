/**
 * AppConfig: every setting of the service, composed from the areas' modules beside this one
 * (`Config<Area>.ts`), each setting with its environment name and its default. Nothing else reads
 * the environment. docs/configuration.md's table mirrors these modules.
 */
import { Config, Effect } from "effect"
import { accessSettings } from "./ConfigAccess.ts"
import { dependencySettings } from "./ConfigDependencies.ts"
import { dnsSettings } from "./ConfigDns.ts"
import { httpServerSettings } from "./ConfigHttp.ts"
import { mailSettings } from "./ConfigMail.ts"
import { monitorSettings } from "./ConfigMonitor.ts"
import { operationsSettings } from "./ConfigOperations.ts"
import { scaleSettings } from "./ConfigScale.ts"
import { list } from "./ConfigValues.ts"
import { webSettings } from "./ConfigWeb.ts"

export { type DnsblZone, parseUpstream, type PropagationResolver, type Upstream } from "./ConfigDns.ts"
export { isCidrText, parsePorts } from "./ConfigValues.ts"

/** Every setting, read from the environment (or a test's ConfigProvider). */
export const settings = Config.all({
  ...httpServerSettings, // the HTTP server, its limits and admission (ConfigHttp.ts)
  // storage
  dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("./data")),
  ...dnsSettings, // resolvers, propagation, blocklists (ConfigDns.ts)
  // outbound policy and trust
  allowTargets: list("ALLOW_TARGETS", ""),
  extraCaFile: Config.string("EXTRA_CA_FILE").pipe(Config.withDefault("")),
  ...mailSettings, // SMTP probe, message debugger, reports in (ConfigMail.ts)
  ...webSettings, // HTTPS client, CSP crawler (ConfigWeb.ts)
  ...scaleSettings, // scans, deep scans, cluster, politeness (ConfigScale.ts)
  ...monitorSettings, // snapshots, history, monitors and alerts (ConfigMonitor.ts)
  ...accessSettings, // local admin, API keys, bounds per owner (ConfigAccess.ts, docs/access.md)
  ...operationsSettings, // logs, metrics, traces, shutdown, the model (ConfigOperations.ts)
  ...dependencySettings // name servers, CAA, RPKI and RDAP (ConfigDependencies.ts, docs/dependencies.md)
})

export type Settings = Config.Config.Success<typeof settings>

/** The service every part of the app reads its settings from. */
export class AppConfig extends Effect.Service<AppConfig>()("AppConfig", {
  effect: settings
}) {}
