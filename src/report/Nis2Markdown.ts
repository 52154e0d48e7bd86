/**
 * The NIS2 readiness section of the markdown report, in English or Dutch. The report carries the
 * scorecard in English (Nis2Part.ts); a Dutch section names each measure, its status and its fixes
 * from the same ids, in the scorecard's Dutch (score/Nis2Text.ts and the catalogue's `nl(...)`).
 * Pure.
 */
import { catalogue, type IssueId } from "../score/Catalogue.ts"
import { fixText } from "../score/Nis2Fixes.ts"
import { type Lang, MEASURE_TEXT, measuredSentence, PHRASES } from "../score/Nis2Text.ts"
import type { Nis2Part } from "./Nis2Part.ts"
import { wordFor } from "./MarkdownText.ts"
import { reportWords } from "./ReportText.ts"

type Measure = Nis2Part["measures"][number]

const WORDS = {
  en: {
    heading: "NIS2 readiness",
    status: (label: string, total: number, at: string) =>
      `Status **${label}**, ${total}/100 (scanned ${at}).`,
    gaps: "Critical gaps:",
    head: ["Measure", "Status", "Score", "Weight"],
    measureStatus: {} as Readonly<Record<string, string>>
  },
  nl: {
    heading: "NIS2-gereedheid",
    status: (label: string, total: number, at: string) =>
      `Status **${label}**, ${total}/100 (gescand op ${at}).`,
    gaps: "Kritieke tekortkomingen:",
    head: ["Maatregel", "Status", "Score", "Gewicht"],
    measureStatus: {
      pass: "voldaan",
      warning: "deels",
      fail: "onvoldoende",
      "not-applicable": "niet van toepassing"
    } as Readonly<Record<string, string>>
  }
} as const

const isMeasure = (id: string): id is keyof typeof MEASURE_TEXT => Object.hasOwn(MEASURE_TEXT, id)

/** A measure's name in `lang`: the scorecard's own in English, the Directive's Dutch wording in Dutch. */
const labelOf = (m: Pick<Measure, "id" | "label">, lang: Lang) =>
  lang === "en" || !isMeasure(m.id) ? m.label : MEASURE_TEXT[m.id].label.nl

/** A fix line in `lang`: the catalogue's Dutch for the issue the English line names by its id. */
const fixIn = (fix: string, lang: Lang) => {
  const id = /\(([a-z0-9_]+)\): /.exec(fix)?.[1]
  return lang === "en" || id === undefined || !Object.hasOwn(catalogue, id)
    ? fix
    : fixText(id as IssueId, lang)
}

/** The NIS2 section's lines; `cell` and `table` are the markdown's own (Markdown.ts). */
export const nis2Lines = (
  nis2: Nis2Part,
  lang: Lang,
  cell: (text: string) => string,
  table: (head: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>) => Array<string>
): Array<string> => {
  const w = WORDS[lang]
  const status = reportWords(lang).readinessLabel[nis2.status] ?? nis2.status
  const gaps = nis2.criticalGaps.map((id) => {
    const m = nis2.measures.find((x) => x.id === id)
    return m === undefined ? id : `${id}) ${labelOf(m, lang)}`
  })
  return [
    `## ${w.heading}`,
    "",
    `${w.status(status, nis2.total, nis2.scannedAt)}` +
      (nis2.unscannable === null ? ` ${measuredSentence(nis2.measures, lang)}` : "") +
      (gaps.length === 0 ? "" : ` ${w.gaps} ${gaps.map(cell).join(", ")}.`),
    "",
    ...table(
      w.head,
      nis2.measures.map((m) => [
        `${m.id}) ${cell(labelOf(m, lang))}`,
        wordFor(w.measureStatus, m.status),
        String(m.score),
        String(m.weight)
      ])
    ),
    "",
    ...nis2.measures.flatMap((m) => m.fixes.map((fix) => `- ${m.id}: ${cell(fixIn(fix, lang))}`)),
    ...(nis2.measures.some((m) => m.fixes.length > 0) ? [""] : []),
    `> ${cell(lang === "en" ? nis2.caveat : PHRASES.caveat[lang])}`,
    ""
  ]
}
