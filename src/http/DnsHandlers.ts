/** Handlers of the dns group. Endpoints not built yet answer 501 (each later issue replaces its own). */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.ts"
import { notImplemented } from "../api/Errors.ts"

export const DnsHandlers = HttpApiBuilder.group(Api, "dns", (handlers) =>
  handlers
    .handle("lookup", () => Effect.fail(notImplemented))
    .handle("dnssec", () => Effect.fail(notImplemented))
    .handle("propagation", () => Effect.fail(notImplemented))
    .handle("tlsa", () => Effect.fail(notImplemented))
    .handle("tlsaGenerate", () => Effect.fail(notImplemented))
)
