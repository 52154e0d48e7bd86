/**
 * Handler bodies of the mail-transport endpoints (GET /email/smtp-tls, /email/fcrdns,
 * /email/blacklist, /email/sender-requirements), kept apart so the email group's handler file
 * only wires them. A failed MX lookup is the spec's 500 "upstream resolver problem"; anything
 * narrower (one server stalled, one list refused) stays inside the result as `unknown`.
 */
import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { InternalError } from "../api/Errors.ts"
import * as Blocklist from "../checks/blocklist/Blocklist.ts"
import * as Fcrdns from "../checks/fcrdns/Fcrdns.ts"
import * as SenderRequirements from "../checks/sender/SenderRequirements.ts"
import * as SmtpTls from "../checks/smtp-tls/SmtpTls.ts"
import { publicBaseUrl } from "./PublicUrl.ts"

const upstreamProblem = (domain: string) =>
  new InternalError({
    error: `upstream resolver problem: the MX records of ${domain} could not be looked up; retry after a few seconds`
  })

/** This endpoint's own URL, on the validated base of PublicUrl.ts. */
const selfUrl = (request: HttpServerRequest.HttpServerRequest, path: string, domain: string) =>
  Effect.map(
    Effect.provideService(publicBaseUrl, HttpServerRequest.HttpServerRequest, request),
    (base) => `${base}${path}?domain=${encodeURIComponent(domain)}`
  )

export const smtpTls = (domain: string) =>
  Effect.gen(function* () {
    const result = yield* SmtpTls.check(domain)
    if (
      result.summary.status === "unknown" &&
      result.issues.some((i) => i.startsWith("the MX lookup failed"))
    )
      return yield* upstreamProblem(domain)
    return result
  })

export const fcrdns = (domain: string, request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const result = yield* Fcrdns.check(domain, yield* selfUrl(request, "/email/fcrdns", domain))
    if (result.result.issues.some((i) => i.startsWith("the MX lookup failed")))
      return yield* upstreamProblem(domain)
    return result
  })

export const blacklist = (domain: string) =>
  Effect.gen(function* () {
    const result = yield* Blocklist.check(domain)
    if (result.issues.some((i) => i.startsWith("the MX lookup failed"))) return yield* upstreamProblem(domain)
    return result
  })

export const senderRequirements = (domain: string, request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const [tls, reverse, sources] = yield* Effect.all(
      [
        smtpTls(domain),
        Fcrdns.check(domain, yield* selfUrl(request, "/email/fcrdns", domain)),
        SenderRequirements.emailSources(domain)
      ],
      { concurrency: "unbounded" }
    )
    return yield* SenderRequirements.check(domain, sources, reverse, tls)
  })
