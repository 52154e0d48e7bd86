/**
 * The frame every page shares: the document, its language, the style sheet (a file under /assets,
 * so the Content-Security-Policy needs no 'unsafe-inline'), the header with the language switch,
 * and the small pieces pages repeat: a status shown by colour, icon AND word (WCAG 1.4.1: colour is
 * never the only sign), tables with headers, definition lists. Pure.
 */
import { type Html, html, type Part } from "./Html.ts"
import { type Lang, words } from "./Text.ts"
import { STYLESHEET_PATH, ICON_PATH } from "./Assets.ts"

export interface PageFrame {
  readonly lang: Lang
  readonly title: string
  /** The page's own path (no query), for the language switch. */
  readonly path: string
  /** The page itself, inside `<main>`. */
  readonly body: Html
}

/** A link to `path` in `lang`: links between pages carry the language, so a reader stays in theirs. */
export const withLang = (path: string, lang: Lang) => `${path}${path.includes("?") ? "&" : "?"}lang=${lang}`

export const page = ({ lang, title, path, body }: PageFrame): Html => {
  const w = words(lang)
  const other: Lang = lang === "nl" ? "en" : "nl"
  return html`<!doctype html>
    <html lang="${lang}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title} · ${w.siteName}</title>
        <link rel="stylesheet" href="${STYLESHEET_PATH}" />
        <link rel="icon" href="${ICON_PATH}" type="image/svg+xml" />
      </head>
      <body>
        <a class="skip" href="#main">${w.skip}</a>
        <header class="site">
          <a class="brand" href="${withLang("/", lang)}">${w.siteName}</a>
          <nav aria-label="${w.siteName}">
            <ul>
              <li><a href="${withLang("/", lang)}">${w.navHome}</a></li>
              <li><a href="/api/docs">${w.navDocs}</a></li>
              <li>
                <a href="${withLang(path, other)}" hreflang="${other}" lang="${other}"
                  >${words(other).language}</a
                >
              </li>
            </ul>
          </nav>
        </header>
        <main id="main">${body}</main>
        <footer class="site">
          <p>${w.siteName} · <a href="/api/docs">${w.navDocs}</a></p>
        </footer>
      </body>
    </html> `
}

const ICONS: Readonly<Record<string, string>> = {
  pass: "✓",
  compliant: "✓",
  partial: "◐",
  warning: "!",
  fail: "✗",
  "non-compliant": "✗",
  missing: "✗",
  unknown: "?",
  unscannable: "?",
  "not-applicable": "–"
}

const TONE: Readonly<Record<string, string>> = {
  pass: "pass",
  compliant: "pass",
  partial: "partial",
  warning: "partial",
  fail: "fail",
  "non-compliant": "fail",
  missing: "fail",
  unknown: "unknown",
  unscannable: "unknown",
  "not-applicable": "na"
}

/** A status as icon and word on its colour; unknown statuses read as themselves, in grey. */
export const statusBadge = (status: string, lang: Lang): Html =>
  html`<span class="status tone-${TONE[status] ?? "na"}"
    ><span class="icon" aria-hidden="true">${ICONS[status] ?? "·"}</span>
    ${words(lang).statusWord[status] ?? status}</span
  >`

const SEVERITY_TONE: Readonly<Record<string, string>> = {
  critical: "fail",
  high: "fail",
  medium: "partial",
  low: "na",
  info: "na"
}

export const severityBadge = (severity: string, lang: Lang): Html =>
  html`<span class="status tone-${SEVERITY_TONE[severity] ?? "na"}"
    >${words(lang).severityWord[severity] ?? severity}</span
  >`

/** The grade in its colour band, with its label: the first thing a reader looks for. */
export const gradeBlock = (grade: string, label: string, lang: Lang): Html =>
  html`<div class="grade grade-${grade === "A+" ? "aplus" : grade.toLowerCase()}">
    <span class="grade-letter" aria-label="${words(lang).grade} ${grade}">${grade}</span
    ><span class="grade-label">${label}</span>
  </div>`

/** A table with a caption and column headers (scope="col"), each row's cells as given. */
export const table = (
  caption: string,
  head: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<Part>>,
  className = ""
): Html =>
  html`<div class="table-wrap"><table${className === "" ? "" : html` class="${className}"`}><caption>${caption}</caption><thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${rows.map(
    (r) =>
      html`<tr>
        ${r.map((c) => html`<td>${c}</td>`)}
      </tr>`
  )}</tbody></table></div>`

/** An error or notice page's body: a heading, what happened, and the way back. */
export const notice = (lang: Lang, title: string, lines: ReadonlyArray<Part>): Html =>
  html`<h1>${title}</h1>
    ${lines.map((l) => html`<p>${l}</p>`)}
    <p><a href="${withLang("/", lang)}">${words(lang).tryAgain}</a></p>`
