/**
 * The "Reports received" part of a report page: what the DMARC aggregate reports (RFC 7489 7.2)
 * and SMTP TLS reports (RFC 8460) received for the domain say, from the report's `reportsReceived`
 * (report/ReceivedReports.ts). Whether p=reject would lose legitimate mail is said in plain words,
 * with the sources that stand in the way; with no reports, how to have them sent here. A report
 * without the field (made without the report store, or stored before reports carried it) shows
 * nothing. Pure.
 */
import type { ReceivedDmarc, ReceivedTls, ReportsReceived } from "../report/ReceivedReports.ts"
import { dmarcDetailPart, noDataWords, qualityPart, tlsDetailPart } from "./ReceivedDetail.ts"
import { type Html, html, safeUrl } from "./Html.ts"
import { statusBadge, table } from "./Layout.ts"
import { type Lang, words } from "./Text.ts"

/** A date-time as `2026-11-25 00:00 UTC`. */
const when = (at: string) => html`<time datetime="${at}">${at.replace("T", " ").slice(0, 16)} UTC</time>`

/** A share as a percentage with one decimal, in the language's notation. */
const percent = (rate: number | null, lang: Lang) =>
  rate === null ? "–" : `${(rate * 100).toFixed(1).replace(".", lang === "nl" ? "," : ".")}%`

const mono = (text: string | null) => (text === null ? "" : html`<span class="mono">${text}</span>`)

/** An address kept on one line: a table of four columns or more stacks on a narrow screen instead. */
const address = (ip: string) => html`<span class="mono nowrap">${ip}</span>`

const ruaList = (rua: ReadonlyArray<string>) =>
  html`${rua.map((u, i) => html`${i > 0 ? ", " : ""}<code>${u}</code>`)}`

/** No reports of a kind: say so, and how the domain gets them sent here. */
const none = (
  lang: Lang,
  said: { readonly none: string; readonly how: string },
  rua: ReadonlyArray<string>,
  postPath: string
): Html => {
  const w = words(lang).received
  return html`<p>${said.none}</p>
    <p>${rua.length > 0 ? html`${w.askedAt} ${ruaList(rua)}. ${w.askedAtHint}` : said.how}</p>
    <p>${w.orPost} <code>POST ${postPath}</code></p>`
}

/** Ready for p=reject, in words; a domain at p=reject already loses the blockers' mail now. */
const readiness = (dmarc: ReceivedDmarc, atReject: boolean, lang: Lang): Html => {
  const w = words(lang).received
  const r = dmarc.readyForReject
  const verdict =
    r.verdict === "ready"
      ? html`${statusBadge("pass", lang)} ${atReject ? w.readyAtReject : w.ready}`
      : r.verdict === "not-ready"
        ? html`${statusBadge("fail", lang)}
          ${atReject ? w.notReadyAtReject(r.blockersTotal) : w.notReady(r.blockersTotal)}`
        : html`${statusBadge("unknown", lang)} ${noDataWords(dmarc, lang)}`
  return html`<p><strong>${w.readyTitle}</strong> ${verdict}</p>
    ${
      r.blockers.length > 0
        ? table(
            w.blockers,
            [w.source, w.ptr, w.provider, w.messages, w.align],
            r.blockers.map((b) => [
              address(b.ip),
              mono(b.ptr),
              b.provider ?? "",
              String(b.messages),
              b.reason
            ])
          )
        : ""
    }`
}

