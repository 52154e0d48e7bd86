/**
 * DKIM key discovery (RFC 6376 3.6.2.1: keys live at `<selector>._domainkey.<domain>`).
 * Selectors are not listed anywhere in DNS, so we ask a data-file list of common selectors plus
 * the caller's. Finding none means "not found among the selectors we know", never "no DKIM".
 */
import type { Domain } from "../../records/DomainName.ts"
import { Clock, Effect } from "effect"
import { define, need } from "../../kernel/Check.ts"
import { type FactContext, Facts, type FactsShape } from "../../kernel/Facts.ts"
import { type CheckStatus } from "../../kernel/Status.ts"
import { isTxtError, lookupTxtEach, type TxtOutcome, type TxtSource } from "../../kernel/TxtOutcome.ts"
import { looksLikeDkimKey, parseDkimKey } from "../../records/DkimKey.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import selectorData from "./dkim-selectors.json" with { type: "json" }
import { DkimResult, DkimSelector } from "./DkimResult.ts"

export * from "./DkimResult.ts"

export interface KnownSelector {
  readonly selector: string
  readonly provider: string
}

export const KNOWN_SELECTORS: ReadonlyArray<KnownSelector> = selectorData.selectors

/** RFC 6376 3.1: a selector is one or more dot-separated DNS labels. */
export const isValidSelector = (s: string): boolean =>
  s.length <= 200 &&
  /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*$/.test(
    s
  )

export const dkimName = (selector: string, domain: string) => `${selector}._domainkey.${domain}`

export interface DkimGathered {
  readonly domain: string
  /** The caller's selectors first, then those reports named, then the known list, de-duplicated (case-insensitive). */
  readonly selectors: ReadonlyArray<string>
  readonly requested: ReadonlyArray<string>
  /** Selectors seen in DMARC aggregate reports received for the domain (absent: none known). */
  readonly reported?: ReadonlyArray<string>
  /**
   * `_domainkey.<domain>`: `nxdomain` means no selector can exist below it (RFC 8020); `exists`
   * (an answer or NODATA, an empty non-terminal), `error` (unknown), absent when not asked.
   */
  readonly domainKeyNode?: "nxdomain" | "exists" | "error"
  readonly answers: ReadonlyArray<{ readonly selector: string; readonly outcome: TxtOutcome }>
  /** A selector nobody uses: a key there means a wildcard `*._domainkey` record answers every selector. */
  readonly wildcardProbe: TxtOutcome | null
  /** From the first question to the last answer, by the Clock (absent for hand-built values). */
  readonly elapsedMs?: number
}

export const WILDCARD_PROBE_SELECTOR = "domain-audit-wildcard-probe"

/**
 * How many selector questions are in flight at once. A domain without DKIM answers NXDOMAIN for
 * every one of the ~155 selectors; at 16 at a time that was ten round trips to the resolver (3-10 s
 * against slow authoritative servers), at 64 it is three. Each question is one small UDP query to
 * the configured recursive resolver, whose negative cache (RFC 2308), like ours, answers repeats.
 */
export const SELECTOR_CONCURRENCY = 64

/** What DKIM discovery asks through: TXT (and a sweep) always; the raw query and reported selectors when the source has them (a scan's Facts). */
export type DkimSource = TxtSource & Partial<Pick<FactsShape, "query" | "reportedSelectors">>

/** Whether `_domainkey.<domain>` exists (RFC 8020: NXDOMAIN means nothing below it exists). */
const domainKeyNode = (dns: DkimSource, domain: string) =>
  dns.query === undefined
    ? Effect.succeed(undefined)
    : dns.query(`_domainkey.${domain}`, "TXT").pipe(
        Effect.map((a) => (a.outcome === "nxdomain" ? ("nxdomain" as const) : ("exists" as const))),
        Effect.orElseSucceed(() => "error" as const)
      )

/**
 * Asked beside `_domainkey.<domain>`, before the rest of the list: the largest providers' selectors
 * (Google, Microsoft 365, Mailchimp, SendGrid, and the usual defaults). RFC 8020 section 4 knows
 * servers that answer NXDOMAIN for an empty non-terminal; a key under one of these is found even
 * there (and then the whole list is asked), and the caller's and the reports' selectors always are.
 */
export const FIRST_SELECTORS: ReadonlyArray<string> = [
  "google",
  "selector1",
  "selector2",
  "k1",
  "s1",
  "s2",
  "default",
  "dkim"
]

/**
 * Asks the caller's, the reports' and the largest providers' selectors beside `_domainkey.<domain>`;
 * then, unless that node is NXDOMAIN (RFC 8020: nothing below it exists), the rest of the list and
 * the wildcard probe, concurrently (bounded). Keeps each answer or failure. Most domains without
 * DKIM end after the first round trip instead of ~155 questions; one with DKIM pays one round trip
 * more. A source without `query` (a plain TXT fake) is swept whole at once.
 */
