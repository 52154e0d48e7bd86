/**
 * The home page: a domain box that works without JavaScript (a plain GET form; the server
 * redirects `/?domain=` to the domain's report page) and the domains recently graded A+ (the hall
 * of fame, newest first). Pure.
 */
import { type Html, html } from "./Html.ts"
import { page, withLang } from "./Layout.ts"
import { pathsOf } from "./ReportPage.ts"
import { type Lang, words } from "./Text.ts"

/** What the page shows of the hall of fame (the store's shape, GET /api/hall-of-fame). */
export interface HallEntries {
  readonly entries: ReadonlyArray<{ readonly domain: string; readonly addedAt: number }>
}

/** How many of the hall of fame's domains the home page lists. */
export const HALL_ON_HOME = 12

/** The domain box; `value` refills it after a refusal, `error` says what was wrong. */
export const domainForm = (lang: Lang, value = "", error?: string): Html => {
  const w = words(lang)
  return html`<form class="domain" method="get" action="/" role="search">
    <label for="domain">${w.domainLabel}</label>
    <input
      id="domain"
      name="domain"
      type="text"
      inputmode="url"
      autocomplete="url"
      spellcheck="false"
      required
      maxlength="253"
      value="${value}"
      aria-describedby="domain-hint${error === undefined ? "" : " domain-error"}"
      ${error === undefined ? "" : html` aria-invalid="true"`}
    />
    <input type="hidden" name="lang" value="${lang}" />
    <button type="submit">${w.check}</button>
    <p class="hint" id="domain-hint">${w.domainHint}</p>
    ${error === undefined ? "" : html`<p class="hint" id="domain-error"><strong>${error}</strong></p>`}
  </form>`
}

export const homePage = (hall: HallEntries, lang: Lang, value = "", error?: string): Html => {
  const w = words(lang)
  const recent = hall.entries.slice(0, HALL_ON_HOME)
  return page({
    lang,
    title: w.homeTitle,
    path: "/",
    body: html`<h1>${error === undefined ? w.homeTitle : w.invalidTitle}</h1>
      <p class="lead">${w.homeIntro}</p>
      ${domainForm(lang, value, error)}
      <section aria-labelledby="hall">
        <h2 id="hall">${w.hallTitle}</h2>
        ${
          recent.length === 0
            ? html`<p>${w.hallEmpty}</p>`
            : html`<ol class="hall">
                ${recent.map(
                  (e) =>
                    html`<li>
                      <a href="${withLang(pathsOf(e.domain).report, lang)}">${e.domain}</a>
                      <span class="note"
                        >(<time datetime="${new Date(e.addedAt).toISOString()}"
                          >${new Date(e.addedAt).toISOString().slice(0, 10)}</time
                        >)</span
                      >
                    </li>`
                )}
              </ol>`
        }
      </section>`
  })
}
