/**
 * The pages that say why there is no report: an address with no page (404), a domain that does not
 * exist (NXDOMAIN: 404) or could not be scanned now (resolver down: 503), a snapshot that is not
 * there, too many requests (429) or a busy service (503), and a domain with no history (404). Each says it plainly, in the page's language, with the way back. Pure.
 */
import { type Html, html } from "./Html.ts"
import { notice, page } from "./Layout.ts"
import { type Lang, words } from "./Text.ts"

export interface ErrorPage {
  readonly status: number
  readonly html: Html
  /** Seconds, for Retry-After (429 and 503). */
  readonly retryAfter?: number
}

const frame = (lang: Lang, path: string, title: string, lines: ReadonlyArray<Html | string>) =>
  page({ lang, title, path, body: notice(lang, title, lines) })

export const notFoundPage = (lang: Lang, path: string): ErrorPage => {
  const w = words(lang)
  return { status: 404, html: frame(lang, path, w.notFoundTitle, [w.notFoundText]) }
}

/** A domain the scan could not grade: 404 when it does not exist, else 503 (try again later). */
export const unscannablePage = (
  lang: Lang,
  path: string,
  domain: string,
  nxdomain: boolean,
  reason: string
): ErrorPage => {
  const w = words(lang)
  const title = nxdomain ? w.nxTitle : w.unscannableTitle
  return {
    status: nxdomain ? 404 : 503,
    ...(nxdomain ? {} : { retryAfter: 60 }),
    html: frame(lang, path, title, [
      html`<span class="mono">${domain}</span>`,
      nxdomain ? w.nxText : w.unscannableText,
      html`<strong>${w.reason}:</strong> ${reason}`
    ])
  }
}

export const snapshotMissingPage = (lang: Lang, path: string, why: string): ErrorPage => {
  const w = words(lang)
  return { status: 404, html: frame(lang, path, w.snapshotMissingTitle, [why]) }
}

export const tooManyPage = (lang: Lang, path: string, retryAfter: number, why?: string): ErrorPage => {
  const w = words(lang)
  return {
    status: 429,
    retryAfter,
    html: frame(lang, path, w.rateTitle, [why ?? `${w.rateText} ${retryAfter} ${w.seconds}.`])
  }
}

export const busyPage = (lang: Lang, path: string, retryAfter: number): ErrorPage => {
  const w = words(lang)
  return { status: 503, retryAfter, html: frame(lang, path, w.busyTitle, [w.busyText]) }
}

export const historyMissingPage = (lang: Lang, path: string, why: string): ErrorPage => {
  const w = words(lang)
  return { status: 404, html: frame(lang, path, w.historyMissingTitle, [w.historyMissingText, why]) }
}

/** A history the page may not show: keys exist, and this is not the machine itself (docs/access.md). */
export const historyPrivatePage = (lang: Lang, path: string, domain: string): ErrorPage => {
  const w = words(lang)
  return { status: 403, html: frame(lang, path, w.historyPrivateTitle, [w.historyPrivateText(domain)]) }
}

export const failurePage = (lang: Lang, path: string, status: number, message: string): ErrorPage => ({
  status,
  html: frame(lang, path, words(lang).errorTitle, [message])
})
