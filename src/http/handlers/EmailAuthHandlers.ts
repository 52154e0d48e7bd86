/**
 * The email-authentication endpoints' handlers (DKIM, DMARC, BIMI, MTA-STS, DMARC generator),
 * wired into the email group by EmailHandlers.ts. Each decodes, runs its check over fresh Facts
 * (`runCheck`, `withFacts`) and returns.
 */
import { HttpServerResponse } from "@effect/platform"
import { Effect, Either } from "effect"
import { BadRequest } from "../../api/Errors.ts"
import { Bimi, bimiWithLogo } from "../../checks/bimi/Bimi.ts"
import { renderBimiHtml } from "../../checks/bimi/BimiHtml.ts"
import { dkimWith } from "../../checks/dkim/Dkim.ts"
import { Dmarc } from "../../checks/dmarc/Dmarc.ts"
import { MtaSts } from "../../checks/mta-sts/MtaSts.ts"
import { generateDmarc, type DmarcGenerateInput } from "../../generate/DmarcGenerator.ts"
import { runCheck, withFacts } from "../../scan/Scanner.ts"
import { generated } from "./Generated.ts"

type DomainParams = { readonly urlParams: { readonly domain: string } }

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
    readonly domain: string
    readonly selector?: string | ReadonlyArray<string> | undefined
  }
}) => Effect.flatMap(selectorsOf(urlParams.selector), (s) => withFacts(urlParams.domain, dkimWith(s)))

export const handleDmarc = ({ urlParams }: DomainParams) => runCheck(Dmarc, urlParams.domain)

/** The page's CSP allows the inline style and the logo as a data: image, nothing else. */
const bimiPage = ({ result, logoBody }: Effect.Effect.Success<typeof bimiWithLogo>) =>
  HttpServerResponse.text(renderBimiHtml(result, logoBody), {
    contentType: "text/html; charset=utf-8",
    headers: { "Content-Security-Policy": "default-src 'none'; img-src data:; style-src 'unsafe-inline'" }
  })

export const handleBimi = ({
  urlParams
}: {
  readonly urlParams: { readonly domain: string; readonly format?: "json" | "html" | undefined }
}) =>
  urlParams.format === "html"
    ? Effect.map(withFacts(urlParams.domain, bimiWithLogo), bimiPage)
    : runCheck(Bimi, urlParams.domain)

export const handleMtaSts = ({ urlParams }: DomainParams) => runCheck(MtaSts, urlParams.domain)

export const handleDmarcGenerate = ({ payload }: { readonly payload: DmarcGenerateInput }) =>
  generated(generateDmarc(payload))
