/**
 * What the markdown report (Markdown.ts) says around the report's values, in English and Dutch.
 * The words shared with the PDF (the grade's word, the findings' titles, what a fix regains, the
 * headings of a finding's guidance and sources, the tables' column names) are in ReportText.ts.
 * Pure.
 */
import type { Lang } from "../score/Nis2Text.ts"
import { retentionNotice } from "./ReportSchema.ts"

export interface MarkdownWords {
  readonly title: string
  readonly generated: (at: string, scoring: string, format: string) => string
  readonly summary: string
  readonly section: string
  readonly findings: string
  readonly unfinished: string
  readonly evidence: string
  readonly noFindings: string
  readonly seeAbove: string
  readonly fix: string
  readonly points: (points: number, max: number) => string
  readonly notFinished: string
  readonly fact: string
  readonly value: string
  readonly grade: (grade: string, word: string, percentage: number, points: number, max: number) => string
  readonly percentage: string
  readonly whatToFix: (n: number) => string
  readonly nothingToFix: string
  readonly otherFindings: string
  readonly statusWord: Readonly<Record<string, string>>
  readonly severityWord: Readonly<Record<string, string>>
  /** The evidence section's lines (the report's own values in them). */
  readonly contentHash: (hash: string) => string
  readonly snapshot: (id: string, at: string) => string
  readonly notStored: (createUrl: string) => string
  readonly liveReport: string
  readonly retention: string
  /** The retention notice the report carries in English, said in Dutch (the same policy). */
  readonly retentionNotice: (english: string) => string
  /** The SPF section's lookup graph and flattening guidance. */
  readonly lookupGraph: string
  readonly flattening: string
  readonly flattened: string
  readonly lookups: (n: number) => string
  readonly nodeStatus: Readonly<Record<string, string>>
}

const en: MarkdownWords = {
  title: "Everything Report",
  generated: (at, scoring, format) => `Generated ${at} (scoring ${scoring}, format ${format}).`,
  summary: "Summary",
  section: "Section",
  findings: "Findings",
  unfinished: "Checks that could not finish (their sections say unknown, never fail):",
  evidence: "Evidence",
  noFindings: "No findings.",
  seeAbove: "see above.",
  fix: "Fix",
  points: (points, max) => `, ${points} of ${max} points`,
  notFinished: "Not finished",
  fact: "Fact",
  value: "Value",
  grade: (grade, word, percentage, points, max) =>
    `Grade **${grade}** (${word}), ${percentage}/100 (${points} of ${max} points).`,
  percentage: "Percentage",
  whatToFix: (n) => `**What to fix** (${n}), most points regained first, then the most severe`,
  nothingToFix: "Nothing to fix.",
  otherFindings: "Other findings",
  statusWord: {},
  severityWord: {},
  contentHash: (hash) =>
    `Content hash: ${hash} (SHA-256 of the RFC 8785 canonical JSON of the report without \`evidence\`)`,
  snapshot: (id, at) => `Snapshot: ${id}, stored ${at}`,
  notStored: (url) => `Live report, not stored. Keep a fixed copy as a snapshot: \`POST ${url}\``,
  liveReport: "Live report",
  retention: "Retention",
  retentionNotice: (english) => english,
  lookupGraph: "**Lookup graph** (terms that cost DNS lookups)",
  flattening: "**Flattening guidance**",
  flattened: "Flattened record",
  lookups: (n) => `${n} lookup${n === 1 ? "" : "s"}`,
  nodeStatus: {}
}

const nl: MarkdownWords = {
  title: "Volledig rapport",
  generated: (at, scoring, format) => `Gemaakt op ${at} (scoreversie ${scoring}, formaat ${format}).`,
  summary: "Samenvatting",
  section: "Onderdeel",
  findings: "Bevindingen",
  unfinished:
    "Controles die niet konden worden afgerond (hun onderdelen zeggen onbekend, nooit onvoldoende):",
  evidence: "Bewijs",
  noFindings: "Geen bevindingen.",
  seeAbove: "zie hierboven.",
  fix: "Herstel",
  points: (points, max) => `, ${points} van ${max} punten`,
  notFinished: "Niet afgerond",
  fact: "Gegeven",
  value: "Waarde",
  grade: (grade, word, percentage, points, max) =>
    `Cijfer **${grade}** (${word}), ${percentage}/100 (${points} van ${max} punten).`,
  percentage: "Percentage",
  whatToFix: (n) =>
    `**Wat te verbeteren** (${n}), wat de meeste punten oplevert eerst, daarna het ernstigste`,
  nothingToFix: "Niets te verbeteren.",
  otherFindings: "Andere bevindingen",
  statusWord: {
    pass: "geslaagd",
    partial: "deels",
    fail: "onvoldoende",
    unknown: "onbekend",
    "not-applicable": "niet van toepassing",
    info: "informatie"
  },
  severityWord: { critical: "kritiek", high: "hoog", medium: "middel", low: "laag", info: "informatie" },
  contentHash: (hash) =>
    `Inhoudshash: ${hash} (SHA-256 van de canonieke JSON volgens RFC 8785 van het rapport zonder \`evidence\`)`,
  snapshot: (id, at) => `Momentopname: ${id}, bewaard op ${at}`,
  notStored: (url) =>
    `Actueel rapport, niet bewaard. Bewaar een vaste kopie als momentopname: \`POST ${url}\``,
  liveReport: "Actueel rapport",
  retention: "Bewaartermijn",
  retentionNotice: (english) =>
    english !== retentionNotice
      ? english
      : "Bewaarde momentopnamen verlopen niet. Een momentopname wordt alleen verwijderd om misbruik te voorkomen, om wettelijke redenen of voor de goede werking van de dienst, door een uitdrukkelijke en vastgelegde handeling van de beheerder; ze wordt nooit gewijzigd.",
  lookupGraph: "**Lookupgraaf** (termen die DNS-lookups kosten)",
  flattening: "**Advies over afvlakken (flattening)**",
  flattened: "Afgevlakt record",
  lookups: (n) => `${n} lookup${n === 1 ? "" : "s"}`,
  nodeStatus: {
    ok: "in orde",
    missing: "ontbreekt",
    multiple: "meerdere records",
    invalid: "ongeldig",
    unknown: "onbekend",
    void: "leeg (void)",
    loop: "lus",
    depth: "te diep",
    macro: "macro",
    budget: "lookupbudget op",
    "not-evaluated": "niet geëvalueerd"
  }
}

/** The markdown's words in `lang`. */
export const markdownWords = (lang: Lang): MarkdownWords => (lang === "nl" ? nl : en)

/** A status or severity in `lang`: the table's word, or the value itself where it has none. */
export const wordFor = (table: Readonly<Record<string, string>>, value: string): string =>
  Object.hasOwn(table, value) ? table[value]! : value
