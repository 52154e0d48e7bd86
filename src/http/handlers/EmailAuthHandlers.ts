/**
 * The email-authentication endpoints' handlers that take more than a domain (DKIM, BIMI, the DMARC
 * generator), wired into the email group by EmailHandlers.ts. Each decodes, runs its check alone
 * (`composite/SingleChecks.ts`) or its generator, and returns.
 */
import type { Domain } from "../../records/DomainName.ts"
import { HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { BadRequest } from "../../api/Errors.ts"
import * as SingleChecks from "../../composite/SingleChecks.ts"
import type { DmarcGenerateInput } from "../../generate/DmarcGenerator.ts"
import { dmarcPreviewed } from "../../composite/GeneratedPreview.ts"
import { previewedGenerated } from "./Generated.ts"

/** `?selector=a&selector=b` or `?selector=a,b`, at most 20 (each is a DNS question per request). */
const selectorsOf = (raw: string | ReadonlyArray<string> | undefined) => {
  const selectors = (raw === undefined ? [] : typeof raw === "string" ? [raw] : raw)
    .flatMap((s) => s.split(","))
    .map((s) => s.trim())
    .filter((s) => s !== "")
  return selectors.length > 20
    ? Effect.fail(new BadRequest({ error: "at most 20 selector parameters" }))
    : Effect.succeed(selectors)
}

export const handleDkim = ({
  urlParams
}: {
  readonly urlParams: {
    readonly domain: Domain
    readonly selector?: string | ReadonlyArray<string> | undefined
  }
}) => Effect.flatMap(selectorsOf(urlParams.selector), (s) => SingleChecks.dkim(urlParams.domain, s))

/** The page's CSP allows the inline style and the logo as a data: image, nothing else. */
const bimiPage = (html: string) =>
  HttpServerResponse.text(html, {
    contentType: "text/html; charset=utf-8",
    headers: { "Content-Security-Policy": "default-src 'none'; img-src data:; style-src 'unsafe-inline'" }
  })

export const handleBimi = ({
  urlParams
}: {
  readonly urlParams: { readonly domain: Domain; readonly format?: "json" | "html" | undefined }
}) =>
  urlParams.format === "html"
    ? Effect.map(SingleChecks.bimiHtml(urlParams.domain), bimiPage)
    : SingleChecks.bimi(urlParams.domain)

export const handleDmarcGenerate = ({
  payload,
  urlParams
}: {
  readonly payload: DmarcGenerateInput
  readonly urlParams: { readonly domain?: Domain | undefined }
}) => previewedGenerated(dmarcPreviewed(payload, urlParams.domain))
