/** Handlers of the email group. Endpoints not built yet answer 501 (each later issue replaces its own). */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.ts"
import { notImplemented } from "../api/Errors.ts"

export const EmailHandlers = HttpApiBuilder.group(Api, "email", (handlers) =>
  handlers
    .handle("check", () => Effect.fail(notImplemented))
    .handle("spf", () => Effect.fail(notImplemented))
    .handle("dkim", () => Effect.fail(notImplemented))
    .handle("dmarc", () => Effect.fail(notImplemented))
    .handle("bimi", () => Effect.fail(notImplemented))
    .handle("mtaSts", () => Effect.fail(notImplemented))
    .handle("smtpTls", () => Effect.fail(notImplemented))
    .handle("fcrdns", () => Effect.fail(notImplemented))
    .handle("blacklist", () => Effect.fail(notImplemented))
    .handle("senderRequirements", () => Effect.fail(notImplemented))
    .handle("spfGenerate", () => Effect.fail(notImplemented))
    .handle("dmarcGenerate", () => Effect.fail(notImplemented))
)
