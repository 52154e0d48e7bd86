/**
 * Checks under test: run a check (or a scan) over fakes of the three net services, so a unit test
 * drives it exactly as a scan does, through Facts.
 * - `zone`: DNS answers (see `Resolver.Test`'s FakeZone); absent names are NXDOMAIN/NODATA.
 * - `web`: answers per URL (see `Web.Test`); by default every fetch fails to connect.
 * - `probes`: SMTP probes keyed `host|address` (see `Smtp.Test`); others are unreachable.
 * - `env`: settings (see `AppConfig`).
 */
import { ConfigProvider, Effect, Layer } from "effect"
import type { AnyCheck, ResultOf } from "../../src/kernel/Check.ts"
import { AppConfig } from "../../src/Config.ts"
import type { FakeZone } from "../../src/net/Resolver.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { Smtp, type SmtpProbe } from "../../src/net/Smtp.ts"
import { Web } from "../../src/net/Web.ts"
import { webError } from "../../src/net/WebTypes.ts"
import { runCheck } from "../../src/scan/Scanner.ts"
import { domain as toDomain } from "../support/domain.ts"

export interface FakeNet {
  readonly zone?: FakeZone
  readonly web?: Parameters<typeof Web.Test>[0]
  readonly probes?: Record<string, SmtpProbe>
  readonly env?: Record<string, string>
}

const unreachable: Parameters<typeof Web.Test>[0] = (url) => webError(url, "connect", "no such test site")

export const fakeNet = (net: FakeNet = {}) =>
  Layer.mergeAll(
    Resolver.Test(net.zone ?? {}),
    Web.Test(net.web ?? unreachable),
    Smtp.Test(net.probes ?? {})
  ).pipe(
    Layer.provideMerge(AppConfig.Default),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(net.env ?? {})))))
  )

/** The check's result for `domain` over the fakes. */
export const runFake = <C extends AnyCheck>(
  check: C,
  domain: string,
  net: FakeNet = {}
): Effect.Effect<ResultOf<C>> =>
  runCheck(check, toDomain(domain)).pipe(Effect.provide(fakeNet(net)), Effect.orDie)
