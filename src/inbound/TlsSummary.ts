/**
 * What TLS reports (RFC 8460) say of a domain's inbound transport over a period: sessions that
 * succeeded and failed, failures by result type (RFC 8460 4.3) and by MX host, and per policy
 * (MTA-STS, DANE or none found). Pure over the stored policy rows.
 */
import { Schema } from "effect"
import { DateTime, Nullable, Strings } from "../records/Schemas.ts"
import type { ConflictRow, ReporterRow, TlsPolicyRow } from "../store/InboundReports.ts"
import { Conflict, conflictsOf, Reporter } from "./DmarcSummary.ts"
import { failuresOf, tlsAnalyst, tlsAnalystFields } from "./TlsAnalyst.ts"

export const TlsSummary = Schema.Struct({
  domain: Schema.String,
  from: DateTime,
  to: DateTime,
  reports: Schema.Int,
  sessions: Schema.Struct({ successful: Schema.Int, failed: Schema.Int }),
  /** successful / all sessions; null without sessions. */
  successRate: Nullable(Schema.Number),
  failuresByResultType: Schema.Array(Schema.Struct({ resultType: Schema.String, sessions: Schema.Int })),
  failuresByMx: Schema.Array(Schema.Struct({ mx: Schema.String, sessions: Schema.Int })),
  byPolicy: Schema.Array(
    Schema.Struct({
      policyType: Schema.String,
      policyDomain: Schema.String,
      mxHosts: Strings,
      successful: Schema.Int,
      failed: Schema.Int
    })
  ),
  reporters: Schema.Array(Reporter),
  /** Report identities stored with more than one content in the period (at most 100). */
  conflicts: Schema.Array(Conflict),
  ...tlsAnalystFields
})
export type TlsSummary = typeof TlsSummary.Type

const parseJson = <A>(text: string, fallback: A): A => {
  try {
    return JSON.parse(text) as A
  } catch {
    return fallback
  }
}

const ranked = <K extends string>(m: Map<string, number>, key: K) =>
  [...m]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, sessions]) => ({ [key]: k, sessions }) as { [P in K]: string } & { sessions: number })

export const summariseTls = (input: {
  readonly domain: string
  readonly from: number
  readonly to: number
  readonly policies: ReadonlyArray<TlsPolicyRow>
  readonly reporters: ReadonlyArray<ReporterRow>
  readonly conflicts?: ReadonlyArray<ConflictRow>
}): TlsSummary => {
  const byType = new Map<string, number>()
  const byMx = new Map<string, number>()
  const byPolicy = new Map<
    string,
    { policyType: string; policyDomain: string; mxHosts: Set<string>; successful: number; failed: number }
  >()
  let successful = 0
  let failed = 0
  for (const p of input.policies) {
    successful += p.successful
    failed += p.failed
    const key = `${p.policy_type}\u0000${p.policy_domain}`
    const entry = byPolicy.get(key) ?? {
      policyType: p.policy_type,
      policyDomain: p.policy_domain,
      mxHosts: new Set<string>(),
      successful: 0,
      failed: 0
    }
    entry.successful += p.successful
    entry.failed += p.failed
    const hosts: unknown = parseJson(p.mx_hosts, [])
    if (Array.isArray(hosts)) for (const mx of hosts) if (typeof mx === "string") entry.mxHosts.add(mx)
    byPolicy.set(key, entry)
    for (const f of failuresOf(p.failures)) {
      byType.set(f.type, (byType.get(f.type) ?? 0) + f.count)
      const mx = f.mx ?? "(not given)"
      byMx.set(mx, (byMx.get(mx) ?? 0) + f.count)
    }
  }
  const all = successful + failed
  return {
    domain: input.domain,
    from: new Date(input.from * 1000).toISOString(),
    to: new Date(input.to * 1000).toISOString(),
    reports: input.reporters.reduce((n, r) => n + r.reports, 0),
    sessions: { successful, failed },
    successRate: all === 0 ? null : successful / all,
    failuresByResultType: ranked(byType, "resultType"),
    failuresByMx: ranked(byMx, "mx"),
    byPolicy: [...byPolicy.values()]
      .map((p) => ({ ...p, mxHosts: [...p.mxHosts].sort() }))
      .sort((a, b) => b.successful + b.failed - (a.successful + a.failed)),
    reporters: input.reporters.map((r) => ({ name: r.reporter, reports: r.reports, messages: r.messages })),
    conflicts: conflictsOf(input.conflicts ?? []),
    ...tlsAnalyst(input.policies)
  }
}
