/**
 * DMARC (RFC 7489, with DMARCbis notes): policy discovery with the organisational-domain fallback
 * (6.6.3), the record's tags, and verification of external report destinations (7.1).
 * `gather` (DmarcGather.ts) asks TXT questions (and, when the source can, the MX of each rua
 * domain) through Facts in a scan; `analyse` here is pure and total.
 */
import { Effect } from "effect"
import type { Domain } from "../../records/DomainName.ts"
import { define } from "../../kernel/Check.ts"
import { Facts } from "../../kernel/Facts.ts"
import { isTxtError, type TxtSource } from "../../kernel/TxtOutcome.ts"
import { isDmarcRecord, isNearDmarcRecord, parseDmarc, type DmarcUri } from "../../records/DmarcRecord.ts"
import { about, served } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import {
  applicable,
  dmarcName,
  externalDestinations,
  gatherDmarc,
  type DmarcGathered
} from "./DmarcGather.ts"
import { DmarcResult, ReportDestination, DmarcFinding } from "./DmarcResult.ts"

export * from "./DmarcResult.ts"

const REMOVED_BY_DMARCBIS: Record<string, string> = {
  pct: "pct is removed by DMARCbis (replaced by t=y for testing); receivers may ignore it",
  rf: "rf is removed by DMARCbis; only AFRF failure reports exist",
  ri: "ri is removed by DMARCbis; aggregate reports are sent daily regardless"
}

