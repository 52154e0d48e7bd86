/**
 * Handler bodies of the mail-transport endpoints (GET /email/smtp-tls, /email/fcrdns,
 * /email/blacklist, /email/sender-requirements): the composites live in scan/MailTransport.ts;
 * what stays here is what needs the request, the endpoint's own URL.
 */
import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import * as MailTransport from "../scan/MailTransport.ts"
import { AppConfig } from "../Config.ts"

/** This endpoint's own URL: PUBLIC_BASE_URL when set, else derived from the request. */
const selfUrl = (request: HttpServerRequest.HttpServerRequest, path: string, domain: string) =>
  Effect.map(AppConfig, ({ publicBaseUrl }) => {
    const proto = request.headers["x-forwarded-proto"] ?? "http"
    const host = request.headers["host"] ?? "localhost"
    const base = publicBaseUrl !== "" ? publicBaseUrl.replace(/\/$/, "") : `${proto}://${host}/api`
    return `${base}${path}?domain=${encodeURIComponent(domain)}`
  })

export const fcrdns = (domain: string, request: HttpServerRequest.HttpServerRequest) =>
  Effect.flatMap(selfUrl(request, "/email/fcrdns", domain), (apiUrl) => MailTransport.fcrdns(domain, apiUrl))
