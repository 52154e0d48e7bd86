/**
 * The Everything Report: every concern of one scan, built from ONE Scanner run (the caller's, in
 * `composite/Reports.ts`: shared and cached like GET /scan/quick) and its score (`score/`). Pure:
 * the same scan, score and base URL give the same report, byte for byte once canonical.
 *
 * `generatedAt` is the time the checks ran (`computedAt`), and the scan's `cached` flag is left out,
 * so two requests served by one scan give identical content and an identical content hash: that is
 * what lets snapshot creation return the existing snapshot instead of storing a duplicate.
 */
import { Schema } from "effect"
import type { Registered } from "../kernel/Check.ts"
import { registry as registered } from "../checks/index.ts"
import type { CheckOutcome, ScanResult } from "../scan/ScanResult.ts"
import { catalogue, type IssueId } from "../score/Catalogue.ts"
import { requiredBySentence } from "../score/Fixes.ts"
import { guidanceOf } from "../score/Guidance.ts"
import type { CheckRecord } from "../score/Model.ts"
import { score as scoreOf, type ScanScore } from "../score/Score.ts"
import { contentHashOf } from "./Canonical.ts"
import { type CitationUse, citationsOf, sourcesOfIssue } from "./Citations.ts"
import { stepsInline } from "./GuidanceText.ts"
import { graded } from "./ReportText.ts"
import { factsOf } from "./SectionFacts.ts"
import { nis2Of } from "./Nis2Part.ts"
import type { ReportsReceived } from "./ReceivedReports.ts"
import {
  checkSections,
  type Evidence,
  type EverythingReport,
  type Finding,
  formatVersion,
  ReportContent,
  retentionNotice,
  retentionPolicy,
  type Section,
  type SectionStatus,
  type Sections
} from "./ReportSchema.ts"
import { type Concern, concernOfIssue, concernOfRecord, concernsOf } from "./Sections.ts"

/** The URLs a report names, from the service's public base URL (http/edge/PublicUrl.ts, ends in /api). */
export const reportUrls = (base: string, domain: string) => ({
  live: `${base}/report/everything?domain=${encodeURIComponent(domain)}`,
  create: `${base}/report/snapshot?domain=${encodeURIComponent(domain)}`,
  snapshot: (id: string) => `${base}/report/snapshot/${encodeURIComponent(id)}`,
  snapshotMarkdown: (id: string) => `${base}/report/snapshot/${encodeURIComponent(id)}?format=markdown`
})

const STATUS_OF_RESULT: Readonly<Record<string, SectionStatus>> = {
  pass: "pass",
  compliant: "pass",
  warning: "partial",
  partial: "partial",
  "partially-compliant": "partial",
  fail: "fail",
  "non-compliant": "fail",
  unknown: "unknown"
}

/** The verdict a check result gives itself (`status`, or `overallStatus`), as a section status. */
const ownStatus = (result: unknown): SectionStatus => {
  const own = result as { status?: unknown; overallStatus?: unknown } | null
  return STATUS_OF_RESULT[String(own?.overallStatus ?? own?.status ?? "")] ?? "not-applicable"
}

/** A section's verdict: from its score records, or from the result's own status when unscored. */
const statusOf = (
  records: ReadonlyArray<CheckRecord>,
  findings: ReadonlyArray<Finding>,
  result: unknown
): SectionStatus => {
  const scored = records.filter((r) => r.status !== "not-applicable")
  if (scored.length === 0) return ownStatus(result)
  const points = records.reduce((s, r) => s + r.points, 0)
  const maxPoints = records.reduce((s, r) => s + r.maxPoints, 0)
  if (scored.some((r) => r.status === "unknown") && !scored.some((r) => r.status === "fail")) return "unknown"
  // Shown but never scored (BIMI, info): the result's own verdict, so a valid record reads pass.
  if (maxPoints === 0) return ownStatus(result)
  if (points === maxPoints)
    return findings.some((f) => f.severity !== "info" && f.severity !== "low") ? "partial" : "pass"
  return points === 0 ? "fail" : "partial"
}

/** A section says fail only beside a finding that tells what failed and how to fix it. */
const sectionStatus = (
  records: ReadonlyArray<CheckRecord>,
  findings: ReadonlyArray<Finding>,
  result: unknown
): SectionStatus => {
  const status = statusOf(records, findings, result)
  return status === "fail" && findings.length === 0 ? "partial" : status
}

