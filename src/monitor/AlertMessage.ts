/**
 * What an alert says, built once when the run fires it and stored with it, so every retry sends the
 * same bytes: the webhook's JSON body and the e-mail's subject and text. Pure.
 *
 * The webhook body follows the Standard Webhooks payload structure (`type`, `timestamp`, `data`);
 * the signature headers are added at each attempt (`AlertDelivery.ts`), since they carry the time of
 * sending.
 */
import type { Recommendation } from "../score/Fixes.ts"
import type { Change } from "./Change.ts"
import { type DiffLine, diffLines, lineText } from "./DiffLines.ts"
import { orderChanges, partOf } from "./DiffOrder.ts"
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
}

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
const withWarnings = (
  c: Pick<AlertContent, "changes" | "warnings">,
  text: (line: DiffLine) => string
): ReadonlyArray<string> => {
  const parts = new Map(c.changes.map((change) => [change.id, partOf(change)]))
  const lines = diffLines(c.changes)
  const news = (line: DiffLine) => ["grade", "worse"].includes(parts.get(line.ids[0]!) ?? "better")
  const after = lines.findIndex((line) => !news(line))
  const at = after < 0 ? lines.length : after
  return [...lines.slice(0, at).map(text), ...c.warnings.map((w) => w.summary), ...lines.slice(at).map(text)]
}

/** One sentence per line of the diff and per early warning, in the order above. */
export const summaries = (c: Pick<AlertContent, "changes" | "warnings">): ReadonlyArray<string> =>
  withWarnings(c, (line) => line.summary)

/** As `summaries`, with the checks a grouped line stands for named in it: the e-mail's lines. */
const mailLines = (c: Pick<AlertContent, "changes" | "warnings">): ReadonlyArray<string> =>
  withWarnings(c, lineText)

/** The webhook's JSON body. */
export const webhookBody = (c: AlertContent): string =>
  JSON.stringify({
    type: "monitor.alert",
    timestamp: c.createdAt,
    data: {
      alertId: c.alertId,
      monitor: { id: c.monitorId, domain: c.domain, every: c.every },
      domain: c.domain,
      scannedAt: c.scannedAt,
      grade: c.grade,
      rules: c.rules,
      summaries: summaries(c),
      changes: orderChanges(c.changes),
      warnings: c.warnings.map(({ rule, summary, expiresAt, daysLeft }) => ({
        rule,
        summary,
        expiresAt,
        daysLeft
      })),
      fixes: c.fixes.map(({ id, priority, title, impact, points, requiredBy }) => ({
        id,
        priority,
        title,
        impact,
        points,
        requiredBy
      })),
      links: alertLinks(c)
    }
  })

/** The e-mail: a subject naming the domain and the first line (the grade change, when there is one), and a plain-text body. */
export const emailMessage = (c: AlertContent): { readonly subject: string; readonly text: string } => {
  const lines = mailLines(c)
  const first = summaries(c)[0]
  const links = alertLinks(c)
  const more = lines.length > 1 ? ` (and ${lines.length - 1} more)` : ""
  const text = [
    `The monitor of ${c.domain} (every ${c.every}) found, in its scan of ${c.scannedAt}:`,
    "",
    ...lines.map((l) => `- ${l}`),
    "",
    `Grade: ${c.grade.before ?? "none"} -> ${c.grade.after ?? "none"}`,
    `Rules: ${c.rules.join(", ")}`,
    "",
    ...(c.fixes.length === 0
      ? ["Nothing to fix."]
      : [
          `What to fix (${c.fixes.length}), most points regained first:`,
          ...c.fixes.map((f, i) => `${i + 1}. ${f.title.replace(/^Fix: /, "")} (${f.priority}, ${f.impact})`)
        ]),
    "",
    `History: ${links.history}`,
    `Changes: ${links.diff}`,
    `Monitor: ${links.monitor}`,
    `Alerts: ${links.alerts}`,
    "",
    `Alert id: ${c.alertId}`
  ].join("\n")
  return { subject: `[domain-audit] ${c.domain}: ${first ?? "alert"}${more}`.slice(0, 200), text }
}
