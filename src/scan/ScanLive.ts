/**
 * The live network services a scan runs over (Resolver, Web, Smtp, NameServers, Rdap), as one layer: the server
 * (`Layers.ts`), the batch scanner (`batch/`) and the library (`lib/`) build the same thing from
 * here, so a scan from any of them asks the world through the same doors with the same settings.
 * Needs `AppConfig`.
 */
import { Layer } from "effect"
import type { ConfigError } from "effect/ConfigError"
import type { AppConfig } from "../Config.ts"
import { NameServers } from "../net/NameServers.ts"
import { Rdap } from "../net/Rdap.ts"
import { Resolver } from "../net/Resolver.ts"
import { RpkiVrps } from "../net/RpkiVrps.ts"
import { Smtp } from "../net/Smtp.ts"
import { Web } from "../net/Web.ts"

/**
 * The live HTTPS client, MX prober and RDAP client over `resolver`, and that resolver: they ask it
 * for addresses, so every DNS question of a scan goes through the one resolver given. The RPKI
 * payloads (`RPKI_VRPS`) and the RDAP bootstrap (`RDAP_BOOTSTRAP`) are read through that client
 * when their source is a URL.
 */
export const netLayer = <E, R>(
  resolver: Layer.Layer<Resolver, E, R>
): Layer.Layer<Resolver | Web | Smtp | RpkiVrps | NameServers | Rdap, E | ConfigError, R | AppConfig> =>
  Layer.mergeAll(RpkiVrps.Default, Smtp.Default, NameServers.Default, Rdap.Default).pipe(
    Layer.provideMerge(Web.Default),
    Layer.provideMerge(resolver)
  )

export const ScanNetLive = netLayer(Resolver.Default)
