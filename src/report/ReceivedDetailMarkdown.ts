/**
 * The analyst's part of "Reports received" in the markdown and the PDF (ReceivedMarkdown.ts): how
 * far the period's reports can be taken at their word (repairs, conflicts, unclassified sources),
 * mail by header-from domain, the daily series, the identities that failed per source and the
 * policy as receivers saw it published (RFC 7489 C); for TLS, failures as senders described them
 * and reports whose failure details exceed their failed sessions (RFC 8460 4.3). Pure; nothing for
 * a report made before these were carried.
 */
import type { ReceivedDmarc, ReceivedTls } from "./ReceivedReports.ts"

type Cell = (text: string) => string
type Table = (head: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>) => Array<string>

const or = (text: string | null) => text ?? ""

/** The quality line, and the unclassified sources when there are. */
export const qualityLines = (d: ReceivedDmarc, table: Table): Array<string> => {
  const q = d.quality
  if (q === undefined) return []
  return [
    `Report quality: ${q.repairedReports} report(s) needed a repair to be read; ${q.conflicts} report identity(ies) arrived with differing contents (kept and counted); ${q.unclassifiedTotal} source(s) whose mail fails DMARC could not be classified because a look-up failed.`,
    "",
    ...(q.unclassified.length > 0
      ? [
          ...table(
            ["Unclassified source", "Messages", "Why"],
            q.unclassified.map((u) => [u.ip, String(u.messages), u.reason])
          ),
          ""
        ]
      : [])
  ]
}

/** By header-from domain, the days, the failing identities per source, the policy seen. */
export const dmarcDetailLines = (d: ReceivedDmarc, cell: Cell, table: Table): Array<string> => {
  const identities = d.topSources.flatMap((s) =>
    (s.failingIdentities ?? []).map((f) => [
      s.ip,
      f.method.toUpperCase(),
      f.domain,
      or(f.selector),
      f.result,
      String(f.messages)
    ])
  )
  return [
    ...(d.byHeaderFrom !== undefined && d.byHeaderFrom.length > 0
      ? [
          ...table(
            ["Header From", "Messages", "Passing DMARC", "Failing DMARC"],
            d.byHeaderFrom.map((h) => [
              h.headerFrom,
              String(h.messages),
              String(h.dmarcPass),
              String(h.dmarcFail)
            ])
          ),
          ""
        ]
      : []),
    ...(d.daily !== undefined && d.daily.length > 0
      ? [
          ...table(
            ["Day (UTC)", "Messages", "Passing DMARC", "Failing DMARC"],
            d.daily.map((x) => [x.date, String(x.messages), String(x.dmarcPass), String(x.dmarcFail)])
          ),
          ""
        ]
      : []),
    ...(identities.length > 0
      ? [...table(["Source", "Method", "Domain", "Selector", "Result", "Messages"], identities), ""]
      : []),
    ...(d.policyPublished !== undefined && d.policyPublished.length > 0
      ? [
          d.policyPublished.length > 1
            ? "Policy as receivers saw it published: receivers disagree (a change during the period, or a stale copy)."
            : "Policy as receivers saw it published:",
          "",
          ...table(
            ["p", "sp", "pct", "np", "testing", "Reports", "Reporters"],
            d.policyPublished.map((p) => [
              p.p,
              or(p.sp),
              p.pct === null ? "" : String(p.pct),
              or(p.np),
              or(p.testing),
              String(p.reports),
              cell(p.reporters.join(", "))
            ])
          ),
          ""
        ]
      : [])
  ]
}

/** Failures as senders described them; policies whose details exceed their failed sessions; conflicts. */
export const tlsDetailLines = (t: ReceivedTls, cell: Cell, table: Table): Array<string> => [
  ...(t.failureDetails !== undefined && t.failureDetails.length > 0
    ? [
        ...table(
          [
            "Result type",
            "Reason code",
            "Sending MTA",
            "Receiving MX",
            "MX HELO",
            "Receiving IP",
            "Sessions"
          ],
          t.failureDetails.map((f) => [
            f.resultType,
            cell(or(f.reasonCode)),
            or(f.sendingMtaIp),
            or(f.receivingMxHostname),
            cell(or(f.receivingMxHelo)),
            or(f.receivingIp),
            String(f.sessions)
          ])
        ),
        ""
      ]
    : []),
  ...(t.failureDetailsExceedingTotal ?? []).map(
    (o) =>
      `Not to be taken at its word: report ${cell(o.reportId)} from ${cell(o.reporter)} details ${o.detailSessions} failed session(s) for its ${o.policyType} policy of ${o.policyDomain}, more than the ${o.failedSessions} it counts in all (RFC 8460 4.3).`
  ),
  ...((t.failureDetailsExceedingTotal ?? []).length > 0 ? [""] : []),
  ...(t.conflicts !== undefined && t.conflicts > 0
    ? [
        `${t.conflicts} report identity(ies) arrived with differing contents (kept and counted): a forgery or a corrected re-send.`,
        ""
      ]
    : [])
]
