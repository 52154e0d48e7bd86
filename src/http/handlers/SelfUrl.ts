/**
 * Handler bodies of the mail-transport endpoints (GET /email/smtp-tls, /email/fcrdns,
 * /email/blacklist, /email/sender-requirements): the composites live in composite/MailTransport.ts;
 * what stays here is what needs the request, the endpoint's own URL.
 */
import type { Domain } from "../../records/DomainName.ts"
import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import * as MailTransport from "../../composite/MailTransport.ts"
import { publicBaseUrl } from "../edge/PublicUrl.ts"

/** This endpoint's own URL, on the validated base of PublicUrl.ts. */
const selfUrl = (request: HttpServerRequest.HttpServerRequest, path: string, domain: string) =>
  Effect.map(
    Effect.provideService(publicBaseUrl, HttpServerRequest.HttpServerRequest, request),
    (base) => `${base}${path}?domain=${encodeURIComponent(domain)}`
  )

export const fcrdns = (domain: Domain, request: HttpServerRequest.HttpServerRequest) =>
  Effect.flatMap(selfUrl(request, "/email/fcrdns", domain), (apiUrl) => MailTransport.fcrdns(domain, apiUrl))