export const gatherDkim = (
  dns: DkimSource,
  domain: Domain,
  requested: ReadonlyArray<string> = [],
  options: { readonly concurrency?: number; readonly known?: ReadonlyArray<KnownSelector> } = {}
): Effect.Effect<DkimGathered> =>
  Effect.gen(function* () {
    const wanted = requested.map((s) => s.trim().toLowerCase()).filter(isValidSelector)
    const reported = (dns.reportedSelectors === undefined ? [] : yield* dns.reportedSelectors)
      .map((s) => s.toLowerCase())
      .filter(isValidSelector)
    const all = [
      ...new Set([...wanted, ...reported, ...(options.known ?? KNOWN_SELECTORS).map((k) => k.selector)])
    ]
    const early = new Set([...wanted, ...reported, ...FIRST_SELECTORS])
    const concurrency = options.concurrency ?? SELECTOR_CONCURRENCY
    // One fiber per sweep when the source can (a scan's Facts): a fiber per selector was most of a
    // scan's memory in flight (docs/bench.md, the batch).
    const ask = (selectors: ReadonlyArray<string>) =>
      lookupTxtEach(
        dns,
        selectors.map((selector) => dkimName(selector, domain)),
        concurrency
      )
    const started = yield* Clock.currentTimeMillis
    // The wildcard probe goes with the rest: a wildcard `*._domainkey` makes the node exist.
    const whole = [...all, WILDCARD_PROBE_SELECTOR]
    const first = dns.query === undefined ? whole : all.filter((s) => early.has(s))
    const [firstOutcomes, node] = yield* Effect.zip(ask(first), domainKeyNode(dns, domain), {
      concurrent: true
    })
    // A record under an NXDOMAIN node is a server that breaks RFC 8020: its NXDOMAIN proves nothing.
    const nothingBelow =
      node === "nxdomain" && firstOutcomes.every((o) => isTxtError(o) || o.records.length === 0)
    const rest = nothingBelow ? [] : whole.filter((s) => !first.includes(s))
    const restOutcomes = rest.length === 0 ? [] : yield* ask(rest)
    const elapsedMs = (yield* Clock.currentTimeMillis) - started
    const outcomes = new Map<string, TxtOutcome>()
    first.forEach((selector, i) => outcomes.set(selector, firstOutcomes[i]!))
    rest.forEach((selector, i) => outcomes.set(selector, restOutcomes[i]!))
    const selectors = all.filter((s) => outcomes.has(s))
    return {
      domain,
      selectors,
      requested: wanted,
      ...(dns.reportedSelectors === undefined ? {} : { reported }),
      ...(node === undefined ? {} : { domainKeyNode: node }),
      answers: selectors.map((selector) => ({ selector, outcome: outcomes.get(selector)! })),
      wildcardProbe: outcomes.get(WILDCARD_PROBE_SELECTOR) ?? null,
      elapsedMs
    }
  })

export type DkimSelectorResult = typeof DkimSelector.Type

const NOTE =
  "Selectors cannot be listed from DNS: we check those you pass as ?selector=, those named in DMARC aggregate reports " +
  "received for the domain, and common selectors of major providers. A key not found here may still exist under another " +
  "selector (see the DKIM-Signature s= tag of a sent message)."

