/**
 * What a domain's failure reports of a period say (RFC 7489 7.3): which sources fail, how (the
 * RFC 6591 Auth-Failure types), under which identities (DKIM d=/s=, the SPF domain), and who
 * reported them, each with counts and when first and last seen. Pure over the stored rows.
 */
import { Schema } from "effect"
import { DateTime, Nullable, Strings } from "../records/Schemas.ts"
import type { FailureRow } from "../store/FailureReports.ts"

const Seen = { reports: Schema.Int, firstSeen: DateTime, lastSeen: DateTime }

export const FailureSource = Schema.Struct({
  /** The Source-IP the reports name; null for reports that name none. */
  sourceIp: Nullable(Schema.String),
  ...Seen,
  /** The failure types reported for it, sorted. */
  failures: Strings
})

export const FailureType = Schema.Struct({
  /** An RFC 6591 3.2.2 Auth-Failure value: `dmarc`, `dkim`, `spf`, `bodyhash`, `signature`, `revoked`, `adsp`. */
  type: Schema.String,
  ...Seen
})

export const FailureIdentity = Schema.Struct({
  /** `dkim`: the DKIM-Domain (d=) and DKIM-Selector (s=) reported; `spf`: the envelope sender's domain. */
  mechanism: Schema.Literal("dkim", "spf"),
  domain: Schema.String,
  selector: Nullable(Schema.String),
  ...Seen
})

export const FailureReporter = Schema.Struct({
  /** The domain of the report message's From. */
  name: Schema.String,
  reports: Schema.Int,
  /** Of them, reports whose mail authenticated as their reporter's (DMARC pass), or posted with an API key. */
  authenticated: Schema.Int
})

export const FailureSummary = Schema.Struct({
  domain: Schema.String,
  from: DateTime,
  to: DateTime,
  /** Failure reports whose original message arrived in the period. */
  reports: Schema.Int,
  /** Of them, authenticated (docs/reports-in.md "Authenticity") and not. */
  authenticated: Schema.Int,
  unauthenticated: Schema.Int,
  /** The busiest sources (at most 100), by reports. */
  bySource: Schema.Array(FailureSource),
  sourcesTotal: Schema.Int,
  byFailureType: Schema.Array(FailureType),
  /** The identities named (at most 100), by reports. */
  byIdentity: Schema.Array(FailureIdentity),
  reporters: Schema.Array(FailureReporter)
})
export type FailureSummary = typeof FailureSummary.Type

export const FAILURE_ROWS_SHOWN = 100

interface Tally {
  reports: number
  first: number
  last: number
}

const tally = <K>(map: Map<K, Tally>, key: K, at: number) => {
  const t = map.get(key)
  if (t === undefined) map.set(key, { reports: 1, first: at, last: at })
  else {
    t.reports++
    t.first = Math.min(t.first, at)
    t.last = Math.max(t.last, at)
  }
}

const iso = (s: number) => new Date(s * 1000).toISOString()
const seen = (t: Tally) => ({ reports: t.reports, firstSeen: iso(t.first), lastSeen: iso(t.last) })

/** Busiest first; ties by key, so the order never depends on the store's. */
const busiest = <K>(map: Map<K, Tally>, name: (k: K) => string) =>
  [...map.entries()].sort((a, b) => b[1].reports - a[1].reports || name(a[0]).localeCompare(name(b[0])))

/** An identity's key back into its parts (keys are written by `summariseFailures` alone). */
const identityOf = (key: string): readonly ["dkim" | "spf", string, string | null] => {
  const parts: ReadonlyArray<string | null> = Schema.decodeUnknownSync(IdentityKey)(JSON.parse(key))
  return [parts[0] === "dkim" ? "dkim" : "spf", parts[1] ?? "", parts[2] ?? null]
}
const IdentityKey = Schema.Array(Schema.NullOr(Schema.String))

/** The summary of `rows` (a domain's failure reports in [from, to)). */
export const summariseFailures = (input: {
  readonly domain: string
  readonly from: number
  readonly to: number
  readonly rows: ReadonlyArray<FailureRow>
}): FailureSummary => {
  const sources = new Map<string, Tally>()
  const sourceFailures = new Map<string, Set<string>>()
  const types = new Map<string, Tally>()
  const identities = new Map<string, Tally>()
  const reporters = new Map<string, { reports: number; authenticated: number }>()
  let authenticated = 0
  for (const row of input.rows) {
    const at = row.arrival_at
    const source = row.source_ip ?? ""
    tally(sources, source, at)
    const failures = row.failures.split(",").filter((f) => f !== "")
    const set = sourceFailures.get(source) ?? new Set<string>()
    for (const f of failures) {
      set.add(f)
      tally(types, f, at)
    }
    sourceFailures.set(source, set)
    if (row.dkim_domain !== null)
      tally(identities, JSON.stringify(["dkim", row.dkim_domain, row.dkim_selector]), at)
    if (row.mail_from_domain !== null)
      tally(identities, JSON.stringify(["spf", row.mail_from_domain, null]), at)
    const r = reporters.get(row.reporter) ?? { reports: 0, authenticated: 0 }
    r.reports++
    r.authenticated += row.authenticated
    reporters.set(row.reporter, r)
    authenticated += row.authenticated
  }
  const allSources = busiest(sources, (s) => s)
  return {
    domain: input.domain,
    from: iso(input.from),
    to: iso(input.to),
    reports: input.rows.length,
    authenticated,
    unauthenticated: input.rows.length - authenticated,
    bySource: allSources.slice(0, FAILURE_ROWS_SHOWN).map(([ip, t]) => ({
      sourceIp: ip === "" ? null : ip,
      ...seen(t),
      failures: [...(sourceFailures.get(ip) ?? [])].sort()
    })),
    sourcesTotal: allSources.length,
    byFailureType: busiest(types, (t) => t).map(([type, t]) => ({ type, ...seen(t) })),
    byIdentity: busiest(identities, (k) => k)
      .slice(0, FAILURE_ROWS_SHOWN)
      .map(([key, t]) => {
        const [mechanism, domain, selector] = identityOf(key)
        return {
          mechanism,
          domain,
          selector,
          ...seen(t)
        }
      }),
    reporters: [...reporters.entries()]
      .sort((a, b) => b[1].reports - a[1].reports || a[0].localeCompare(b[0]))
      .map(([name, r]) => ({ name, reports: r.reports, authenticated: r.authenticated }))
  }
}