const dmarcPart = (dmarc: ReceivedDmarc, received: ReportsReceived, lang: Lang): Html => {
  const w = words(lang).received
  return html`<dl class="pairs">
      <dt>${w.reports}</dt>
      <dd>
        ${dmarc.reports}${dmarc.reporters.length > 0 ? ` (${w.from} ${dmarc.reporters.join(", ")})` : ""}
      </dd>
      <dt>${w.messages}</dt>
      <dd>${dmarc.messages}</dd>
      <dt>${w.passing}</dt>
      <dd>${dmarc.dmarcPass} (${percent(dmarc.passRate, lang)})</dd>
    </dl>
    ${readiness(dmarc, received.dmarcPolicy === "reject", lang)} ${qualityPart(dmarc, lang)}
    ${table(
      w.sources,
      [w.source, w.ptr, w.provider, w.messages, w.passing],
      dmarc.topSources.map((s) => [
        address(s.ip),
        mono(s.ptr),
        `${s.provider ?? ""}${s.forwarder ? `${s.provider === null ? "" : ", "}${w.forwarder}` : ""}`,
        String(s.messages),
        `${s.dmarcPass} (${percent(s.messages === 0 ? null : s.dmarcPass / s.messages, lang)})`
      ])
    )}
    ${dmarc.sourcesTotal > dmarc.topSources.length ? html`<p class="note">${w.ofTotal(dmarc.topSources.length, dmarc.sourcesTotal)}</p>` : ""}
    ${dmarcDetailPart(dmarc, lang)}
    <p><a href="${safeUrl(received.summaryUrls.dmarc)}">${w.fullDmarc}</a></p>`
}

const tlsPart = (tls: ReceivedTls, url: string, lang: Lang): Html => {
  const w = words(lang).received
  return html`<dl class="pairs">
      <dt>${w.reports}</dt>
      <dd>${tls.reports}${tls.reporters.length > 0 ? ` (${w.from} ${tls.reporters.join(", ")})` : ""}</dd>
      <dt>${w.sessions}</dt>
      <dd>
        ${tls.sessions.successful} ${w.successful}, ${tls.sessions.failed} ${w.failed}
        (${percent(tls.successRate, lang)} ${w.successful})
      </dd>
    </dl>
    ${
      tls.failuresByResultType.length > 0
        ? table(
            w.failuresByType,
            [w.resultType, w.sessions],
            tls.failuresByResultType.map((f) => [mono(f.resultType), String(f.sessions)])
          )
        : ""
    }
    ${
      tls.failuresByMx.length > 0
        ? table(
            w.failuresByMx,
            ["MX", w.sessions],
            tls.failuresByMx.map((f) => [mono(f.mx), String(f.sessions)])
          )
        : ""
    }
    ${table(
      w.policies,
      [w.policy, w.successfulHead, w.failedHead],
      tls.byPolicy.map((p) => [
        html`${p.policyType} ${mono(p.policyDomain)}`,
        String(p.successful),
        String(p.failed)
      ])
    )}
    ${tlsDetailPart(tls, lang)}
    <p><a href="${safeUrl(url)}">${w.fullTls}</a></p>`
}

/** The section, or nothing when the report carries no `reportsReceived`. */
export const receivedSection = (
  domain: string,
  received: ReportsReceived | undefined,
  lang: Lang
): Html | "" => {
  if (received === undefined) return ""
  const w = words(lang).received
  if (received.private === true)
    return html`<section aria-labelledby="received">
      <h2 id="received">${w.title}</h2>
      <p>${w.private}</p>
    </section>`
  return html`<section aria-labelledby="received">
    <h2 id="received">${w.title}</h2>
    <p>${introOf(received, lang)}</p>
    <h3 id="received-dmarc">${w.dmarcTitle}</h3>
    ${
      received.dmarc === null
        ? none(lang, { none: w.noneDmarc, how: w.howDmarc(domain) }, received.rua.dmarc, "/api/reports/dmarc")
        : dmarcPart(received.dmarc, received, lang)
    }
    <h3 id="received-tls">${w.tlsTitle}</h3>
    ${
      received.tls === null
        ? none(lang, { none: w.noneTls, how: w.howTls(domain) }, received.rua.tls, "/api/reports/tls")
        : tlsPart(received.tls, received.summaryUrls.tls, lang)
    }
    ${
      received.failureReports === undefined
        ? ""
        : html`<p id="received-failure">
            ${w.failureReports(received.failureReports)}
            <a href="${safeUrl(received.summaryUrls.dmarc.replace("/reports/dmarc/", "/reports/failure/"))}"
              >${w.failureSummary}</a
            >
          </p>`
    }
  </section>`
}

/** The intro with the period's two times as `<time>` elements. */
const introOf = (received: ReportsReceived, lang: Lang): Html => {
  const marker = "\u0000"
  const [before = "", middle = "", after = ""] = words(lang).received.intro(marker, marker).split(marker)
  return html`${before}${when(received.from)}${middle}${when(received.to)}${after}`
}