/** Judges gathered DMARC facts (RFC 7489 6.3, 6.6.3, 7.1; DMARCbis tag changes). Pure and total. */
export const analyseDmarc = (g: DmarcGathered): DmarcResult => {
  const findings: Array<DmarcFinding> = []
  const add = (id: string, severity: DmarcFinding["severity"], message: string) =>
    findings.push({ id, severity, message })
  const organisationalDomain = g.organisationalDomain ?? g.domain
  const base = {
    domain: g.domain,
    reportingEnabled: false,
    rua: [],
    ruf: [],
    errors: [],
    tags: [],
    organisationalDomain,
    reportDestinations: []
  }
  const finish = (r: Omit<DmarcResult, "issues" | "warnings" | "findings">): DmarcResult => ({
    ...r,
    issues: findings.filter((f) => f.severity === "error").map((f) => f.message),
    // DMARCbis notes are listed as warnings even when harmless (they do not lower the status).
    warnings: findings
      .filter((f) => f.severity === "warning" || f.id.startsWith("dmarc-removed-"))
      .map((f) => f.message),
    findings
  })

  const { outcome, policyDomain, inherited } = applicable(g)
  if (isTxtError(outcome)) {
    add(
      "dmarc-lookup-failed",
      "error",
      `DMARC could not be determined: the lookup of ${outcome.name} failed (${outcome.error})`
    )
    return finish({ ...base, status: "unknown", exists: false, valid: false, source: null, inherited: false })
  }
  const records = outcome.records.filter(isDmarcRecord)
  // RFC 7489 6.6.3: a record must begin with v=DMARC1; one with a leading blank is not a record.
  for (const near of outcome.records.filter(isNearDmarcRecord))
    add(
      "dmarc-leading-space",
      "warning",
      `A TXT record at ${outcome.name} looks like DMARC but does not begin exactly with v=DMARC1 ('${near.slice(0, 20)}...'): receivers ignore it (RFC 7489 6.6.3)`
    )
  if (outcome.records.some((r) => /^v=spf1(\s|$)/i.test(r.trim())))
    add(
      "dmarc-spf-record",
      "warning",
      `${outcome.name} holds an SPF record: SPF belongs at the domain itself, not at _dmarc (RFC 7208 3)`
    )
  if (records.length === 0) {
    const where = g.organisational
      ? `${dmarcName(g.domain)} or ${dmarcName(organisationalDomain)}`
      : dmarcName(g.domain)
    add(
      "dmarc-missing",
      "error",
      `No DMARC record at ${where}: receivers apply no DMARC policy to this domain`
    )
    return finish({ ...base, status: "missing", exists: false, valid: false, source: null, inherited: false })
  }
  if (records.length > 1) {
    add(
      "dmarc-multiple",
      "error",
      `${records.length} DMARC records at ${outcome.name}: receivers must ignore them all (RFC 7489 6.6.3)`
    )
    return finish({
      ...base,
      status: "fail",
      exists: true,
      valid: false,
      record: records.join("\n"),
      source: outcome.name,
      inherited
    })
  }

  const record = records[0]!
  const parsed = parseDmarc(record)
  for (const e of parsed.errors)
    add("dmarc-syntax", "error", `Syntax error at position ${e.position}: ${e.message}`)
  if (inherited)
    add(
      "dmarc-inherited",
      "info",
      `${dmarcName(g.domain)} has no record; the organisational domain's record at ${outcome.name} applies`
    )

  // RFC 9989 4.7: a record without p is a policy of none. RFC 9989 4.10.1 (as RFC 7489 6.6.3): an
  // invalid p with a usable rua is read as p=none; without one the record applies no policy.
  const pMissing = !parsed.tags.some((t) => t.name === "p")
  const p = parsed.p ?? (pMissing || parsed.rua.length > 0 ? "none" : undefined)
  const sp = parsed.sp ?? p
  const np = parsed.np ?? sp
  const effective = inherited ? sp : p
  const pct = parsed.pct ?? 100
  const rua = parsed.rua.map((u) => u.raw)
  const ruf = parsed.ruf.map((u) => u.raw)

  if (pMissing && parsed.version !== null)
    add(
      "dmarc-no-p",
      "warning",
      "No p tag: receivers following DMARCbis (RFC 9989 4.7) read the record as p=none, older ones (RFC 7489 6.3) may ignore it; publish p explicitly"
    )
  if (effective === "none")
    add("dmarc-p-none", "warning", "Policy is none: monitoring only, spoofed mail is still delivered")
  if (p === "reject" && parsed.sp === "none")
    add("dmarc-sp-none", "warning", "sp=none leaves subdomains unprotected although p=reject")
  if (parsed.rua.length === 0)
    add("dmarc-no-rua", "warning", "No rua: you receive no aggregate reports and cannot see who sends as you")
  if (pct < 100) add("dmarc-pct", "warning", `pct=${pct}: the policy applies to only ${pct}% of failing mail`)
  // Removed tags are judged one way: a malformed value is a warning (DMARCbis receivers ignore the
  // tag, so it never makes the record invalid); one that changes behaviour a warning; else a note.
  for (const e of parsed.removedTagErrors)
    add(`dmarc-removed-${e.tag}`, "warning", `${e.message}; ${REMOVED_BY_DMARCBIS[e.tag ?? ""] ?? ""}`)
  for (const t of parsed.tags)
    if (REMOVED_BY_DMARCBIS[t.name] && !parsed.removedTagErrors.some((e) => e.tag === t.name))
      add(
        `dmarc-removed-${t.name}`,
        (t.name === "pct" && pct < 100) ||
          (t.name === "rf" && t.value.toLowerCase() !== "afrf") ||
          (t.name === "ri" && t.value !== "86400")
          ? "warning"
          : "info",
        REMOVED_BY_DMARCBIS[t.name]!
      )
  if (parsed.t === true)
    add(
      "dmarc-testing",
      "warning",
      "t=y (DMARCbis testing mode): receivers apply one step less than the policy"
    )
  for (const name of parsed.unknownTags)
    add("dmarc-unknown-tag", "warning", `Unknown tag '${name}' is ignored by receivers (a typo?)`)
  for (const u of [...parsed.rua, ...parsed.ruf])
    if (u.scheme !== "mailto")
      add("dmarc-uri-scheme", "warning", `${u.uri}: receivers are only required to support mailto: URIs`)
  // RFC 7489 6.2: receivers MUST support at least two URIs and MAY ignore the rest.
  if (parsed.rua.length > 2)
    add(
      "dmarc-rua-count",
      "warning",
      `${parsed.rua.length} rua URIs: receivers need only send to the first two (RFC 7489 6.2)`
    )
  for (const m of g.ruaMx ?? [])
    if (m.mx === "none")
      add(
        "dmarc-rua-no-mx",
        "warning",
        `rua destination ${m.domain} accepts no mail (a null MX, or neither MX nor address): aggregate reports cannot arrive`
      )
  if (parsed.fo !== null && parsed.ruf.length === 0)
    add("dmarc-fo-without-ruf", "info", "fo has no effect without ruf")
  if (parsed.ruf.length > 0)
    add("dmarc-ruf", "info", "Failure reports (ruf) can contain personal data and few providers send them")

  const external = new Map<DmarcUri, string>(
    externalDestinations(policyDomain, parsed).map((d) => [d.uri, d.name])
  )
  const reportDestinations = [
    ...parsed.rua.map((u) => ({ kind: "rua" as const, u })),
    ...parsed.ruf.map((u) => ({ kind: "ruf" as const, u }))
  ].map(({ kind, u }): ReportDestination => {
    const name = external.get(u) ?? null
    let authorised: boolean | null = null
    if (name !== null) {
      const answer = g.authorisations.find((a) => a.name === name)
      if (answer && !isTxtError(answer)) authorised = answer.records.some(isDmarcRecord)
      if (authorised === false)
        add(
          "dmarc-external-unauthorised",
          "error",
          `${kind} destination ${u.domain} has not authorised reports for ${policyDomain} (no v=DMARC1 record at ${name}, RFC 7489 7.1): receivers will not send these reports`
        )
      else if (authorised === null)
        add(
          "dmarc-external-unknown",
          "warning",
          `Could not verify that ${u.domain} accepts reports (${name})`
        )
    }
    return {
      kind,
      uri: u.uri,
      domain: u.domain,
      external: name !== null,
      authorised: name === null ? true : authorised,
      verificationName: name,
      maxBytes: u.maxBytes
    }
  })

  const valid = parsed.errors.length === 0
  const hasError = findings.some((f) => f.severity === "error")
  const hasWarning = findings.some((f) => f.severity === "warning")
  return finish({
    domain: g.domain,
    status: !valid || hasError ? "fail" : hasWarning ? "warning" : "pass",
    exists: true,
    valid,
    record,
    ...(p ? { policy: p } : {}),
    ...(sp ? { subdomainPolicy: sp } : {}),
    ...(np ? { nonExistentSubdomainPolicy: np } : {}),
    ...(effective ? { effectivePolicy: effective } : {}),
    pct,
    percentage: pct,
    reportingEnabled: reportDestinations.some((d) => d.authorised !== false),
    rua,
    ruf,
    adkim: parsed.adkim === "s" ? "strict" : "relaxed",
    aspf: parsed.aspf === "s" ? "strict" : "relaxed",
    failureOptions: parsed.fo ?? ["0"],
    testing: parsed.t === true,
    errors: parsed.errors,
    tags: parsed.tags,
    source: outcome.name,
    inherited,
    organisationalDomain,
    reportDestinations
  })
}

/** gather + analyse over any TXT source (unit tests with a fake; callers outside a scan). */
export const checkDmarc = (dns: TxtSource, domain: Domain) =>
  Effect.map(gatherDmarc(dns, domain), analyseDmarc).pipe(
    Effect.withSpan("Dmarc.check", { attributes: { domain } })
  )

const gather = Effect.flatMap(Facts, (facts) => gatherDmarc(facts, facts.domain))

export const Dmarc = define(about, { served, gather, analyse: analyseDmarc, exampleGathered })
