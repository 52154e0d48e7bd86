/**
 * The email-authentication endpoints' handlers (DKIM, DMARC, BIMI, MTA-STS, DMARC generator),
 * wired into the email group by EmailHandlers.ts. DNS goes through the request's memoised Facts,
 * HTTPS through the guarded Web client.
 */
import { HttpServerResponse } from "@effect/platform"
import { Effect, Either } from "effect"
import { BadRequest } from "../api/Errors.ts"
import { checkBimi } from "../checks/bimi/Bimi.ts"
import { renderBimiHtml } from "../checks/bimi/BimiHtml.ts"
import { checkDkim } from "../checks/dkim/Dkim.ts"
import { checkDmarc } from "../checks/dmarc/Dmarc.ts"
import { checkMtaSts } from "../checks/mta-sts/MtaSts.ts"
import { generateDmarc, type DmarcGenerateInput } from "../generate/Dmarc.ts"
import { Web } from "../net/Web.ts"
import { Facts } from "../scan/Facts.ts"

/** `?selector=a&selector=b` or `?selector=a,b`. */
const selectorsOf = (raw: string | ReadonlyArray<string> | undefined): ReadonlyArray<string> =>
  (raw === undefined ? [] : typeof raw === "string" ? [raw] : raw)
    .flatMap((s) => s.split(","))
    .map((s) => s.trim())
    .filter((s) => s !== "")

export const handleDkim = ({
  urlParams
}: {
  readonly urlParams: {
    readonly domain: string
    readonly selector?: string | ReadonlyArray<string> | undefined
  }
}) =>
  Effect.gen(function* () {
    const selectors = selectorsOf(urlParams.selector)
    if (selectors.length > 20) return yield* new BadRequest({ error: "at most 20 selector parameters" })
    const facts = yield* Facts.make(urlParams.domain)
    return yield* checkDkim(facts.dns, urlParams.domain, selectors)
  })

export const handleDmarc = ({ urlParams }: { readonly urlParams: { readonly domain: string } }) =>
  Effect.flatMap(Facts.make(urlParams.domain), (facts) => checkDmarc(facts.dns, urlParams.domain))

export const handleBimi = ({
  urlParams
}: {
  readonly urlParams: { readonly domain: string; readonly format?: "json" | "html" | undefined }
}) =>
  Effect.gen(function* () {
    const facts = yield* Facts.make(urlParams.domain)
    const web = yield* Web
    const { result, logoBody } = yield* checkBimi(facts.dns, web, urlParams.domain)
    if (urlParams.format !== "html") return result
    return HttpServerResponse.text(renderBimiHtml(result, logoBody), {
      contentType: "text/html; charset=utf-8",
      headers: { "Content-Security-Policy": "default-src 'none'; img-src data:; style-src 'unsafe-inline'" }
    })
  })

export const handleMtaSts = ({ urlParams }: { readonly urlParams: { readonly domain: string } }) =>
  Effect.gen(function* () {
    const facts = yield* Facts.make(urlParams.domain)
    const web = yield* Web
    return yield* checkMtaSts(facts.dns, web, urlParams.domain)
  })

export const handleDmarcGenerate = ({ payload }: { readonly payload: DmarcGenerateInput }) =>
  Either.match(generateDmarc(payload), {
    onLeft: (e) => Effect.fail(new BadRequest({ error: e.reason })),
    onRight: (out) => Effect.succeed(out)
  })
