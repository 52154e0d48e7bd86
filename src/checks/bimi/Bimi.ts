/**
 * BIMI (draft-brand-indicators-for-message-identification): the assertion record, the SVG Tiny PS
 * logo and the VMC/CMC evidence document, plus the DMARC enforcement BIMI depends on (the DMARC
 * check's own result, `need(Dmarc)`). `gather` asks DNS and fetches through the scan's Facts;
 * `analyseBimi` is pure. We do not judge trademark ownership, nor trust in the certificate's root.
 */
import { Effect } from "effect"
import { define, need } from "../../kernel/Check.ts"
import { type FactContext, Facts } from "../../kernel/Facts.ts"
import { type CheckStatus } from "../../kernel/Status.ts"
import { isTxtError, lookupTxt, type TxtOutcome } from "../../kernel/TxtOutcome.ts"
import { Dmarc, type DmarcResult } from "../dmarc/Dmarc.ts"
import { isBimiRecord, parseBimi } from "../../records/BimiRecord.ts"
import { BIMI_MAX_LOGO_BYTES, checkSvgTinyPs } from "../../records/BimiSvg.ts"
import { checkAuthority } from "../../records/BimiVmc.ts"
import { organisationalDomainOf } from "../../records/DmarcRecord.ts"
import { fetchOutcome, isFetchError, type FetchOutcome, type WebFetcher } from "../../kernel/FetchOutcome.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { BimiResult, BimiAuthority, BimiLogo } from "./BimiResult.ts"

export * from "./BimiResult.ts"

export const bimiName = (domain: string, selector = "default") => `${selector}._bimi.${domain}`

export interface BimiGathered {
  readonly domain: string
  readonly organisationalDomain: string
  readonly direct: TxtOutcome
  /** `default._bimi.<organisational domain>`, asked when the domain has no record (draft: fallback). */
  readonly organisational: TxtOutcome | null
  readonly logo: FetchOutcome | null
  readonly authority: FetchOutcome | null
  readonly dmarc: DmarcResult | null
}

const bimiRecords = (o: TxtOutcome | null) =>
  o === null || isTxtError(o) ? [] : o.records.filter(isBimiRecord)

const applicable = (g: BimiGathered) =>
  g.organisational !== null && !isTxtError(g.direct) && bimiRecords(g.direct).length === 0
    ? { outcome: g.organisational, inherited: true }
    : { outcome: g.direct, inherited: false }

/** The logo fetch: a little more than the 32 KB limit, so an oversized logo is measured, not refused. */
const fetchLogo = (web: WebFetcher, url: string) =>
  fetchOutcome(web, url, { maxBytes: 4 * BIMI_MAX_LOGO_BYTES, accept: "image/svg+xml" })

/** Reads the record, fetches the logo and the evidence document, and reads the DMARC verdict. */
export const gatherBimi: Effect.Effect<BimiGathered, never, Facts> = Effect.gen(function* () {
  const facts = yield* Facts
  const domain = facts.domain
  const organisationalDomain = organisationalDomainOf(domain)
  // Started together, awaited in turn in this fiber (a fiber each would only wait: docs/bench.md).
  yield* facts.prefetch([{ name: bimiName(domain), type: "TXT" }])
  const dmarc = yield* need(Dmarc)
  const direct = yield* lookupTxt(facts, bimiName(domain))
  const organisational =
    organisationalDomain !== domain && !isTxtError(direct) && bimiRecords(direct).length === 0
      ? yield* lookupTxt(facts, bimiName(organisationalDomain))
      : null
  const partial = { domain, organisationalDomain, direct, organisational }
  const records = bimiRecords(applicable({ ...partial, logo: null, authority: null, dmarc: null }).outcome)
  const parsed = records.length === 1 ? parseBimi(records[0]!) : null
  const [logo, authority] = yield* Effect.all(
    [
      parsed?.location ? fetchLogo(facts, parsed.location) : Effect.succeed(null),
      parsed?.authority
        ? fetchOutcome(facts, parsed.authority, {
            maxBytes: 256 * 1024,
            accept: "application/pem-certificate-chain"
          })
        : Effect.succeed(null)
    ],
    // Two fetches at once only when there are two (a fiber each).
    parsed?.location && parsed.authority ? { concurrency: 2 } : {}
  )
  return { ...partial, logo, authority, dmarc }
})

