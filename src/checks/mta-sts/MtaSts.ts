/**
 * MTA-STS (RFC 8461): the `_mta-sts` TXT record, the policy file fetched from
 * `https://mta-sts.<domain>/.well-known/mta-sts.txt` through the guarded Web client (trusted
 * certificate, no redirects, text/plain, size cap; 3.3), and the MX hosts checked against the
 * policy's patterns (4.1). TLS-RPT (RFC 8460) rides along as `tlsRpt`: the spec serves it only
 * inside this result, so it is not a check of its own. Every question goes through the scan's
 * Facts; `analyseMtaSts` is pure.
 */
import { Effect } from "effect"
import { define } from "../../kernel/Check.ts"
import { Facts } from "../../kernel/Facts.ts"
import { type CheckStatus } from "../../kernel/Status.ts"
import { isTxtError, lookupTxt, type TxtOutcome } from "../../kernel/TxtOutcome.ts"
import { isFetchError, type FetchOutcome } from "../../kernel/FetchOutcome.ts"
import { isStsRecord, mxMatches, parseStsPolicy, parseStsRecord } from "../../records/MtaStsPolicy.ts"
import { analyseTlsRpt, tlsRptName } from "./TlsRpt.ts"
import { about, served } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { MtaStsResult, MxCoverage } from "./MtaStsResult.ts"

export * from "./MtaStsResult.ts"

/** RFC 8461 3.3 leaves the cap to senders; 64 KiB is generous for a few lines of text. */
export const POLICY_MAX_BYTES = 64 * 1024

export const mtaStsName = (domain: string) => `_mta-sts.${domain}`

export const policyUrlOf = (domain: string) => `https://mta-sts.${domain}/.well-known/mta-sts.txt`

export interface MtaStsGathered {
  readonly domain: string
  readonly txt: TxtOutcome
  readonly policy:
    (FetchOutcome & { readonly tlsAuthorized?: boolean; readonly tlsError?: string | null }) | null
  readonly mx:
    | { readonly hosts: ReadonlyArray<string>; readonly nullMx: boolean; readonly implicit: boolean }
    | { readonly error: string }
  readonly tlsRpt: TxtOutcome
}

/** Asks the three DNS questions and fetches the policy concurrently. */
export const gatherMtaSts: Effect.Effect<MtaStsGathered, never, Facts> = Effect.gen(function* () {
  const facts = yield* Facts
  const domain = facts.domain
  // A null MX (RFC 7505) has exchange "" (or "."). Without any MX but with an address, mail goes
  // to the domain itself (the implicit MX, RFC 5321 5.1), and senders check that host against the
  // policy's mx patterns as they would an MX (RFC 8461 4.1).
  const mx = facts.mx(domain).pipe(
    Effect.flatMap((records) =>
      records.length > 0
        ? Effect.succeed({
            hosts: records.map((r) => r.exchange.toLowerCase().replace(/\.$/, "")).filter((h) => h !== ""),
            nullMx: records.length === 1 && (records[0]!.exchange === "" || records[0]!.exchange === "."),
            implicit: false
          })
        : Effect.map(facts.addresses(domain), ({ v4, v6 }) => {
            const implicit = v4.length + v6.length > 0
            return { hosts: implicit ? [domain] : [], nullMx: false, implicit }
          })
    ),
    Effect.catchAll((e) => Effect.succeed({ error: `${e.reason}: ${e.message}` }))
  )
  // The three questions and the fetch start together; this fiber then reads them in turn (a fiber
  // each would only wait: docs/bench.md).
  yield* facts.prefetch([
    { name: mtaStsName(domain), type: "TXT" },
    { name: tlsRptName(domain), type: "TXT" },
    { name: domain, type: "MX" }
  ])
  // verifyTls false: we want the certificate verdict as a finding, not as an opaque failure.
  const fetching = yield* facts.startFetch(policyUrlOf(domain), {
    followRedirects: false,
    maxBytes: POLICY_MAX_BYTES,
    accept: "text/plain",
    verifyTls: false
  })
  const policy = fetching.pipe(
    Effect.map((r) => ({
      url: policyUrlOf(domain),
      status: r.status,
      contentType: r.headers["content-type"] ?? null,
      body: r.body,
      finalUrl: r.finalUrl,
      redirects: r.redirects.length,
      tlsAuthorized: r.tls?.authorized ?? false,
      tlsError: r.tls?.authorizationError ?? (r.tls === null ? "not HTTPS" : null)
    })),
    Effect.catchAll((e) =>
      Effect.succeed<FetchOutcome>({ url: policyUrlOf(domain), error: e.message, reason: e.reason })
    )
  )
  const txt = yield* lookupTxt(facts, mtaStsName(domain))
  const tlsRpt = yield* lookupTxt(facts, tlsRptName(domain))
  const mxResult = yield* mx
  return { domain, txt, policy: yield* policy, mx: mxResult, tlsRpt }
})

