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
import type { EverythingReport, Finding, QuickScoreSection, Section, Sections } from "./ReportSchema.ts"
import type { SpfSectionExtra } from "../checks/spf/Section.ts"

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

const findingLines = (findings: ReadonlyArray<Finding>, citations: ReadonlyArray<Citation>): Array<string> =>
  findings.length === 0
    ? ["No findings."]
    : findings.flatMap((f) => [
        `- **${cell(f.title)}** (${f.severity}, ${code(f.issueId)}): ${cell(f.description)}`,
        `  - Fix: ${cell(f.fix)}`,
        `  - Sources: ${f.citations.map((k) => link(citations, k)).join(", ")}`
      ])

const graphLines = (node: SpfNode, depth: number): Array<string> => {
  const label = [
    node.term ?? node.type,
    node.domain !== null && !(node.term ?? "").endsWith(node.domain) ? ` (${node.domain})` : "",
    `: ${node.status}`,
    `, ${node.totalLookups} lookup${node.totalLookups === 1 ? "" : "s"}`,
    node.errors.length > 0 ? `, ${node.errors.join("; ")}` : ""
  ].join("")
  const lines = [`${"  ".repeat(depth)}- ${cell(label)}`]
  // Only the terms that cost lookups or carry children: ip4/ip6 leaves add length, not insight.
  for (const child of node.children)
    if (child.totalLookups > 0 || child.children.length > 0 || child.errors.length > 0)
      lines.push(...graphLines(child, depth + 1))
  return lines
}

const spfLines = (section: SpfSection): Array<string> => {
  const out: Array<string> = []
  if (section.lookupGraph !== null)
    out.push("", "**Lookup graph** (terms that cost DNS lookups)", "", ...graphLines(section.lookupGraph, 0))
  if (section.flattening !== null) {
    out.push("", "**Flattening guidance**", "", ...section.flattening.advice.map((a) => `- ${cell(a)}`))
    if (section.flattening.overLimit)
      out.push(
        "",
        `Flattened record: ${code(section.flattening.flattened.record)}`,
        "",
        ...section.flattening.flattened.warnings.map((w) => `- ${cell(w)}`)
      )
  }
  return out
}

const sectionLines = (section: Section, citations: ReadonlyArray<Citation>): Array<string> => [
  `## ${section.title}`,
  "",
  `Status: **${section.status}**` +
    (section.maxPoints > 0 ? `, ${section.points} of ${section.maxPoints} points` : "") +
    (section.unknownReason !== null ? `. Not finished: ${cell(section.unknownReason)}` : ""),
  "",
  ...(section.facts.length > 0
    ? [
        ...table(
          ["Fact", "Value"],
          section.facts.map((f) => [f.label, f.value])
        ),
        ""
      ]
    : []),
  ...(section.records.length > 0
    ? [
        ...table(
          ["Check", "Status", "Points", "Detail"],
          section.records.map((r) => [r.title, r.status, `${r.points}/${r.maxPoints}`, r.detail])
        ),
        ""
      ]
    : []),
  "**Findings**",
  "",
  ...findingLines(section.findings, citations),
  ...("lookupGraph" in section ? spfLines(section as SpfSection) : []),
  "",
  `Sources: ${section.sources.map((k) => link(citations, k)).join(", ")}`,
  ""
]

const quickLines = (q: QuickScoreSection, citations: ReadonlyArray<Citation>): Array<string> => [
  `## ${q.title}`,
  "",
  `Grade **${q.grade}** (${cell(q.gradeInfo.label)}), ${q.percentage}/100 (${q.points} of ${q.maxPoints} points). ${cell(q.gradeInfo.description)}`,
  "",
  ...table(
    ["Category", "Percentage", "Points", "Status"],
    Object.entries(q.categories).map(([k, c]) => [
      k,
      `${c.percentage}`,
      `${c.points}/${c.maxPoints}`,
      c.status
    ])
  ),
  "",
  "**Recommendations**, most points first",
  "",
  ...(q.recommendations.length === 0
    ? ["None."]
    : q.recommendations.map(
        (r) => `1. **${cell(r.title)}** (${r.priority}, ${r.impact}): ${cell(r.description)}`
      )),
  ...(q.findings.length > 0 ? ["", "**Other findings**", "", ...findingLines(q.findings, citations)] : []),
  ""
]

const nis2Lines = (nis2: Sections["nis2"]): Array<string> => [
  "## NIS2 readiness",
  "",
  `Status **${nis2.status}**, ${nis2.total}/100 (scanned ${nis2.scannedAt}).` +
    (nis2.criticalGaps.length === 0 ? "" : ` Critical gaps: ${nis2.criticalGaps.join(", ")}.`),
  "",
  ...table(
    ["Measure", "Status", "Score", "Weight"],
    nis2.measures.map((m) => [`${m.id}) ${cell(m.label)}`, m.status, String(m.score), String(m.weight)])
  ),
  "",
  ...nis2.measures.flatMap((m) => m.fixes.map((fix) => `- ${m.id}: ${cell(fix)}`)),
  ...(nis2.measures.some((m) => m.fixes.length > 0) ? [""] : []),
  `> ${cell(nis2.caveat)}`,
  ""
]

/** The report as a markdown document. */
export const renderMarkdown = (report: EverythingReport): string => {
  const { summary, evidence, citations } = report
  const sections = report.sections as unknown as Record<string, Section>
  const lines = [
    `# Everything Report: ${cell(report.domain)}`,
    "",
    `> ${cell(summary.headline)}`,
    "",
    `Generated ${report.generatedAt} (scoring ${report.scoringVersion}, format ${report.formatVersion}).`,
    "",
    "## Summary",
    "",
    ...table(
      ["Section", "Status", "Findings"],
      summary.sections.map((s) => [s.title, s.status, String(s.findings)])
    ),
    "",
    ...(summary.unknownChecks.length > 0
      ? [
          "Checks that could not finish (their sections say unknown, never fail):",
          "",
          ...summary.unknownChecks.map((u) => `- ${code(u.check)}: ${cell(u.reason)}`),
          ""
        ]
      : []),
    "## Evidence",
    "",
    `- Content hash: ${code(evidence.contentHash)} (SHA-256 of the RFC 8785 canonical JSON of the report without \`evidence\`)`,
    ...(evidence.snapshotId !== ""
      ? [
          `- Snapshot: ${code(evidence.snapshotId)}, stored ${evidence.createdAt ?? ""}`,
          `- JSON: ${evidence.snapshotUrl}`,
          `- Markdown: ${evidence.snapshotMarkdownUrl}`
        ]
      : [
          `- Live report, not stored. Keep a fixed copy as a snapshot: \`POST ${evidence.snapshotCreateUrl}\``
        ]),
    `- Live report: ${evidence.liveReportUrl}`,
    `- Retention: ${evidence.retentionPolicy}. ${cell(evidence.retentionNotice)}`,
    "",
    ...quickLines(report.sections.quickScore, citations),
    // The checks' sections, in the report's order: between the quick score and NIS2.
    ...Object.entries(sections)
      .filter(([key]) => key !== "quickScore" && key !== "nis2")
      .flatMap(([, section]) => sectionLines(section, citations)),
    ...nis2Lines(report.sections.nis2),
    "## Sources",
    "",
    ...citations.map(
      (c) => `- ${code(c.id)}: ${c.url !== "" ? `[${cell(c.title)}](${c.url})` : cell(c.title)}`
    ),
    ""
  ]
  return lines.join("\n")
}
