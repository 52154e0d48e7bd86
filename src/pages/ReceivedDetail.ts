/**
 * The analyst's part of the report page's "Reports received" (ReceivedBlock.ts), from the report's
 * `reportsReceived`: how far the period's reports can be taken at their word (repairs, conflicts,
 * sources a failed look-up left unclassified), mail by header-from domain (subdomains apart), the
 * days of the period, the identities that failed per source and the policy as receivers saw it
 * published (RFC 7489 C); for TLS, failures as senders described them and reports whose failure
 * details exceed their failed sessions (RFC 8460 4.3). Tables only, no script. Pure; nothing for a
 * report made before these were carried.
 */
import type { ReceivedDmarc, ReceivedTls } from "../report/ReceivedReports.ts"
import { type Html, html } from "./Html.ts"
import { table } from "./Layout.ts"
import { type Lang, words } from "./Text.ts"

const mono = (text: string | null) =>
  text === null || text === "" ? "" : html`<span class="mono">${text}</span>`
const address = (ip: string | null) => (ip === null ? "" : html`<span class="mono nowrap">${ip}</span>`)

/** The quality paragraph, with the unclassified sources when there are. */
export const qualityPart = (d: ReceivedDmarc, lang: Lang): Html | "" => {
  const q = d.quality
  if (q === undefined) return ""
  const w = words(lang).received
  return html`<p>
      <strong>${w.qualityTitle}:</strong> ${w.quality(q.repairedReports, q.conflicts, q.unclassifiedTotal)}
    </p>
    ${
      q.unclassified.length > 0
        ? table(
            w.unclassified,
            [w.source, w.messages, w.why],
            q.unclassified.map((u) => [address(u.ip), String(u.messages), u.reason])
          )
        : ""
    }`
}

/** "Not known" split: no message counted, or reports received whose failing sources a look-up left open. */
export const noDataWords = (d: ReceivedDmarc, lang: Lang): string => {
  const w = words(lang).received
  const n = d.quality?.unclassifiedTotal ?? 0
  return n > 0 ? w.noDataLookups(n) : w.noData
}

export const dmarcDetailPart = (d: ReceivedDmarc, lang: Lang): Html => {
  const w = words(lang).received
  const identities = d.topSources.flatMap((s) =>
    (s.failingIdentities ?? []).map((f) => [
      address(s.ip),
      f.method.toUpperCase(),
      mono(f.domain),
      mono(f.selector),
      f.result,
      String(f.messages)
    ])
  )
  const policies = d.policyPublished ?? []
  return html`${
    d.byHeaderFrom !== undefined && d.byHeaderFrom.length > 0
      ? table(
          w.byHeaderFrom,
          [w.headerFrom, w.messages, w.passing, w.failingHead],
          d.byHeaderFrom.map((h) => [
            mono(h.headerFrom),
            String(h.messages),
            String(h.dmarcPass),
            String(h.dmarcFail)
          ])
        )
      : ""
  }
  ${
    d.daily !== undefined && d.daily.length > 0
      ? table(
          w.daily,
          [w.day, w.messages, w.passing, w.failingHead],
          d.daily.map((x) => [
            html`<time datetime="${x.date}">${x.date}</time>`,
            String(x.messages),
            String(x.dmarcPass),
            String(x.dmarcFail)
          ])
        )
      : ""
  }
  ${identities.length > 0 ? table(w.failingIdentities, [w.source, w.method, w.domain, w.selector, w.result, w.messages], identities) : ""}
  ${
    policies.length > 0
      ? html`${policies.length > 1 ? html`<p>${w.policyDisagree}</p>` : ""}
        ${table(
          w.policySeen,
          ["p", "sp", "pct", "np", "testing", w.reports, w.reporters],
          policies.map((p) => [
            mono(p.p),
            mono(p.sp),
            p.pct === null ? "" : String(p.pct),
            mono(p.np),
            mono(p.testing),
            String(p.reports),
            p.reporters.join(", ")
          ])
        )}`
      : ""
  }`
}

export const tlsDetailPart = (t: ReceivedTls, lang: Lang): Html => {
  const w = words(lang).received
  const exceeding = t.failureDetailsExceedingTotal ?? []
  return html`${
    t.failureDetails !== undefined && t.failureDetails.length > 0
      ? table(
          w.failureDetails,
          [w.resultType, w.reasonCode, w.sendingMta, w.receivingMx, w.helo, w.receivingIp, w.sessions],
          t.failureDetails.map((f) => [
            mono(f.resultType),
            f.reasonCode ?? "",
            address(f.sendingMtaIp),
            mono(f.receivingMxHostname),
            mono(f.receivingMxHelo),
            address(f.receivingIp),
            String(f.sessions)
          ])
        )
      : ""
  }
  ${exceeding.map((o) => html`<p>${w.exceeding(o.reportId, o.reporter, o.detailSessions, o.failedSessions)}</p>`)}
  ${t.conflicts !== undefined && t.conflicts > 0 ? html`<p>${w.tlsConflicts(t.conflicts)}</p>` : ""}`
}
