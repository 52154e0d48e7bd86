/**
 * The live network services a scan runs over (Resolver, Web, Smtp), as one layer: the server
 * (`Layers.ts`) and the batch scanner (`batch/`) build the same thing from here, so a scan from
 * either asks the world through the same doors with the same settings. Needs `AppConfig`.
 */
import { Layer } from "effect"
import { Resolver } from "../net/Resolver.ts"
import { Smtp } from "../net/Smtp.ts"
import { Web } from "../net/Web.ts"

export const ScanNetLive = Layer.merge(Web.Default, Smtp.Default).pipe(Layer.provideMerge(Resolver.Default))