export const TRADEMARK_NOTE =
  "We check the record, the hosted SVG and the certificate's metadata. We do not verify trademark ownership, " +
  "nor whether the certificate's issuer is a trusted Mark Verifying Authority."

/** What the logo and the authority evidence say alike when their fetch failed: nothing was served. */
const unreached = (f: Extract<FetchOutcome, { readonly error: string }>) => ({
  url: f.url,
  reachable: false,
  httpStatus: null,
  contentType: null,
  size: null,
  valid: false
})

const judgeLogo = (f: FetchOutcome): BimiLogo => {
  if (isFetchError(f))
    return {
      ...unreached(f),
      contentTypeOk: false,
      maxSize: BIMI_MAX_LOGO_BYTES,
      sizeOk: false,
      svg: null,
      error:
        f.reason === "too-large"
          ? `larger than ${4 * BIMI_MAX_LOGO_BYTES} bytes (limit ${BIMI_MAX_LOGO_BYTES})`
          : f.error
    }
  const ok = f.status >= 200 && f.status < 300
  const contentTypeOk = /^image\/svg\+xml\s*(;|$)/i.test(f.contentType ?? "")
  const svg = ok ? checkSvgTinyPs(f.body) : null
  const sizeOk = f.body.length <= BIMI_MAX_LOGO_BYTES
  return {
    url: f.url,
    reachable: ok,
    httpStatus: f.status,
    contentType: f.contentType,
    contentTypeOk,
    size: ok ? f.body.length : null,
    maxSize: BIMI_MAX_LOGO_BYTES,
    sizeOk,
    svg,
    valid: ok && contentTypeOk && sizeOk && svg !== null && svg.tinyPs,
    error: ok ? null : `HTTP ${f.status}`
  }
}

const judgeAuthority = (
  f: FetchOutcome,
  g: BimiGathered,
  logo: FetchOutcome | null,
  now: Date
): BimiAuthority => {
  if (isFetchError(f)) return { ...unreached(f), error: f.error }
  const ok = f.status >= 200 && f.status < 300
  const base = {
    url: f.url,
    reachable: ok,
    httpStatus: f.status,
    contentType: f.contentType,
    size: f.body.length
  }
  if (!ok) return { ...base, valid: false, error: `HTTP ${f.status}` }
  const logoBytes = logo && !isFetchError(logo) && logo.status < 300 ? logo.body : null
  const check = checkAuthority(f.body, g.domain, g.organisationalDomain, now, logoBytes)
  return { ...base, ...check, valid: check.parsed && check.errors.length === 0, error: null }
}

