/**
 * What an alert says, built once when the run fires it and stored with it, so every retry sends the
 * same bytes: the webhook's JSON body and the e-mail's subject and text. Pure.
 *
 * The webhook body follows the Standard Webhooks payload structure (`type`, `timestamp`, `data`);
 * the signature headers are added at each attempt (`AlertDelivery.ts`), since they carry the time of
 * sending.
 *
 * An alert is written in its monitor's language (`lang`): the diff's lines (DiffText.ts), the early
 * warnings, the fixes' titles and what each regains, and the e-mail's own words. Ids, rules, grades
 * and links are the same in every language.
 */
import { fixImpact, issueTitle, type Lang, reportWords } from "../report/ReportText.ts"
import type { Recommendation } from "../score/Fixes.ts"
import type { Change } from "./Change.ts"
import { type DiffLine, diffLines, lineText } from "./DiffLines.ts"
import { orderChanges, partOf } from "./DiffOrder.ts"
import { changeSentence } from "./DiffText.ts"
import type { AlertRule } from "./AlertRules.ts"
import type { Warning } from "./Warnings.ts"

export interface AlertContent {
  readonly alertId: string
  readonly monitorId: string
  readonly domain: string
  readonly every: string
  /** The API's base URL (ending in `/api`) as the monitor's creator reached it. */
  readonly baseUrl: string
  readonly scannedAt: string
  readonly createdAt: string
  readonly grade: { readonly before: string | null; readonly after: string | null }
  readonly rules: ReadonlyArray<AlertRule>
  readonly changes: ReadonlyArray<Change>
  readonly warnings: ReadonlyArray<Warning>
  /** The score's list of what to fix after this scan, in its order and count (score/Fixes.ts). */
  readonly fixes: ReadonlyArray<Recommendation>
  /** The language the alert is written in: its monitor's. */
  readonly lang: Lang
}

/** What summaries and lines read of an alert: its changes and warnings, in its language (English when absent). */
type Said = Pick<AlertContent, "changes" | "warnings"> & { readonly lang?: Lang }

const warningText = (w: Warning, lang: Lang) => (lang === "nl" ? w.summaryNl : w.summary)

/** Where a reader follows up: the monitor, its alerts, the domain's history, the diff and a live scan. */
export const alertLinks = (c: Pick<AlertContent, "baseUrl" | "monitorId" | "domain">) => {
  const d = encodeURIComponent(c.domain)
  const m = encodeURIComponent(c.monitorId)
  return {
    monitor: `${c.baseUrl}/monitors/${m}`,
    alerts: `${c.baseUrl}/monitors/${m}/alerts`,
    history: `${c.baseUrl}/history/${d}`,
    diff: `${c.baseUrl}/history/${d}/diff`,
    scan: `${c.baseUrl}/scan/quick?domain=${d}`
  }
}

/**
 * The diff's lines in its order (DiffOrder.ts: the grade change first, then what got worse, most
 * severe first; the checks that no longer apply one line per area; then what got better), each as
 * `text` says, with the early warnings after what got worse: a certificate that expires in 7 days
 * is news before an improvement or a check that no longer applies.
 */
const withWarnings = (c: Said, text: (line: DiffLine) => string): ReadonlyArray<string> => {
  const lang = c.lang ?? "en"
  const parts = new Map(c.changes.map((change) => [change.id, partOf(change)]))
  const lines = diffLines(c.changes, lang)
  const news = (line: DiffLine) => ["grade", "worse"].includes(parts.get(line.ids[0]!) ?? "better")
  const after = lines.findIndex((line) => !news(line))
  const at = after < 0 ? lines.length : after
  return [
    ...lines.slice(0, at).map(text),
    ...c.warnings.map((w) => warningText(w, lang)),
    ...lines.slice(at).map(text)
  ]
}

/** One sentence per line of the diff and per early warning, in the order above. */
export const summaries = (c: Said): ReadonlyArray<string> => withWarnings(c, (line) => line.summary)

/** As `summaries`, with the checks a grouped line stands for named in it: the e-mail's lines. */
const mailLines = (c: Said): ReadonlyArray<string> => withWarnings(c, lineText)

