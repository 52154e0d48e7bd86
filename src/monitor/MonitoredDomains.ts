/**
 * Which domains are monitored, and which owned (monitored, or verified by a tenant): what
 * `HISTORY=monitored` and `HISTORY=owned` keep the history of. The monitors and the verified
 * domains provide the live lookups; without them no domain is either, and only scans appended with
 * `{ monitored: true }` (a monitor's own run) enter the history under those settings.
 */
import { Context, Effect, Layer } from "effect"

export class MonitoredDomains extends Context.Tag("MonitoredDomains")<
  MonitoredDomains,
  {
    readonly isMonitored: (domain: string) => Effect.Effect<boolean>
    /** Monitored, or verified by some tenant (docs/access.md "Verified domains"). */
    readonly isOwned: (domain: string) => Effect.Effect<boolean>
  }
>() {
  /** No domain is monitored or owned. */
  static readonly None = Layer.succeed(MonitoredDomains, {
    isMonitored: () => Effect.succeed(false),
    isOwned: () => Effect.succeed(false)
  })
}