/** Judges the keys found (RFC 6376 3.6.1, RFC 8301, RFC 8463). Pure and total. */
export const analyseDkim = (g: DkimGathered): DkimResult => {
  const providers = new Map(KNOWN_SELECTORS.map((k) => [k.selector, k.provider]))
  const requested = new Set(g.requested)
  const failedSelectors: Array<{ selector: string; error: string }> = []
  const found: Array<DkimSelectorResult> = []
  const probe = g.wildcardProbe
  const wildcard = probe && !isTxtError(probe) ? probe.records.find(looksLikeDkimKey) : undefined
  const answers =
    wildcard === undefined
      ? g.answers
      : [
          { selector: "*", outcome: { name: `*._domainkey.${g.domain}`, records: [wildcard] } },
          ...g.answers.filter((a) => isTxtError(a.outcome) || !a.outcome.records.includes(wildcard))
        ]
  for (const { selector, outcome } of answers) {
    if (isTxtError(outcome)) {
      failedSelectors.push({ selector, error: outcome.error })
      continue
    }
    const keys = outcome.records.filter(looksLikeDkimKey)
    const record = keys[0]
    if (record === undefined) continue
    const key = parseDkimKey(record)
    found.push({
      selector,
      name: outcome.name,
      record,
      valid: key.valid,
      keyType: key.keyType,
      keyLength: key.keyLength,
      revoked: key.revoked,
      testing: key.testing,
      status: key.status,
      provider: providers.get(selector) ?? null,
      requested: requested.has(selector),
      hashAlgorithms: key.hashAlgorithms,
      errors: key.errors,
      warnings: key.warnings,
      otherRecords: keys.slice(1)
    })
  }

  const issues: Array<string> = []
  const warnings: Array<string> = []
  if (wildcard !== undefined)
    warnings.push(
      `A wildcard *._domainkey.${g.domain} key answers every selector; it is reported once as '*'`
    )
  for (const f of found) {
    for (const e of f.errors) issues.push(`${f.selector}: ${e}`)
    for (const w of f.warnings) warnings.push(`${f.selector}: ${w}`)
    if (f.revoked) warnings.push(`${f.selector}: key revoked (empty p=); mail signed with it fails DKIM`)
    if (f.otherRecords.length > 0)
      issues.push(
        `${f.selector}: ${f.otherRecords.length + 1} key records at ${f.name}; verifiers may pick either`
      )
  }
  for (const s of g.requested)
    if (!found.some((f) => f.selector === s) && !failedSelectors.some((f) => f.selector === s))
      issues.push(`No DKIM key at ${dkimName(s, g.domain)}`)

  const validKeys = found.filter((f) => f.valid)
  const discovery =
    validKeys.length > 0 || found.length > 0 ? "found" : failedSelectors.length > 0 ? "unknown" : "not-found"
  if (failedSelectors.length > 0)
    warnings.push(
      `${failedSelectors.length} selector look-up(s) failed (${failedSelectors
        .slice(0, 5)
        .map((f) => f.selector)
        .join(", ")}${failedSelectors.length > 5 ? ", ..." : ""}): their keys are unknown`
    )
  if (discovery === "not-found")
    issues.push(
      `No DKIM key found at the ${g.selectors.length} selectors checked; DKIM may still be set up under another selector`
    )
  if (found.length > 0 && validKeys.length === 0) issues.push("No usable DKIM key among the selectors found")

  const anyFail = found.some((f) => f.status === "fail")
  const anyWarn =
    found.some((f) => f.status === "warning") || g.requested.some((s) => !found.some((f) => f.selector === s))
  const status: CheckStatus =
    discovery === "unknown" || discovery === "not-found"
      ? "unknown"
      : validKeys.length === 0 || anyFail
        ? "fail"
        : anyWarn
          ? "warning"
          : "pass"
  const { state, stateDetail } = keyState(g, found, failedSelectors.length)
  return {
    domain: g.domain,
    status,
    state,
    stateDetail,
    reportedSelectors: g.reported ?? [],
    selectorsTried: g.selectors.length,
    selectors_found: found.map((f) => f.selector),
    valid_keys: validKeys.length,
    selectorsChecked: g.selectors,
    selectorsFound: found,
    hasDkim: validKeys.length > 0,
    issues,
    warnings,
    discovery,
    failedSelectors,
    note: NOTE,
    ...(g.elapsedMs === undefined ? {} : { lookupMs: g.elapsedMs })
  }
}

/** The three states of discovery (and unknown), in words a domain owner can act on. */
const keyState = (
  g: DkimGathered,
  found: ReadonlyArray<DkimSelectorResult>,
  failed: number
): { state: NonNullable<DkimResult["state"]>; stateDetail: string } => {
  if (found.length > 0)
    return {
      state: "confirmed",
      stateDetail: `DKIM key found under ${found
        .slice(0, 5)
        .map(
          (f) =>
            `${f.selector} (${f.keyType}${f.keyLength === null ? "" : ` ${f.keyLength}-bit`}${f.valid ? "" : ", not usable"})`
        )
        .join(
          ", "
        )}${g.reported?.some((r) => found.some((f) => f.selector === r)) ? "; named by DMARC reports" : ""}`
    }
  if (g.domainKeyNode === "nxdomain")
    return {
      state: "absent",
      stateDetail: `_domainkey.${g.domain} does not exist (NXDOMAIN, RFC 8020): no selector can hold a key, so the domain publishes no DKIM key`
    }
  if (failed > 0)
    return {
      state: "unknown",
      stateDetail: `${failed} selector look-up(s) failed: whether a key exists is unknown`
    }
  return {
    state: "not-confirmed",
    stateDetail: `No DKIM key under the ${g.selectors.length} selectors tried (${g.selectors.slice(0, 8).join(", ")}${
      g.selectors.length > 8 ? ", ..." : ""
    }); DKIM may still use another selector${
      (g.reported ?? []).length === 0
        ? ": point rua= at this service so its reports name the selectors in use"
        : ""
    }`
  }
}

/** gather + analyse over any TXT source (unit tests with a fake; callers outside a scan). */
export const checkDkim = (dns: DkimSource, domain: Domain, selectors: ReadonlyArray<string> = []) =>
  Effect.map(gatherDkim(dns, domain, selectors), analyseDkim).pipe(
    Effect.withSpan("Dkim.check", { attributes: { domain, selectors: selectors.length } })
  )

/** The scan's DKIM check: the known selectors only. */
const gather = Effect.flatMap(Facts, (facts) => gatherDkim(facts, facts.domain))

export const Dkim = define(about, {
  gather,
  analyse: analyseDkim,
  exampleGathered: exampleGathered(gatherDkim)
})

/**
 * DKIM with the caller's selectors asked first (`GET /email/dkim?selector=`): a gather of its own,
 * over the same Facts, so the known selectors' answers are shared with `Dkim` in one scan.
 */
export const dkimWith = (selectors: ReadonlyArray<string>): Effect.Effect<DkimResult, never, FactContext> =>
  selectors.length === 0
    ? need(Dkim)
    : Effect.flatMap(Facts, (facts) => checkDkim(facts, facts.domain, selectors))
