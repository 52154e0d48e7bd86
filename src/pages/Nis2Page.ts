/**
 * The NIS2 readiness scorecard as a page (docs/nis2.md): the weighted total and status, the critical
 * gaps, and per Article 21(2) measure its status, the evidence behind it and the fixes, in the
 * scorecard's own language (the score translates it, `score/Nis2Text.ts`). A readiness indicator
 * only: the caveat is shown as the scorecard words it. Pure.
 */
import type { Nis2Scorecard } from "../score/Nis2.ts"
import { type Html, html } from "./Html.ts"
import { measuredSentence } from "../score/Nis2Text.ts"
import { numberedList, page, statusBadge, table, withLang } from "./Layout.ts"
import { pathsOf } from "./ReportPage.ts"
import { type Lang, words } from "./Text.ts"

const measureBlock = (m: Nis2Scorecard["measures"][number], lang: Lang): Html => {
  const w = words(lang)
  return html`<section class="concern" id="measure-${m.id}" aria-labelledby="h-measure-${m.id}">
    <header>
      <h3 id="h-measure-${m.id}">${m.id}) ${m.label}</h3>
      ${statusBadge(m.status, lang)}<span class="note">${m.score}% · ${w.weight} ${m.weight}</span>
    </header>
    <p>${m.description}</p>
    <p class="note">${m.scope}</p>
    ${
      m.evidence.length > 0
        ? table(
            `${w.evidence}: ${m.label}`,
            [w.check_, w.result, w.detail],
            m.evidence.map((e) => [e.label, statusBadge(e.result, lang), e.detail])
          )
        : ""
    }
    ${numberedList(w.fixes, m.fixes)}
  </section>`
}

/** A measure as the table names it, "g) Basic cyber hygiene ...": its letter alone says nothing. */
const measureName = (card: Nis2Scorecard, id: string): string => {
  const measure = card.measures.find((m) => m.id === id)
  return measure === undefined ? id : `${id}) ${measure.label}`
}

export const nis2Page = (card: Nis2Scorecard, lang: Lang): Html => {
  const w = words(lang)
  const paths = pathsOf(card.domain)
  return page({
    lang,
    title: `${w.nis2Title}: ${card.domain}`,
    path: paths.nis2,
    body: html`<h1>${w.nis2Title}: <span class="mono">${card.domain}</span></h1>
      <p class="note">
        <time datetime="${card.scannedAt}">${card.scannedAt.replace("T", " ").slice(0, 19)} UTC</time>
      </p>
      <div class="hero">
        <div class="grade grade-${card.status === "compliant" ? "a" : card.status === "partial" ? "c" : "f"}">
          <span class="grade-letter">${card.total}</span><span class="grade-label">${w.nis2Total}</span>
        </div>
        <p class="headline">
          ${card.unscannable !== null ? html`${statusBadge(card.status, lang)} ${card.unscannable}` : measuredSentence(card.measures, lang)}
        </p>
      </div>
      <p>
        <strong>${w.criticalGaps}:</strong>
        ${card.criticalGaps.length === 0 ? w.noGaps : card.criticalGaps.map((g, i) => html`${i > 0 ? ", " : ""}<a href="#measure-${g}">${measureName(card, g)}</a>`)}
      </p>
      <p class="note">${card.caveat}</p>
      ${table(
        w.nis2Title,
        [w.measure, w.status, w.score, w.weight],
        card.measures.map((m) => [
          html`<a href="#measure-${m.id}">${m.id}) ${m.label}</a>`,
          statusBadge(m.status, lang),
          `${m.score}%`,
          String(m.weight)
        ])
      )}
      ${card.measures.map((m) => measureBlock(m, lang))}
      <p>
        <a href="${withLang(paths.report, lang)}">${w.reportTitle}: ${card.domain}</a> ·
        <a href="/api/scan/nis2?domain=${encodeURIComponent(card.domain)}&amp;lang=${lang}">${w.json}</a>
      </p>`
  })
}
