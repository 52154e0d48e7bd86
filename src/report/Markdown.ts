/**
 * The Everything Report as markdown (CommonMark with GFM tables): a document a person reads top to
 * bottom. A headline, the summary table, the evidence, then one section per concern with its facts,
 * findings and fixes, and the sources cited.
 *
 * Pure and deterministic: the text depends only on the report value (no clock, no locale), so the
 * markdown of a snapshot, rendered from its stored JSON, is the same on every request.
 */
import type { SpfNode } from "../checks/spf/SpfNode.ts"
import type { Citation } from "./Citations.ts"
import { type Guidance, guidanceOf, providerNames } from "../score/Guidance.ts"
import { markdownWords, wordFor } from "./MarkdownText.ts"
import {
  fixImpact,
  gradeWord,
  headline,
  issueDescription,
  issueTitle,
  type Lang,
  recordTitle,
  reportStatement,
  reportWords,
  requiredBy,
  type Statement
} from "./ReportText.ts"
import { concerns } from "./Sections.ts"
import {
  checkSections,
  type EverythingReport,
  type Finding,
  type QuickScoreSection,
  type Section
} from "./ReportSchema.ts"
import type { SpfSectionExtra } from "../checks/spf/Section.ts"
import { nis2Lines } from "./Nis2Markdown.ts"
import { receivedLines } from "./ReceivedMarkdown.ts"

/** The SPF section: every section's fields and the lookup graph with flattening guidance. */
type SpfSection = Section & SpfSectionExtra

/** Text safe inside a table cell or a list item: no pipe breaks the row, no newline the item. */
const cell = (text: string) =>
  text
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|")
    .replace(/\s*\n\s*/g, " ")

/** Inline code that survives backticks inside it (CommonMark 6.1: a longer fence). */
const code = (text: string) => {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = "`".repeat(longest + 1)
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : ""
  return `${fence}${pad}${cell(text)}${pad}${fence}`
}

