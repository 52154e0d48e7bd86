/** Handlers of the email group. Endpoints not built yet answer 501 (each later issue replaces its own). */
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Api } from "../Api.ts"
import { notImplemented } from "../api/Errors.ts"
import { Resolver } from "../net/Resolver.ts"
import { Smtp } from "../net/Smtp.ts"
import * as MailTransport from "./MailTransport.ts"

export const EmailHandlers = HttpApiBuilder.group(Api, "email", (handlers) =>
  handlers
    .handle("check", () => Effect.fail(notImplemented))
    .handle("spf", () => Effect.fail(notImplemented))
    .handle("dkim", () => Effect.fail(notImplemented))
    .handle("dmarc", () => Effect.fail(notImplemented))
    .handle("bimi", () => Effect.fail(notImplemented))
    .handle("mtaSts", () => Effect.fail(notImplemented))
    .handle("smtpTls", ({ urlParams }) => MailTransport.smtpTls(urlParams.domain))
    .handle("fcrdns", ({ request, urlParams }) => MailTransport.fcrdns(urlParams.domain, request))
    .handle("blacklist", ({ urlParams }) => MailTransport.blacklist(urlParams.domain))
    .handle("senderRequirements", ({ request, urlParams }) =>
      MailTransport.senderRequirements(urlParams.domain, request)
    )
    .handle("spfGenerate", () => Effect.fail(notImplemented))
    .handle("dmarcGenerate", () => Effect.fail(notImplemented))
).pipe(Layer.provide([Resolver.Default, Smtp.Default]))
