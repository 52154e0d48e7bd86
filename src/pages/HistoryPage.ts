/**
 * A domain's history as a page: the grade over time as an SVG chart (drawn in the page with
 * presentation attributes only, so the CSP needs no style or image source for it; a table beside it
 * says the same in text, WCAG 1.1.1), whether the hash chain verifies, and what changed between
 * each scan and the one before, most recent first: the lines of each diff (monitor/DiffLines.ts),
 * the grade first, each change in its own sentence except the checks that no longer apply, one
 * line per area with the checks folded under it. In the table, scans that changed nothing since the
 * scan before are folded into one row per stretch (a monitor runs daily for months between
 * changes). Pure: it renders the values GET /api/history/{domain} and its diffs answer.
 */
import { type Html, html, join } from "./Html.ts"
import { page, severityBadge, statusBadge, table, withLang } from "./Layout.ts"
import { pathsOf } from "./ReportPage.ts"
import { type Lang, words } from "./Text.ts"

export interface HistoryView {
  readonly domain: string
  readonly entries: ReadonlyArray<{
    readonly seq: number
    readonly scannedAt: string
    readonly grade: string
    readonly percentage: number
    readonly hash: string
  }>
  readonly chainValid: boolean
  readonly invalidSeq: number | null
  /** Each entry's changes from the one before it, as lines in the diff's order (the first entry has none). */
  readonly steps: ReadonlyArray<{
    readonly to: number
    readonly lines: ReadonlyArray<{
      readonly severity: string
      readonly summary: string
      /** The checks a grouped line stands for; empty for a line of one change. */
      readonly checks: ReadonlyArray<string>
    }>
  }>
}

const W = 720
const H = 240
const PAD = { left: 44, right: 16, top: 16, bottom: 32 }

/** The percentage of every entry, left to right by time, on a 0-100 axis with grade bands. */
export const gradeChart = (view: HistoryView, lang: Lang): Html => {
  const w = words(lang)
  const n = view.entries.length
  const times = view.entries.map((e) => Date.parse(e.scannedAt))
  const t0 = Math.min(...times)
  const span = Math.max(1, Math.max(...times) - t0)
  const x = (i: number) =>
    PAD.left +
    (n === 1 ? (W - PAD.left - PAD.right) / 2 : ((times[i]! - t0) / span) * (W - PAD.left - PAD.right))
  const y = (p: number) => PAD.top + ((100 - p) / 100) * (H - PAD.top - PAD.bottom)
  const points = view.entries.map((e, i) => `${x(i).toFixed(1)},${y(e.percentage).toFixed(1)}`).join(" ")
  const grid = [0, 50, 70, 80, 90, 100].map(
    (p) =>
      html`<line
          x1="${PAD.left}"
          x2="${W - PAD.right}"
          y1="${y(p).toFixed(1)}"
          y2="${y(p).toFixed(1)}"
          stroke="#d3d8de"
          stroke-width="1"
        /><text
          x="${PAD.left - 6}"
          y="${(y(p) + 4).toFixed(1)}"
          text-anchor="end"
          font-size="11"
          fill="#4a5360"
          >${p}</text
        >`
  )
  const first = view.entries[0]
  const last = view.entries[n - 1]
  return html`<svg
    class="chart"
    viewBox="0 0 ${W} ${H}"
    role="img"
    aria-labelledby="chart-title chart-desc"
    xmlns="http://www.w3.org/2000/svg"
  >
    <title id="chart-title">${w.historyChart}</title>
    <desc id="chart-desc">
      ${first === undefined || last === undefined ? "" : `${first.grade} (${first.percentage}%) → ${last.grade} (${last.percentage}%), ${n}`}
    </desc>
    ${grid}
    <polyline points="${points}" fill="none" stroke="#0b57a4" stroke-width="2.5" />
    ${join(view.entries.map((e, i) => html`<circle cx="${x(i).toFixed(1)}" cy="${y(e.percentage).toFixed(1)}" r="4" fill="#0b57a4" /><text x="${x(i).toFixed(1)}" y="${(y(e.percentage) - 8).toFixed(1)}" text-anchor="middle" font-size="11" fill="#1b1f24">${e.grade}</text>`))}
  </svg>`
}

type Entry = HistoryView["entries"][number]

/**
 * The table's rows, newest first: an entry whose diff from the one before is known to be empty joins
 * the stretch of such entries before it (one row for the stretch); any other entry is a row of its own.
 */
export const tableRows = (view: HistoryView): ReadonlyArray<ReadonlyArray<Entry>> => {
  const unchanged = new Set(view.steps.filter((s) => s.lines.length === 0).map((s) => s.to))
  const rows: Array<{ entries: Array<Entry>; unchanged: boolean }> = []
  for (const e of view.entries) {
    const last = rows[rows.length - 1]
    if (unchanged.has(e.seq) && last?.unchanged) last.entries.push(e)
    else rows.push({ entries: [e], unchanged: unchanged.has(e.seq) })
  }
  return rows.map((r) => r.entries).reverse()
}

const when = (e: Entry) =>
  html`<time datetime="${e.scannedAt}">${e.scannedAt.replace("T", " ").slice(0, 19)} UTC</time>`

export const historyPage = (view: HistoryView, lang: Lang): Html => {
  const w = words(lang)
  const paths = pathsOf(view.domain)
  const recent = [...view.steps].filter((s) => s.lines.length > 0).reverse()
  return page({
    lang,
    title: `${w.historyTitle}: ${view.domain}`,
    path: paths.history,
    body: html`<h1>${w.historyTitle}: <span class="mono">${view.domain}</span></h1>
      <p>
        ${view.chainValid ? statusBadge("pass", lang) : statusBadge("fail", lang)}
        ${view.chainValid ? w.chainValid : `${w.chainInvalid} ${view.invalidSeq ?? ""}`}
      </p>
      ${view.entries.length > 0 ? gradeChart(view, lang) : ""}
      ${table(
        w.historyTitle,
        ["#", w.scannedAt, w.grade, w.score],
        tableRows(view).map((row) => {
          const [first, last] = [row[0]!, row[row.length - 1]!]
          return row.length === 1
            ? [String(first.seq), when(first), first.grade, `${first.percentage}%`]
            : [
                `${first.seq}–${last.seq}`,
                html`${when(first)} – ${when(last)} (${w.unchangedScans(row.length)})`,
                last.grade,
                `${last.percentage}%`
              ]
        })
      )}
      <section aria-labelledby="changes">
        <h2 id="changes">${w.changes}</h2>
        ${
          recent.length === 0
            ? html`<p>${w.noChanges}</p>`
            : recent.map(
                (s) =>
                  html`<h3>#${s.to}</h3>
                    <ul>
                      ${s.lines.map(
                        (l) =>
                          html`<li>
                            ${severityBadge(l.severity, lang)} ${l.summary}
                            ${
                              l.checks.length === 0
                                ? ""
                                : html`<details>
                                    <summary>${w.whichChecks} (${l.checks.length})</summary>
                                    <ul>
                                      ${l.checks.map((t) => html`<li>${t}</li>`)}
                                    </ul>
                                  </details>`
                            }
                          </li>`
                      )}
                    </ul>`
              )
        }
      </section>
      <p>
        <a href="${withLang(paths.report, lang)}">${w.reportTitle}: ${view.domain}</a> ·
        <a href="/api/history/${encodeURIComponent(view.domain)}">${w.json}</a>
      </p>`
  })
}