const table = (head: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): Array<string> => [
  `| ${head.join(" | ")} |`,
  `|${head.map(() => "---").join("|")}|`,
  ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`)
]

const link = (citations: ReadonlyArray<Citation>, key: string) => {
  const c = citations.find((x) => x.id === key)
  return c && c.url !== "" ? `[${cell(c.title.split(":")[0]!)}](${c.url})` : key
}

/** A section's title in `lang`: the Dutch one its check declares, or the report's own. */
const sectionTitle = (key: string, title: string, lang: Lang) =>
  lang === "en" ? title : (concerns.find((c) => c.key === key)?.titleNl ?? title)

/** A finding's guidance as nested list items: why, the numbered steps, provider notes, record. */
const guidanceLines = (g: Guidance, lang: Lang): Array<string> => {
  const w = reportWords(lang)
  return [
    `  - ${w.why}: ${cell(g.why)}`,
    `  - ${w.steps}:`,
    ...g.steps.map((step, i) => `    ${i + 1}. ${cell(step)}`),
    ...g.providers.map((p) => `  - ${providerNames[p.provider]}: ${cell(p.note)}`),
    ...(g.record === null ? [] : [`  - ${w.record}: ${code(g.record)}`])
  ]
}

/**
 * What the sections' lines are written with: the report's citations, the issues already shown in
 * full (a later section names them rather than repeating them), its domain and its language.
 */
interface Rendering {
  readonly citations: ReadonlyArray<Citation>
  readonly shown: Set<string>
  readonly domain: string
  readonly lang: Lang
}

/**
 * A section's findings in full; one another section already showed in full (the sender
 * requirements' view over the SPF, DMARC and other findings) is named, not repeated.
 */
const findingLines = (
  findings: ReadonlyArray<Finding>,
  { citations, shown, domain, lang }: Rendering
): Array<string> => {
  const w = markdownWords(lang)
  const shared = reportWords(lang)
  return findings.length === 0
    ? [w.noFindings]
    : findings.flatMap((f) => {
        const title = cell(issueTitle(f.issueId, f.title, lang))
        const severity = wordFor(w.severityWord, f.severity)
        if (shown.has(f.issueId)) return [`- **${title}** (${severity}, ${code(f.issueId)}): ${w.seeAbove}`]
        shown.add(f.issueId)
        const urls = (f.guidance?.references ?? []).filter((r) => /^https?:/.test(r))
        // A snapshot's guidance is the English it was made with; its Dutch is the catalogue's.
        const guidance = lang === "en" ? f.guidance : (guidanceOf(f.issueId, domain, lang) ?? f.guidance)
        return [
          `- **${title}** (${severity}, ${code(f.issueId)}): ${cell(issueDescription(f.issueId, f.description, lang))}`,
          ...(guidance === undefined ? [`  - ${w.fix}: ${cell(f.fix)}`] : guidanceLines(guidance, lang)),
          ...(f.generator === null ? [] : [`  - ${shared.generated}: ${code(f.generator)}`]),
          `  - ${shared.sources}: ${[...f.citations.map((k) => link(citations, k)), ...urls.map((u) => `<${u}>`)].join(", ")}`
        ]
      })
}

const graphLines = (node: SpfNode, depth: number, lang: Lang): Array<string> => {
  const w = markdownWords(lang)
  const label = [
    node.term ?? node.type,
    node.domain !== null && !(node.term ?? "").endsWith(node.domain) ? ` (${node.domain})` : "",
    `: ${wordFor(w.nodeStatus, node.status)}`,
    `, ${w.lookups(node.totalLookups)}`,
    node.errors.length > 0 ? `, ${node.errors.join("; ")}` : ""
  ].join("")
  const lines = [`${"  ".repeat(depth)}- ${cell(label)}`]
  // Only the terms that cost lookups or carry children: ip4/ip6 leaves add length, not insight.
  for (const child of node.children)
    if (child.totalLookups > 0 || child.children.length > 0 || child.errors.length > 0)
      lines.push(...graphLines(child, depth + 1, lang))
  return lines
}

const spfLines = (section: SpfSection, lang: Lang): Array<string> => {
  const w = markdownWords(lang)
  const out: Array<string> = []
  if (section.lookupGraph !== null)
    out.push("", w.lookupGraph, "", ...graphLines(section.lookupGraph, 0, lang))
  if (section.flattening !== null) {
    out.push("", w.flattening, "", ...section.flattening.advice.map((a) => `- ${cell(a)}`))
    if (section.flattening.overLimit)
      out.push(
        "",
        `${w.flattened}: ${code(section.flattening.flattened.record)}`,
        "",
        ...section.flattening.flattened.warnings.map((w) => `- ${cell(w)}`)
      )
  }
  return out
}

const sectionLines = (section: Section, rendering: Rendering): Array<string> => {
  const { citations, lang } = rendering
  const w = markdownWords(lang)
  const shared = reportWords(lang)
  return [
    `## ${sectionTitle(section.key, section.title, lang)}`,
    "",
    `${shared.columns.status}: **${wordFor(w.statusWord, section.status)}**` +
      (section.maxPoints > 0 ? w.points(section.points, section.maxPoints) : "") +
      (section.unknownReason !== null ? `. ${w.notFinished}: ${cell(section.unknownReason)}` : ""),
    "",
    ...(section.facts.length > 0
      ? [
          ...table(
            [w.fact, w.value],
            section.facts.map((f) => [f.label, f.value])
          ),
          ""
        ]
      : []),
    ...(section.records.length > 0
      ? [
          ...table(
            [shared.columns.check, shared.columns.status, shared.columns.points, shared.columns.detail],
            section.records.map((r) => [
              recordTitle(r.id, r.title, lang),
              wordFor(w.statusWord, r.status),
              `${r.points}/${r.maxPoints}`,
              r.detail
            ])
          ),
          ""
        ]
      : []),
    `**${w.findings}**`,
    "",
    ...findingLines(section.findings, rendering),
    ...("lookupGraph" in section ? spfLines(section as SpfSection, lang) : []),
    "",
    `${shared.sources}: ${section.sources.map((k) => link(citations, k)).join(", ")}`,
    ""
  ]
}