const findingOf = (id: string, concern: Concern, score: ScanScore): Finding => {
  const entry = catalogue[id as IssueId]
  const issue = score.issues.find((i) => i.id === id)
  const recommendation = score.recommendations.find((r) => r.id === id)
  const description = issue?.description ?? entry?.description ?? id
  const fixable = issue?.fixable ?? entry?.fixable ?? false
  const guidance = guidanceOf(id, score.domain)
  const generator = guidance?.generator ?? (fixable ? concern.generator : null)
  const own = sourcesOfIssue(id, description)
  const cited = [
    ...new Set([
      ...(own.length > 0 ? own : concern.sources),
      ...(guidance?.references ?? []).filter((r) => !/^https?:/.test(r))
    ])
  ]
  return {
    issueId: id,
    severity: issue?.severity ?? entry?.severity ?? "info",
    title: issue?.title ?? entry?.title ?? id,
    description,
    fix: [
      guidance ? stepsInline(guidance) : "Correct it as described; the cited source gives the exact rule.",
      recommendation ? `Fixing it ${recommendation.impact}.` : "",
      recommendation ? requiredBySentence(recommendation) : ""
    ]
      .filter((s) => s !== "")
      .join(" "),
    fixable,
    generator,
    citations: cited,
    ...(guidance ? { guidance } : {})
  }
}

/**
 * The fixes a section shows without owning them: those a mailbox provider requires (the sender
 * requirements' view over the SPF, DKIM, DMARC, FCrDNS and STARTTLS findings, checks/sender).
 */
const requiredFindings = (concern: Concern, score: ScanScore): ReadonlyArray<Finding> =>
  concern.check === SENDER_CHECK
    ? score.recommendations.filter((r) => r.requiredBy.length > 0).map((r) => findingOf(r.id, concern, score))
    : []

const SENDER_CHECK = "sender-requirements"

/** Every concern's section, and the citation uses behind them. */
const sectionsOf = (scan: ScanResult, score: ScanScore, checks: ReadonlyArray<Registered>) => {
  const concerns = concernsOf(checks)
  const records = Object.values(score.categories).flatMap((c) => c.checks)
  const ownerOf = (id: string) => {
    const record = records.find((r) => r.issues.includes(id))
    return (record && concernOfRecord(record.id, concerns)) ?? concernOfIssue(id, concerns)
  }
  const uses: Array<CitationUse> = []
  const findingsFor = (concern: Concern) =>
    score.issues
      .filter((i) => ownerOf(i.id).key === concern.key)
      .map((i) => {
        const finding = findingOf(i.id, concern, score)
        uses.push({ section: concern.key, issue: i.id, sources: finding.citations })
        return finding
      })
  const outcomes: Readonly<Record<string, CheckOutcome<unknown>>> = scan.checks
  const out: Record<string, Section> = {}
  for (const concern of concerns) {
    if (concern.check === null) continue
    const outcome = outcomes[concern.check]!
    const own = records.filter((r) => concernOfRecord(r.id, concerns)?.key === concern.key)
    // Sender requirements own no finding: their section is a view over the fixes they depend on.
    const findings = [...findingsFor(concern), ...requiredFindings(concern, score)]
    uses.push({ section: concern.key, sources: concern.sources })
    const section: Section = {
      key: concern.key,
      title: concern.title,
      check: concern.check,
      status: outcome.status === "unknown" ? "unknown" : sectionStatus(own, findings, outcome.result),
      unknownReason: outcome.reason,
      points: own.reduce((s, r) => s + r.points, 0),
      maxPoints: own.reduce((s, r) => s + r.maxPoints, 0),
      records: own,
      facts: outcome.result === null ? [] : factsOf(outcome.result, concern.facts),
      findings,
      sources: concern.sources
    }
    const extra = checks.find((c) => c.id === concern.check)!.about.section.extra
    out[concern.key] = extra === undefined ? section : { ...section, ...extra.of(outcome.result) }
  }
  const quick = concerns[0]!
  // The sections over `checks`: the registry's (so its Sections type) unless a test brings its own
  // toy registry. Built member by member, so taken to be Sections here.
  const built: { readonly [key: string]: unknown } = {
    quickScore: {
      key: "quickScore" as const,
      title: quick.title,
      grade: score.grade,
      gradeInfo: score.gradeInfo,
      score: score.score,
      percentage: score.percentage,
      points: score.points,
      maxPoints: score.maxPoints,
      categories: Object.fromEntries(
        Object.entries(score.categories).map(([k, c]) => [
          k,
          { percentage: c.percentage, points: c.points, maxPoints: c.maxPoints, status: c.status }
        ])
      ),
      critical_issues: score.critical_issues,
      warnings: score.warnings,
      recommendations: score.recommendations,
      findings: findingsFor(quick)
    },
    ...out,
    nis2: nis2Of(scan)
  }
  const sections = built as Sections
  return { sections, uses, concerns }
}

