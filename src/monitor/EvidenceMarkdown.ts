/**
 * The evidence over a period as markdown (`format=markdown`): the same content as the JSON, for a
 * file an auditor keeps, with the recipe to verify it by its hashes (docs/monitoring.md).
 */
import type { HeldShare, HistoryEvidence } from "./Evidence.ts"
import { diffLines, lineText } from "./DiffLines.ts"

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ")

const percent = (share: number | null) => (share === null ? "n/a" : `${(share * 100).toFixed(2)} %`)

const shareTable = (title: string, rows: ReadonlyArray<HeldShare>) => [
  `## ${title}`,
  "",
  "| | held pass | seconds pass / applied |",
  "|---|---:|---:|",
  ...rows.map(
    (r) =>
      `| ${cell(r.label)} (\`${r.id}\`) | ${percent(r.passShare)} | ${r.passSeconds} / ${r.appliedSeconds} |`
  ),
  ""
]

export const evidenceMarkdown = (evidence: HistoryEvidence): string =>
  [
    `# Evidence for ${evidence.domain}`,
    "",
    `Period: ${evidence.period.from} to ${evidence.period.to} (${evidence.observedSeconds} s observed).`,
    "",
    evidence.chainValid
      ? "The history's hash chain verifies."
      : `**The history's hash chain does not verify at seq ${evidence.invalidSeq}**: an entry was altered in storage.`,
    "",
    "## Entries",
    "",
    "| seq | scanned at | grade | % | content hash | entry hash | previous hash |",
    "|---:|---|---|---:|---|---|---|",
    ...evidence.entries.map(
      (e) =>
        `| ${e.seq} | ${e.scannedAt} | ${e.grade} | ${e.percentage} | \`${e.contentHash}\` | \`${e.hash}\` | ${e.previousHash === null ? "none" : `\`${e.previousHash}\``} |`
    ),
    "",
    ...shareTable("Score records: share of the period they held pass", evidence.checks),
    ...shareTable("NIS2 measures (Article 21(2)): share of the period they held pass", evidence.measures),
    "## Changes",
    "",
    ...(evidence.changes.every((s) => s.changes.length === 0)
      ? ["No change between the entries.", ""]
      : evidence.changes
          .filter((s) => s.changes.length > 0)
          .flatMap((s) => [
            `### From seq ${s.fromSeq} to seq ${s.toSeq} (${s.at})`,
            "",
            ...diffLines(s.changes).map((l) => `- ${l.severity}: ${cell(lineText(l))}`),
            ""
          ])),
    "## Verifying",
    "",
    "Each entry's scan is served at `GET /api/history/{domain}/{seq}`: the SHA-256 of the RFC 8785",
    "canonical JSON of its `scan` is the entry's content hash; each entry's hash is the SHA-256 of the",
    "canonical JSON of `{domain, seq, scannedAt, grade, percentage, contentHash, previousHash}`, and each",
    "`previousHash` is the hash of the entry before it (docs/monitoring.md).",
    ""
  ].join("\n")
