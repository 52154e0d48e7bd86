/**
 * The "Reports received" section of the Everything Report's markdown (Markdown.ts): what the DMARC
 * aggregate reports (RFC 7489 7.2) and TLS reports (RFC 8460) received for the domain say, whether
 * p=reject would lose legitimate mail and what stands in the way; with none received, how to have
 * them sent. The same content as the report page's section. Pure.
 */
import { dmarcDetailLines, qualityLines, tlsDetailLines } from "./ReceivedDetailMarkdown.ts"
import type { ReceivedDmarc, ReceivedTls, ReportsReceived } from "./ReceivedReports.ts"

type Cell = (text: string) => string
type Table = (head: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>) => Array<string>

const percent = (rate: number | null) => (rate === null ? "–" : `${(rate * 100).toFixed(1)}%`)

/** At p=reject already, the blockers' mail is refused now rather than after a move to it. */
const READY_AT_REJECT: Readonly<Record<string, (n: number) => string>> = {
  ready: () =>
    "**Yes,** and it publishes p=reject already: no legitimate-looking source had its mail fail DMARC in this period.",
  "not-ready": (n) =>
    `**It publishes p=reject already,** so receivers refuse this mail now: ${n} legitimate-looking source(s) send mail that fails DMARC. Align them.`,
  "no-data": () => "**Not known:** no report counted any message in this period."
}

/** Reports arrived, but the look-ups that tell a legitimate sender from a spoofer failed. */
const lookupsFailed = (n: number) =>
  `**Not known:** reports were received, but ${n} source(s) whose mail fails DMARC could not be classified because the look-ups that tell a legitimate sender from a spoofer failed (PTR, SPF includes). No verdict until they answer.`

const READY: Readonly<Record<string, (n: number) => string>> = {
  ready: () =>
    "**Yes.** Every source whose mail failed DMARC in this period is unknown (most likely spoofing) or a forwarder: p=reject would have lost no legitimate mail seen here.",
  "not-ready": (n) =>
    `**Not yet.** ${n} legitimate-looking source(s) send mail that fails DMARC; under p=reject receivers would refuse it. Align them first.`,
  "no-data": () => "**Not known:** no report counted any message in this period."
}

const dmarcLines = (d: ReceivedDmarc, received: ReportsReceived, cell: Cell, table: Table): Array<string> => [
  `${d.reports} report(s)${d.reporters.length > 0 ? ` from ${cell(d.reporters.join(", "))}` : ""}: ${d.messages} message(s), ${d.dmarcPass} passing DMARC (${percent(d.passRate)}).`,
  "",
  `Ready for p=reject? ${
    d.readyForReject.verdict === "no-data" && (d.quality?.unclassifiedTotal ?? 0) > 0
      ? lookupsFailed(d.quality?.unclassifiedTotal ?? 0)
      : (received.dmarcPolicy === "reject" ? READY_AT_REJECT : READY)[d.readyForReject.verdict]!(
          d.readyForReject.blockersTotal
        )
  }`,
  "",
  ...qualityLines(d, table),
  ...(d.readyForReject.blockers.length > 0
    ? [
        ...table(
          ["Blocker", "PTR", "Provider", "Messages", "What to align"],
          d.readyForReject.blockers.map((b) => [
            b.ip,
            b.ptr ?? "",
            b.provider ?? "",
            String(b.messages),
            b.reason
          ])
        ),
        ""
      ]
    : []),
  ...table(
    ["Source", "PTR", "Provider", "Messages", "Passing DMARC"],
    d.topSources.map((s) => [
      s.ip,
      s.ptr ?? "",
      [s.provider ?? "", s.forwarder ? "forwarder" : ""].filter((x) => x !== "").join(", "),
      String(s.messages),
      `${s.dmarcPass} (${percent(s.messages === 0 ? null : s.dmarcPass / s.messages)})`
    ])
  ),
  "",
  ...(d.sourcesTotal > d.topSources.length
    ? [`The busiest ${d.topSources.length} of ${d.sourcesTotal} sources.`, ""]
    : []),
  ...dmarcDetailLines(d, cell, table),
  `Full summary: ${received.summaryUrls.dmarc}`,
  ""
]

