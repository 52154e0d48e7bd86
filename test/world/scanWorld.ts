/**
 * The net services over the world (its resolver, web servers and MTAs), with its settings: what
 * `runCheck`, `withFacts` and the composites in `src/scan/` need to run a check against the world.
 */
import { Layer } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { Smtp } from "../../src/net/Smtp.ts"
import { NameServers } from "../../src/net/NameServers.ts"
import { Web } from "../../src/net/Web.ts"
import { WorldConfig } from "./env.ts"

export const ScanWorld = Layer.mergeAll(Web.Default, Smtp.Default, NameServers.Default).pipe(
  Layer.provideMerge(Resolver.Default),
  Layer.provideMerge(AppConfig.Default),
  Layer.provide(WorldConfig)
)
