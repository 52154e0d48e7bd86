/**
 * Which domains are monitored: what `HISTORY=monitored` keeps the history of. The monitors provide
 * the live lookup; without them no domain is monitored, and only scans appended with
 * `{ monitored: true }` (a monitor's own run) enter the history under that setting.
 */
import { Context, Effect, Layer } from "effect"

export class MonitoredDomains extends Context.Tag("MonitoredDomains")<
  MonitoredDomains,
  { readonly isMonitored: (domain: string) => Effect.Effect<boolean> }
>() {
  /** No domain is monitored. */
  static readonly None = Layer.succeed(MonitoredDomains, { isMonitored: () => Effect.succeed(false) })
}