const decode = (b: Uint8Array) => new TextDecoder("utf-8", { fatal: false }).decode(b)

/** Judges gathered MTA-STS facts (RFC 8461 3.1-3.3, 4.1). Pure and total. */
export const analyseMtaSts = (g: MtaStsGathered): MtaStsResult => {
  const issues: Array<string> = []
  const warnings: Array<string> = []
  const policyUrl = policyUrlOf(g.domain)
  const tlsRpt = analyseTlsRpt(g.tlsRpt)

  const mxHosts = "error" in g.mx ? [] : g.mx.hosts
  const nullMx = "error" in g.mx ? false : g.mx.nullMx
  const implicit = "error" in g.mx ? false : g.mx.implicit
  const mxError = "error" in g.mx ? g.mx.error : null

  // The TXT record.
  let exists = false
  let record: string | null = null
  let policyId: string | null = null
  let txtOk = false
  let txtUnknown = false
  if (isTxtError(g.txt)) {
    txtUnknown = true
    issues.push(`MTA-STS could not be determined: the lookup of ${g.txt.name} failed (${g.txt.error})`)
  } else {
    const records = g.txt.records.filter(isStsRecord)
    if (records.length === 0) issues.push(`No MTA-STS record at ${mtaStsName(g.domain)}`)
    else if (records.length > 1) {
      exists = true
      record = records.join("\n")
      issues.push(
        `${records.length} MTA-STS records at ${mtaStsName(g.domain)}: senders treat this as no policy (RFC 8461 3.1)`
      )
    } else {
      exists = true
      record = records[0]!
      const parsed = parseStsRecord(record)
      policyId = parsed.id
      for (const e of parsed.errors) issues.push(`Record: ${e}`)
      txtOk = parsed.errors.length === 0
    }
  }

  // The policy file.
  let fetchReport: MtaStsResult["fetch"] = null
  let policy: MtaStsResult["policy"] = null
  let policyOk = false
  if (g.policy !== null) {
    const f = g.policy
    if (isFetchError(f)) {
      fetchReport = {
        reachable: false,
        httpStatus: null,
        contentType: null,
        size: null,
        tlsAuthorized: null,
        tlsError: null,
        error: f.error
      }
      if (exists) issues.push(`The policy at ${policyUrl} could not be fetched (${f.error})`)
    } else {
      const tlsAuthorized = f.tlsAuthorized ?? null
      const tlsError = f.tlsError ?? null
      fetchReport = {
        reachable: true,
        httpStatus: f.status,
        contentType: f.contentType,
        size: f.body.length,
        tlsAuthorized,
        tlsError,
        error: null
      }
      const problems: Array<string> = []
      if (tlsAuthorized === false)
        problems.push(
          `the certificate of mta-sts.${g.domain} is not trusted (${tlsError ?? "unknown reason"}); senders ignore the policy (RFC 8461 3.3)`
        )
      if (f.status >= 300 && f.status < 400)
        problems.push(`HTTP ${f.status} redirect: policy fetches must not follow redirects (RFC 8461 3.3)`)
      else if (f.status !== 200) problems.push(`HTTP ${f.status}: the policy must be served with 200`)
      if (f.status === 200 && !/^text\/plain\s*(;|$)/i.test(f.contentType ?? ""))
        problems.push(
          `served as ${f.contentType ?? "no content type"}; the policy must be text/plain (RFC 8461 3.2)`
        )
      if (f.status === 200) {
        const raw = decode(f.body)
        const parsed = parseStsPolicy(raw)
        policy = { ...parsed, raw }
        problems.push(...parsed.errors)
        warnings.push(...parsed.warnings.map((w) => `Policy: ${w}`))
        policyOk = problems.length === 0
      }
      if (exists) issues.push(...problems.map((p) => `Policy: ${p}`))
      else if (f.status === 200)
        warnings.push(
          "A policy file is published but there is no _mta-sts TXT record: senders never fetch it"
        )
    }
  }
  if (exists && g.policy === null) issues.push(`The policy at ${policyUrl} was not fetched`)

  // MX coverage (RFC 8461 4.1).
  const coverage: Array<MxCoverage> = mxHosts.map((host) => ({
    host,
    matchedBy: policy?.mx.find((p) => mxMatches(p, host)) ?? null
  }))
  const allCovered =
    policy === null || mxError !== null || mxHosts.length === 0
      ? null
      : coverage.every((c) => c.matchedBy !== null)
  const uncovered = coverage.filter((c) => c.matchedBy === null).map((c) => c.host)
  if (exists && policy !== null && allCovered === false && policy.mode !== "none") {
    const text = `MX host(s) ${uncovered.join(", ")} not covered by the policy's mx patterns (${policy.mx.join(", ")})`
    if (policy.mode === "enforce") issues.push(`${text}: compliant senders will refuse to deliver to them`)
    else warnings.push(`${text}: in enforce mode mail to them would fail`)
  }
  if (mxError !== null) warnings.push(`The MX lookup failed (${mxError}); coverage is unknown`)
  if (exists && policy?.mode === "testing")
    warnings.push("mode: testing: failures are reported (TLS-RPT) but not enforced")
  if (exists && policy?.mode === "none")
    warnings.push("mode: none: the policy is being withdrawn; nothing is enforced")
  if (exists && !tlsRpt.exists && tlsRpt.status !== "unknown")
    warnings.push("No TLS-RPT record: you will not hear about MTA-STS delivery failures")

  const valid = txtOk && policyOk && allCovered !== false
  // Without MX records and without a policy, as internet.nl does: the domain is not judged as a
  // mail domain (the score decides from the SMTP probe whether its implicit MX takes mail). With a
  // policy, its mx patterns must cover the implicit MX like any MX.
  const noMail = nullMx || (mxError === null && mxHosts.length === 0) || (implicit && !exists)
  const status: CheckStatus = txtUnknown
    ? "unknown"
    : !exists
      ? noMail
        ? "not-applicable"
        : "missing"
      : !txtOk || !policyOk || (policy?.mode === "enforce" && allCovered === false)
        ? "fail"
        : !valid || policy?.mode !== "enforce" || warnings.length > 0
          ? "warning"
          : "pass"
  if (!exists && noMail && !txtUnknown) {
    issues.length = 0
    warnings.push(
      nullMx
        ? "The domain accepts no mail (null MX, RFC 7505): MTA-STS does not apply"
        : implicit
          ? "The domain has no MX records (mail, if any, goes to its own address: the implicit MX of RFC 5321 5.1): MTA-STS is not judged; publish MX records, or a null MX if it takes no mail"
          : "The domain has no MX records: MTA-STS does not apply"
    )
  }
  return {
    domain: g.domain,
    status,
    exists,
    record,
    policyId,
    policy,
    policyUrl,
    valid,
    issues,
    warnings,
    fetch: fetchReport,
    mx: { hosts: mxHosts, nullMx, implicit, coverage, allCovered, error: mxError },
    tlsRpt
  }
}

export const MtaSts = define(about, { served, gather: gatherMtaSts, analyse: analyseMtaSts, exampleGathered })
