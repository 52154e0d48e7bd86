/**
 * The "what if" page (`/preview/{domain}`, docs/preview.md): a form of records to publish and to
 * remove, prefilled with the live records a change usually starts from; submitted, the domain's
 * report as it will be once they are published (the report page's own body), with the changes
 * marked above it: the grade before and after, the issues fixed and created, every change in the
 * history's words. A change the preview refuses is shown beside the form. Pure: it renders the
 * values `POST /api/scan/preview` answers.
 */
import type { Change } from "../monitor/Change.ts"
import type { EverythingReport } from "../report/ReportSchema.ts"
import { type Html, html } from "./Html.ts"
import { gradeBlock, page, withLang } from "./Layout.ts"
import { previewWords } from "./PreviewWords.ts"
import { pathsOf, reportBody } from "./ReportPage.ts"
import { findingTitle } from "./ReportWords.ts"
import type { Lang } from "./Text.ts"

/** What the form holds: records to publish and to remove, one per line. */
export interface PreviewFormText {
  readonly records: string
  readonly remove: string
}

/** What the page shows of a preview's answer (`POST /api/scan/preview`'s PreviewScore). */
export interface PreviewOutcome {
  readonly grade: string
  readonly percentage: number
  readonly compared: {
    readonly live: { readonly grade: string; readonly percentage: number }
    readonly changes: ReadonlyArray<Change>
    readonly summary: ReadonlyArray<string>
  }
  readonly notJudged: ReadonlyArray<{ readonly name: string; readonly type: string }>
}

export interface PreviewView {
  readonly domain: string
  readonly form: PreviewFormText
  /** Why the submitted form cannot be previewed (the 400's message). */
  readonly problem?: string | undefined
  readonly result?: { readonly report: EverythingReport; readonly score: PreviewOutcome } | undefined
}

/** An issue change's title in the page's language (its catalogue title, translated where known). */
const issueTitle = (change: Change, lang: Lang): string => {
  const side = (change.kind === "issue-closed" ? change.before : change.after) as {
    readonly id?: string
    readonly title?: string
  } | null
  const id = side?.id ?? change.id.replace(/^issue\//, "")
  return findingTitle(id, side?.title ?? id, lang)
}

const issueList = (changes: ReadonlyArray<Change>, lang: Lang): Html => {
  const w = previewWords(lang)
  return changes.length === 0
    ? html`<p>${w.none}</p>`
    : html`<ul>
        ${changes.map((c) => html`<li>${issueTitle(c, lang)} <code>${c.id.replace(/^issue\//, "")}</code></li>`)}
      </ul>`
}

const formBlock = (view: PreviewView, lang: Lang): Html => {
  const w = previewWords(lang)
  return html`<form class="preview" method="post" action="${withLang(pathsOf(view.domain).preview, lang)}">
    ${
      view.problem === undefined
        ? ""
        : html`<div class="problem" role="alert" id="problem">
            <h2>${w.problem}</h2>
            <p>${view.problem}</p>
          </div>`
    }
    <label for="records">${w.records}</label>
    <p class="hint" id="records-hint">${w.recordsHelp}</p>
    <textarea id="records" name="records" rows="8" spellcheck="false" aria-describedby="records-hint">
${view.form.records}</textarea>
    <label for="remove">${w.remove}</label>
    <p class="hint" id="remove-hint">${w.removeHelp}</p>
    <textarea id="remove" name="remove" rows="3" spellcheck="false" aria-describedby="remove-hint">
${view.form.remove}</textarea>
    <button type="submit">${w.submit}</button>
  </form>`
}

const changesBlock = (score: PreviewOutcome, lang: Lang): Html => {
  const w = previewWords(lang)
  const { compared } = score
  const closed = compared.changes.filter((c) => c.kind === "issue-closed")
  const opened = compared.changes.filter((c) => c.kind === "issue-opened")
  return html`<section aria-labelledby="what-changes">
    <h2 id="what-changes">${w.result}</h2>
    <div class="hero">
      ${gradeBlock(compared.live.grade, `${w.live} · ${compared.live.percentage}%`, lang)}
      <span aria-hidden="true">→</span>
      ${gradeBlock(score.grade, `${w.previewed} · ${score.percentage}%`, lang)}
    </div>
    ${
      compared.changes.length === 0
        ? html`<p>${w.nothingChanges}</p>`
        : html`<h3>${w.fixed} (${closed.length})</h3>
            ${issueList(closed, lang)}
            <h3>${w.created} (${opened.length})</h3>
            ${issueList(opened, lang)}
            <h3>${w.changes}</h3>
            <ul>
              ${compared.summary.map((line) => html`<li>${line}</li>`)}
            </ul>`
    }
    ${
      score.notJudged.length === 0
        ? ""
        : html`<p class="note">
            ${w.notJudged} ${score.notJudged.map((n) => html`<code>${n.name} ${n.type}</code> `)}
          </p>`
    }
  </section>`
}

/** The page: the form (with the refusal beside it), and once previewed the changes and the report. */
export const previewPage = (view: PreviewView, lang: Lang): Html => {
  const w = previewWords(lang)
  const paths = pathsOf(view.domain)
  const intro = html`<p class="lead">${w.intro}</p>
    <p><a href="${withLang(paths.report, lang)}">${w.liveReport}</a></p>
    ${view.result === undefined ? "" : changesBlock(view.result.score, lang)} ${formBlock(view, lang)}`
  return page({
    lang,
    title: `${w.title}: ${view.domain}`,
    path: paths.preview,
    body:
      view.result === undefined
        ? html`<h1>${w.title}: <span class="mono">${view.domain}</span></h1>
            ${intro}`
        : reportBody(view.result.report, lang, {
            kind: "preview",
            title: w.title,
            intro: html`${intro}
              <p class="note">${w.previewNote}</p>`
          })
  })
}
