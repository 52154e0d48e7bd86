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
                <a href="${withLang(path, other)}" hreflang="${other}" lang="${other}">${w.language}</a>
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

/** `table[key]` for the table's own keys only: a status read from a report may be any string. */
const own = (table: Readonly<Record<string, string>>, key: string): string | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined

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
export const statusBadge = (status: string, lang: Lang): Html => {
  // The icon and the first word stay on one line (a no-break space) when a narrow cell wraps the badge.
  const [first = "", ...rest] = (own(words(lang).statusWord, status) ?? status).split(" ")
  return html`<span class="status tone-${own(TONE, status) ?? "na"}"
    ><span class="nowrap"
      ><span class="icon" aria-hidden="true">${own(ICONS, status) ?? "·"}</span> ${first}</span
    >${rest.length > 0 ? ` ${rest.join(" ")}` : ""}</span
  >`
}

const SEVERITY_TONE: Readonly<Record<string, string>> = {
  critical: "fail",
  high: "fail",
  medium: "partial",
  low: "na",
  info: "na"
}

export const severityBadge = (severity: string, lang: Lang): Html =>
  html`<span class="status tone-${own(SEVERITY_TONE, severity) ?? "na"}"
    >${own(words(lang).severityWord, severity) ?? severity}</span
  >`

/** The grade in its colour band, with its label: the first thing a reader looks for. */
export const gradeBlock = (grade: string, label: string, lang: Lang): Html =>
  html`<div class="grade grade-${grade === "A+" ? "aplus" : grade.toLowerCase()}">
    <span class="grade-letter" aria-label="${words(lang).grade} ${grade}">${grade}</span
    ><span class="grade-label">${label}</span>
  </div>`

/**
 * A table with a caption and column headers (scope="col"), each row's cells as given. A table of
 * four columns or more stacks its cells on a narrow screen, each labelled with its column
 * (`data-label`, shown by the style sheet), instead of growing wider than the screen.
 */
export const table = (
  caption: string,
  head: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<Part>>
): Html =>
  html`<div class="table-wrap"><table${head.length > 3 ? html` class="stack"` : ""}><caption>${caption}</caption><thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${rows.map(
    (r) =>
      html`<tr>
        ${r.map((c, i) => html`<td data-label="${head[i] ?? ""}">${c}</td>`)}
      </tr>`
  )}</tbody></table></div>`

/** Steps to take under their title, numbered; nothing when there are none. */
export const numberedList = (title: string, items: ReadonlyArray<Part>): Html | "" =>
  items.length > 0
    ? html`<p><strong>${title}:</strong></p>
        <ol>
          ${items.map((item) => html`<li>${item}</li>`)}
        </ol>`
    : ""

/** An error or notice page's body: a heading, what happened, and the way back. */
export const notice = (lang: Lang, title: string, lines: ReadonlyArray<Part>): Html =>
  html`<h1>${title}</h1>
    ${lines.map((l) => html`<p>${l}</p>`)}
    <p><a href="${withLang("/", lang)}">${words(lang).tryAgain}</a></p>`
