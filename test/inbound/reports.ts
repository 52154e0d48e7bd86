/** Report documents as senders write them, for tests and the bench. */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { gzipSync, zipSync } from "fflate"

export interface RowSpec {
  readonly ip: string
  readonly count: number
  readonly disposition?: string
  readonly dkim?: "pass" | "fail"
  readonly spf?: "pass" | "fail"
  readonly reasons?: ReadonlyArray<{ readonly type: string; readonly comment?: string }>
  readonly headerFrom?: string
  readonly dkimAuth?: ReadonlyArray<{
    readonly domain: string
    readonly selector?: string
    readonly result: string
  }>
  readonly spfAuth?: ReadonlyArray<{ readonly domain: string; readonly result: string }>
}

export interface ReportSpec {
  readonly domain: string
  readonly org?: string
  readonly reportId?: string
  readonly begin?: number
  readonly end?: number
  readonly p?: string
  /** DMARCbis (RFC 9990) fields and an extension. */
  readonly bis?: boolean
  readonly rows: ReadonlyArray<RowSpec>
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/** RFC 7489 Appendix C XML (with `bis`: RFC 9990's additions). */
export const dmarcXml = (r: ReportSpec): string => {
  const rows = r.rows
    .map((row) => {
      const reasons = (row.reasons ?? [])
        .map(
          (x) =>
            `<reason><type>${x.type}</type>${x.comment === undefined ? "" : `<comment>${esc(x.comment)}</comment>`}</reason>`
        )
        .join("")
      const dkim = (row.dkimAuth ?? [])
        .map(
          (d) =>
            `<dkim><domain>${d.domain}</domain>${d.selector === undefined ? "" : `<selector>${d.selector}</selector>`}<result>${d.result}</result>${r.bis ? "<human_result>ok</human_result>" : ""}</dkim>`
        )
        .join("")
      const spf = (row.spfAuth ?? [{ domain: r.domain, result: row.spf ?? "pass" }])
        .map((s) => `<spf><domain>${s.domain}</domain><scope>mfrom</scope><result>${s.result}</result></spf>`)
        .join("")
      return `<record><row><source_ip>${row.ip}</source_ip><count>${row.count}</count><policy_evaluated><disposition>${row.disposition ?? "none"}</disposition><dkim>${row.dkim ?? "pass"}</dkim><spf>${row.spf ?? "pass"}</spf>${reasons}</policy_evaluated></row><identifiers>${r.bis ? `<envelope_to>example.net</envelope_to>` : ""}<header_from>${row.headerFrom ?? r.domain}</header_from></identifiers><auth_results>${dkim}${spf}</auth_results></record>`
    })
    .join("\n")
  return `<?xml version="1.0" encoding="UTF-8"?>
<feedback${r.bis ? ' xmlns="urn:ietf:params:xml:ns:dmarc-2.0"' : ""}>
${r.bis ? "<version>1.0</version>" : ""}
<report_metadata><org_name>${esc(r.org ?? "Example Receiver")}</org_name><email>dmarc@receiver.example</email><report_id>${esc(r.reportId ?? "r-1")}</report_id><date_range><begin>${r.begin ?? 1_764_028_800}</begin><end>${r.end ?? 1_764_115_199}</end></date_range>${r.bis ? "<generator>Example Generator 1.0</generator>" : ""}</report_metadata>
<policy_published><domain>${r.domain}</domain><adkim>r</adkim><aspf>r</aspf><p>${r.p ?? "none"}</p><sp>none</sp>${r.bis ? "<np>reject</np><testing>n</testing><discovery_method>treewalk</discovery_method>" : "<pct>100</pct>"}</policy_published>
${rows}
${r.bis ? '<extension><ext:thing xmlns:ext="urn:example">ignored</ext:thing></extension>' : ""}
</feedback>`
}

export const gzipText = (text: string) => gzipSync(new TextEncoder().encode(text))
export const zipText = (name: string, text: string) => zipSync({ [name]: new TextEncoder().encode(text) })

export interface TlsSpec {
  readonly domain: string
  readonly org?: string
  readonly reportId?: string
  readonly mx?: string
  readonly success?: number
  readonly failures?: ReadonlyArray<{ readonly type: string; readonly count: number; readonly mx?: string }>
  readonly policyType?: "sts" | "tlsa" | "no-policy-found"
  /** The report's period, RFC 3339 date-times; 2026-11-24 by default. */
  readonly range?: { readonly start: string; readonly end: string }
}

/** An RFC 8460 4.4 report. */
export const tlsJson = (t: TlsSpec): string =>
  JSON.stringify({
    "organization-name": t.org ?? "Example Sender",
    "date-range": {
      "start-datetime": t.range?.start ?? "2026-11-24T00:00:00Z",
      "end-datetime": t.range?.end ?? "2026-11-24T23:59:59Z"
    },
    "contact-info": "tlsrpt@sender.example",
    "report-id": t.reportId ?? "tls-1",
    policies: [
      {
        policy: {
          "policy-type": t.policyType ?? "sts",
          "policy-string": [
            "version: STSv1",
            "mode: enforce",
            `mx: ${t.mx ?? `mx.${t.domain}`}`,
            "max_age: 86400"
          ],
          "policy-domain": t.domain,
          "mx-host": [t.mx ?? `mx.${t.domain}`]
        },
        summary: {
          "total-successful-session-count": t.success ?? 100,
          "total-failure-session-count": (t.failures ?? []).reduce((n, f) => n + f.count, 0)
        },
        "failure-details": (t.failures ?? []).map((f) => ({
          "result-type": f.type,
          "sending-mta-ip": "192.0.2.10",
          "receiving-mx-hostname": f.mx ?? t.mx ?? `mx.${t.domain}`,
          "receiving-ip": "198.51.100.25",
          "failed-session-count": f.count
        }))
      }
    ]
  })

/** POST a report as its sender would: the bytes with their media type (none: no Content-Type at all). */
export const postReport = (path: string, type: string | undefined, body: Uint8Array | string) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body
    const request = HttpClientRequest.post(path).pipe(HttpClientRequest.bodyUint8Array(bytes, type ?? ""))
    const response = yield* client.execute(request)
    return { status: response.status, json: (yield* response.json) as any }
  }).pipe(Effect.scoped)

/**
 * The largest aggregate report a big receiver sends: `records` records from as many sources, as
 * varied as real ones (addresses, counts, selectors, verdicts), so it compresses as real reports do.
 */
export const largeDmarcXml = (domain: string, records: number, reportId = "large-1"): string =>
  dmarcXml({
    domain,
    org: "Large Receiver",
    reportId,
    rows: Array.from({ length: records }, (_, i): RowSpec => {
      const failing = i % 7 === 0
      return {
        ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        count: 1 + ((i * 7919) % 997),
        dkim: failing ? "fail" : "pass",
        spf: failing || i % 3 === 0 ? "fail" : "pass",
        dkimAuth: [
          {
            domain: failing ? `esp${i % 13}.example` : domain,
            selector: `s${(i * 31) % 97}`,
            result: failing && i % 2 === 0 ? "fail" : "pass"
          }
        ],
        spfAuth: [
          { domain: failing ? `bounce${i % 11}.example` : domain, result: i % 3 === 0 ? "softfail" : "pass" }
        ]
      }
    })
  })