const quickLines = (q: QuickScoreSection, statement: Statement, rendering: Rendering): Array<string> => {
  const { lang } = rendering
  const w = markdownWords(lang)
  const shared = reportWords(lang)
  return [
    `## ${sectionTitle(q.key, q.title, lang)}`,
    "",
    `${w.grade(q.grade, cell(gradeWord(q.grade, q.gradeInfo.label, lang)), q.percentage, q.points, q.maxPoints)} ${cell(statement.description)}`,
    "",
    ...table(
      [shared.columns.category, w.percentage, shared.columns.points, shared.columns.status],
      Object.entries(q.categories).map(([k, c]) => [
        k,
        `${c.percentage}`,
        `${c.points}/${c.maxPoints}`,
        wordFor(w.statusWord, c.status)
      ])
    ),
    "",
    w.whatToFix(q.recommendations.length),
    "",
    ...(q.recommendations.length === 0
      ? [w.nothingToFix]
      : q.recommendations.map((r) =>
          [
            `1. **${cell(issueTitle(r.id, r.title, lang))}** (${wordFor(w.severityWord, r.priority)}, ${fixImpact(r, lang)}): ${cell(issueDescription(r.id, r.description, lang))}`,
            requiredBy(r, lang)
          ]
            .filter((part) => part !== "")
            .join(" ")
        )),
    ...(q.findings.length > 0
      ? ["", `**${w.otherFindings}**`, "", ...findingLines(q.findings, rendering)]
      : []),
    ""
  ]
}

/**
 * The report as a markdown document in `lang`: its words, the grade's word, the findings' titles,
 * descriptions and guidance; the checks' details and the NIS2 table stay as the report has them.
 */
export const renderMarkdown = (report: EverythingReport, lang: Lang = "en"): string => {
  const { summary, evidence, citations } = report
  const w = markdownWords(lang)
  const shared = reportWords(lang)
  const sections = checkSections(report.sections)
  const rendering: Rendering = { citations, shown: new Set<string>(), domain: report.domain, lang }
  const lines = [
    `# ${w.title}: ${cell(report.domain)}`,
    "",
    `> ${cell(headline(report, lang))}`,
    "",
    w.generated(report.generatedAt, report.scoringVersion, report.formatVersion),
    "",
    `## ${w.summary}`,
    "",
    ...table(
      [w.section, shared.columns.status, w.findings],
      summary.sections.map((s) => [
        s.key === "nis2" && lang === "nl" ? "NIS2-gereedheid" : sectionTitle(s.key, s.title, lang),
        wordFor(w.statusWord, s.status),
        String(s.findings)
      ])
    ),
    "",
    ...(summary.unknownChecks.length > 0
      ? [w.unfinished, "", ...summary.unknownChecks.map((u) => `- ${code(u.check)}: ${cell(u.reason)}`), ""]
      : []),
    `## ${w.evidence}`,
    "",
    `- ${w.contentHash(code(evidence.contentHash))}`,
    ...(evidence.snapshotId !== ""
      ? [
          `- ${w.snapshot(code(evidence.snapshotId), evidence.createdAt ?? "")}`,
          `- JSON: ${evidence.snapshotUrl}`,
          `- Markdown: ${evidence.snapshotMarkdownUrl}`
        ]
      : [`- ${w.notStored(evidence.snapshotCreateUrl)}`]),
    `- ${w.liveReport}: ${evidence.liveReportUrl}`,
    `- ${w.retention}: ${evidence.retentionPolicy}. ${cell(w.retentionNotice(evidence.retentionNotice))}`,
    "",
    ...quickLines(report.sections.quickScore, reportStatement(report, lang), rendering),
    // The checks' sections, in the report's order: between the quick score and NIS2.
    ...[...sections.values()].flatMap((section) => sectionLines(section, rendering)),
    ...receivedLines(report.domain, report.reportsReceived, cell, table),
    ...nis2Lines(report.sections.nis2, lang, cell, table),
    `## ${shared.sources}`,
    "",
    ...citations.map(
      (c) => `- ${code(c.id)}: ${c.url !== "" ? `[${cell(c.title)}](${c.url})` : cell(c.title)}`
    ),
    ""
  ]
  return lines.join("\n")
}