/** Judges gathered BIMI facts; `now` decides the certificate's validity. Pure and total. */
export const analyseBimi = (g: BimiGathered, now: Date): BimiResult => {
  const issues: Array<string> = []
  const warnings: Array<string> = []
  const base = {
    domain: g.domain,
    logoUrl: null,
    authorityUrl: null,
    logo: null,
    authority: null,
    declined: false,
    localPartSelectors: null,
    avatarPreference: null,
    source: null,
    inherited: false,
    dmarc: null,
    trademarkNote: TRADEMARK_NOTE
  }
  const { outcome, inherited } = applicable(g)
  if (isTxtError(outcome)) {
    issues.push(`BIMI could not be determined: the lookup of ${outcome.name} failed (${outcome.error})`)
    return { ...base, status: "unknown", exists: false, record: null, valid: false, issues, warnings }
  }
  const records = outcome.records.filter(isBimiRecord)
  if (records.length === 0) {
    issues.push(`No BIMI record at ${bimiName(g.domain)}`)
    return { ...base, status: "missing", exists: false, record: null, valid: false, issues, warnings }
  }
  if (records.length > 1) {
    issues.push(`${records.length} BIMI records at ${outcome.name}: receivers ignore them all`)
    return {
      ...base,
      status: "fail",
      exists: true,
      record: records.join("\n"),
      valid: false,
      issues,
      warnings,
      source: outcome.name
    }
  }
  const record = records[0]!
  const parsed = parseBimi(record)
  issues.push(...parsed.errors)
  warnings.push(...parsed.warnings)
  if (inherited)
    warnings.push(`No record at ${bimiName(g.domain)}; the organisational domain's record applies`)

  const logo = g.logo ? judgeLogo(g.logo) : null
  if (logo) {
    if (!logo.reachable) issues.push(`The logo at ${logo.url} could not be fetched (${logo.error})`)
    else {
      if (!logo.contentTypeOk)
        issues.push(`The logo is served as ${logo.contentType ?? "no content type"}, not image/svg+xml`)
      if (!logo.sizeOk) issues.push(`The logo is ${logo.size} bytes; the limit is ${BIMI_MAX_LOGO_BYTES}`)
      for (const e of logo.svg?.errors ?? []) if (!e.startsWith("the logo is ")) issues.push(`Logo: ${e}`)
      for (const w of logo.svg?.warnings ?? []) warnings.push(`Logo: ${w}`)
    }
  }
  const authority = g.authority ? judgeAuthority(g.authority, g, g.logo, now) : null
  if (authority) {
    if (!authority.reachable)
      issues.push(`The certificate at ${authority.url} could not be fetched (${authority.error})`)
    for (const e of authority.errors ?? []) issues.push(`Certificate: ${e}`)
    for (const w of authority.warnings ?? []) warnings.push(`Certificate: ${w}`)
    if (authority.reachable && !/pem|x-x509|octet-stream|text\/plain/i.test(authority.contentType ?? ""))
      warnings.push(
        `The certificate is served as ${authority.contentType ?? "no content type"}; application/pem-certificate-chain is expected`
      )
  }

  let dmarc: BimiResult["dmarc"] = null
  if (g.dmarc) {
    const d = g.dmarc
    const p = d.effectivePolicy ?? null
    const eligible =
      d.status === "unknown"
        ? null
        : d.valid &&
          (p === "reject" || (p === "quarantine" && (d.pct ?? 100) === 100)) &&
          d.subdomainPolicy !== "none"
    dmarc = { policy: p, pct: d.pct ?? null, eligible }
    // A declination opts out: DMARC eligibility does not matter to it.
    if (eligible === false && !parsed.declined)
      issues.push(
        `BIMI requires DMARC at enforcement (p=quarantine with pct=100, or p=reject; sp not none); found ${p ? `p=${p}` : "no valid DMARC"}${d.pct !== undefined && d.pct < 100 ? ` pct=${d.pct}` : ""}`
      )
    if (eligible === null) warnings.push("DMARC could not be checked, so BIMI eligibility is unknown")
  }

  const declined = parsed.declined
  // With l= empty the only logo is the one inside a valid certificate's logotype.
  const logoOk =
    logo !== null
      ? logo.valid
      : parsed.location === null && authority?.valid === true && authority.logotypePresent === true
  if (logo === null && !declined && parsed.location === null && !logoOk)
    issues.push("No logo to show: l= is empty and no valid certificate carries one")
  // A declination record (l= empty, no a=) is a valid record that opts out, not an invalid one.
  const valid =
    parsed.errors.length === 0 &&
    (declined || (logoOk && (authority === null || authority.valid) && dmarc?.eligible !== false))
  const status: CheckStatus = !valid
    ? "fail"
    : declined
      ? "not-applicable"
      : !valid
        ? "fail"
        : warnings.length > 0 || authority === null
          ? "warning"
          : "pass"
  return {
    ...base,
    status,
    exists: true,
    record,
    valid,
    logoUrl: parsed.location,
    authorityUrl: parsed.authority,
    logo,
    authority,
    issues,
    warnings,
    declined,
    localPartSelectors: parsed.localPartSelectors,
    avatarPreference: parsed.avatarPreference,
    source: outcome.name,
    inherited,
    dmarc
  }
}

export const Bimi = define(about, { gather: gatherBimi, analyse: analyseBimi, exampleGathered })

/**
 * The BIMI result with the logo's bytes, for the HTML view (the bytes never go into the JSON). The
 * logo fetch repeats the check's own, which the scan's Facts answer from memory.
 */
export const bimiWithLogo: Effect.Effect<
  { readonly result: BimiResult; readonly logoBody: Uint8Array | null },
  never,
  FactContext
> = Effect.gen(function* () {
  const result = yield* need(Bimi)
  const logo = result.logo === null ? null : yield* fetchLogo(yield* Facts, result.logo.url)
  return { result, logoBody: logo && !isFetchError(logo) && logo.status < 300 ? logo.body : null }
})