/** A fix's name in the alert's language, without the score's "Fix: " prefix. */
const fixTitle = (f: Recommendation, lang: Lang) => issueTitle(f.id, f.title, lang).replace(/^Fix: /, "")

/** The e-mail's own words. */
const MAIL_WORDS = {
  en: {
    found: (domain: string, every: string, at: string) =>
      `The monitor of ${domain} (every ${every}) found, in its scan of ${at}:`,
    grade: "Grade",
    none: "none",
    rules: "Rules",
    nothingToFix: "Nothing to fix.",
    whatToFix: (n: number) => `What to fix (${n}), most points regained first:`,
    history: "History",
    changes: "Changes",
    monitor: "Monitor",
    alerts: "Alerts",
    alertId: "Alert id",
    alert: "alert",
    more: (n: number) => `and ${n} more`
  },
  nl: {
    found: (domain: string, every: string, at: string) =>
      `De monitor van ${domain} (elke ${every}) vond bij de scan van ${at}:`,
    grade: "Cijfer",
    none: "geen",
    rules: "Regels",
    nothingToFix: "Niets te verbeteren.",
    whatToFix: (n: number) => `Wat te verbeteren (${n}), wat de meeste punten oplevert eerst:`,
    history: "Geschiedenis",
    changes: "Wijzigingen",
    monitor: "Monitor",
    alerts: "Meldingen",
    alertId: "Id van de melding",
    alert: "melding",
    more: (n: number) => `en ${n} meer`
  }
} as const

/** The webhook's JSON body. */
export const webhookBody = (c: AlertContent): string =>
  JSON.stringify({
    type: "monitor.alert",
    timestamp: c.createdAt,
    data: {
      alertId: c.alertId,
      lang: c.lang,
      monitor: { id: c.monitorId, domain: c.domain, every: c.every },
      domain: c.domain,
      scannedAt: c.scannedAt,
      grade: c.grade,
      rules: c.rules,
      summaries: summaries(c),
      changes: orderChanges(c.changes).map((change) => ({
        ...change,
        summary: changeSentence(change, c.lang)
      })),
      warnings: c.warnings.map((w) => ({
        rule: w.rule,
        summary: warningText(w, c.lang),
        expiresAt: w.expiresAt,
        daysLeft: w.daysLeft
      })),
      fixes: c.fixes.map((f) => ({
        id: f.id,
        priority: f.priority,
        title: c.lang === "en" ? f.title : fixTitle(f, c.lang),
        impact: fixImpact(f, c.lang),
        points: f.points,
        requiredBy: f.requiredBy
      })),
      links: alertLinks(c)
    }
  })

/** The e-mail: a subject naming the domain and the first line (the grade change, when there is one), and a plain-text body. */
export const emailMessage = (c: AlertContent): { readonly subject: string; readonly text: string } => {
  const w = MAIL_WORDS[c.lang]
  const lines = mailLines(c)
  const first = summaries(c)[0]
  const links = alertLinks(c)
  const more = lines.length > 1 ? ` (${w.more(lines.length - 1)})` : ""
  const priority = reportWords(c.lang).severity
  const text = [
    w.found(c.domain, c.every, c.scannedAt),
    "",
    ...lines.map((l) => `- ${l}`),
    "",
    `${w.grade}: ${c.grade.before ?? w.none} -> ${c.grade.after ?? w.none}`,
    `${w.rules}: ${c.rules.join(", ")}`,
    "",
    ...(c.fixes.length === 0
      ? [w.nothingToFix]
      : [
          w.whatToFix(c.fixes.length),
          ...c.fixes.map(
            (f, i) =>
              `${i + 1}. ${fixTitle(f, c.lang)} (${(priority[f.priority] ?? f.priority).toLowerCase()}, ${fixImpact(f, c.lang)})`
          )
        ]),
    "",
    `${w.history}: ${links.history}`,
    `${w.changes}: ${links.diff}`,
    `${w.monitor}: ${links.monitor}`,
    `${w.alerts}: ${links.alerts}`,
    "",
    `${w.alertId}: ${c.alertId}`
  ].join("\n")
  return { subject: `[domain-audit] ${c.domain}: ${first ?? w.alert}${more}`.slice(0, 200), text }
}