const tlsLines = (t: ReceivedTls, url: string, cell: Cell, table: Table): Array<string> => [
  `${t.reports} report(s)${t.reporters.length > 0 ? ` from ${cell(t.reporters.join(", "))}` : ""}: ${t.sessions.successful} successful and ${t.sessions.failed} failed TLS session(s) (${percent(t.successRate)} successful).`,
  "",
  ...(t.failuresByResultType.length > 0
    ? [
        ...table(
          ["Result type", "Sessions"],
          t.failuresByResultType.map((f) => [f.resultType, String(f.sessions)])
        ),
        ""
      ]
    : []),
  ...(t.failuresByMx.length > 0
    ? [
        ...table(
          ["MX", "Failed sessions"],
          t.failuresByMx.map((f) => [f.mx, String(f.sessions)])
        ),
        ""
      ]
    : []),
  ...table(
    ["Policy", "Policy domain", "Successful", "Failed"],
    t.byPolicy.map((p) => [p.policyType, p.policyDomain, String(p.successful), String(p.failed)])
  ),
  "",
  ...tlsDetailLines(t, cell, table),
  `Full summary: ${url}`,
  ""
]

const noneLines = (kind: "dmarc" | "tls", domain: string, rua: ReadonlyArray<string>, cell: Cell) => [
  kind === "dmarc"
    ? "No DMARC aggregate report for this period reached this service."
    : "No TLS report for this period reached this service.",
  rua.length > 0
    ? `The domain asks for them at ${cell(rua.join(", "))}: point one of these addresses at this service to see them here.`
    : kind === "dmarc"
      ? `Its DMARC record asks for none: add \`rua=mailto:\` with an address whose mail reaches this service to the record at \`_dmarc.${domain}\`.`
      : `It publishes no TLS-RPT record: publish \`v=TLSRPTv1; rua=mailto:\` with an address whose mail reaches this service at \`_smtp._tls.${domain}\`.`,
  `Reports can also be posted to this service: \`POST /api/reports/${kind}\`.`,
  ""
]

/** The section when the domain's reports are private (docs/access.md). */
const PRIVATE_LINES: ReadonlyArray<string> = [
  "## Reports received",
  "",
  "The reports received for this domain are private: only its owners read them. An owner (an account that has verified the domain) may publish them here.",
  ""
]

/** The section's lines; none when the report carries no `reportsReceived`. */
export const receivedLines = (
  domain: string,
  received: ReportsReceived | undefined,
  cell: Cell,
  table: Table
): Array<string> =>
  received?.private === true ? [...PRIVATE_LINES] : publishedLines(domain, received, cell, table)

const publishedLines = (
  domain: string,
  received: ReportsReceived | undefined,
  cell: Cell,
  table: Table
): Array<string> =>
  received === undefined
    ? []
    : [
        "## Reports received",
        "",
        `What the reports mail receivers sent to this service say about this domain's mail, from ${received.from} to ${received.to}.`,
        "",
        "### DMARC aggregate reports",
        "",
        ...(received.dmarc === null
          ? noneLines("dmarc", domain, received.rua.dmarc, cell)
          : dmarcLines(received.dmarc, received, cell, table)),
        "### TLS reports (SMTP TLS Reporting)",
        "",
        ...(received.tls === null
          ? noneLines("tls", domain, received.rua.tls, cell)
          : tlsLines(received.tls, received.summaryUrls.tls, cell, table)),
        ...(received.failureReports === undefined
          ? []
          : [
              `DMARC failure reports (RFC 7489 7.3) in the period: ${received.failureReports} (\`GET /api/reports/failure/${domain}\` summarises them).`,
              ""
            ])
      ]