/**
 * The report's content (everything but `evidence`) over the checks of `registry`: pure. `received`
 * (the reports received for the domain, ReceivedReports.ts) becomes part of the content, and so of
 * its hash, when given.
 */
export const buildContent = (
  scan: ScanResult,
  score: ScanScore,
  base: string,
  registry: ReadonlyArray<Registered> = registered,
  received?: ReportsReceived
): ReportContent => {
  const { sections, uses, concerns } = sectionsOf(scan, score, registry)
  const bySection = checkSections(sections)
  const checkSection = (key: string) => bySection.get(key)!
  const rows = concerns.map((c) => ({
    key: c.key,
    title: c.title,
    status: c.key === "quickScore" ? gradeStatus(score) : checkSection(c.key).status,
    // The quick score holds the list of what to fix: its row counts that list.
    findings: c.key === "quickScore" ? score.recommendations.length : checkSection(c.key).findings.length
  }))
  const unknownChecks = Object.values(scan.checks)
    .filter((o) => o.status === "unknown")
    .map((o) => ({ check: o.id, reason: o.reason ?? "unknown" }))
  const { cached: _scanCached, ...scanContent } = scan
  const { cached: _scoreCached, ...scoreContent } = score
  return {
    domain: scan.domain,
    generatedAt: scan.computedAt,
    formatVersion,
    scoringVersion: score.scoringVersion,
    reportUrl: reportUrls(base, scan.domain).live,
    summary: {
      grade: score.grade,
      label: score.gradeInfo.label,
      score: score.score,
      percentage: score.percentage,
      unscannable: score.unscannable,
      headline:
        score.unscannable !== null
          ? `${scan.domain} could not be graded: ${score.unscannable}.`
          : score.maxPoints === 0
            ? `${scan.domain} could not be judged: no check reached a verdict (see each section and unknownChecks).`
            : graded("en", {
                domain: scan.domain,
                percentage: score.percentage,
                grade: score.grade,
                word: score.gradeInfo.label,
                recommendations: score.recommendations,
                unfinished: unknownChecks.length
              }),
      critical_issues: score.critical_issues,
      warnings: score.warnings,
      sections: rows,
      unknownChecks
    },
    sections,
    citations: citationsOf(uses),
    machineReadable: {
      scan: scanContent,
      score: scoreContent
    } as ReportContent["machineReadable"],
    ...(received === undefined ? {} : { reportsReceived: received })
  }
}

/** The quick score's row in the summary table: unknown when nothing could be judged, else by grade. */
const gradeStatus = (score: ScanScore): SectionStatus =>
  score.maxPoints === 0
    ? "unknown"
    : score.percentage === 100 && score.grade !== "F"
      ? "pass"
      : score.grade === "F"
        ? "fail"
        : "partial"

/** The content as JSON values (Schema-encoded): what is canonicalised, hashed and stored. */
export const encodeContent = Schema.encodeSync(ReportContent)

/** The evidence block of a live report: how to fix it as a snapshot, and the hash it would carry. */
export const liveEvidence = (content: ReportContent, base: string): Evidence => {
  const urls = reportUrls(base, content.domain)
  return {
    liveReportUrl: urls.live,
    snapshotCreateUrl: urls.create,
    snapshotUrl: "",
    snapshotMarkdownUrl: "",
    snapshotId: "",
    contentHash: contentHashOf(encodeContent(content)),
    formatVersion,
    retentionPolicy,
    retentionNotice,
    createdAt: null
  }
}

/** The evidence block of a stored snapshot. */
export const snapshotEvidence = (
  content: ReportContent,
  base: string,
  snapshot: { readonly id: string; readonly contentHash: string; readonly createdAt: string }
): Evidence => {
  const urls = reportUrls(base, content.domain)
  return {
    liveReportUrl: urls.live,
    snapshotCreateUrl: urls.create,
    snapshotUrl: urls.snapshot(snapshot.id),
    snapshotMarkdownUrl: urls.snapshotMarkdown(snapshot.id),
    snapshotId: snapshot.id,
    contentHash: snapshot.contentHash,
    formatVersion,
    retentionPolicy,
    retentionNotice,
    createdAt: snapshot.createdAt
  }
}

/** The report content of one scan and its score, with the reports received when given. */
export const contentOf = (scan: ScanResult, base: string, received?: ReportsReceived): ReportContent =>
  buildContent(scan, scoreOf(scan), base, registered, received)

/** The live Everything Report of one scan, with the reports received when given. */
export const everythingOf = (
  scan: ScanResult,
  base: string,
  received?: ReportsReceived
): EverythingReport => {
  const content = contentOf(scan, base, received)
  return { ...content, evidence: liveEvidence(content, base) }
}
