/**
 * The summaries served at GET /api/reports/dmarc/{domain} and /api/reports/tls/{domain}: the stored
 * rows of a period, and for DMARC what DNS says of the sources: the PTR of the busiest (through
 * the Resolver) and which of the domain's SPF includes covers each address (the SPF check's
 * lookup graph, run as /email/spf runs it).
 */
import type { Domain } from "../records/DomainName.ts"
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Either } from "effect"
import { Spf } from "../checks/spf/Spf.ts"
import { AppConfig } from "../Config.ts"
import { Resolver } from "../net/Resolver.ts"
import type { ScanContext } from "../scan/FactsLive.ts"
import { runCheck } from "../scan/Scanner.ts"
import { makeShared } from "../scan/Shared.ts"
import { conflicts, dmarcGroups, dmarcReports, reporters, tlsPolicies } from "../store/InboundReports.ts"
import { failureCount } from "../store/FailureReports.ts"
import { authenticatedDmarcGroups, authenticityCounts } from "../store/ReportAuthenticity.ts"
import { reportAuthenticity } from "./Authenticity.ts"
import { busiestSources, SOURCES_SHOWN, type SourceFacts, summariseDmarc } from "./DmarcSummary.ts"
import { providerOfName, spfProviderOf, spfProviders } from "./Providers.ts"
import { summariseTls } from "./TlsSummary.ts"

/** A period asked for: `from` and `to` as dates or date-times; by default the last 30 days. */
export interface Period {
  readonly from?: string | undefined
  readonly to?: string | undefined
}

const DAY = 86_400

/** The period in epoch seconds, or why it cannot be read. Pure. */
export const readPeriod = (p: Period, nowS: number): Either.Either<{ from: number; to: number }, string> => {
  const parse = (text: string | undefined, name: string, fallback: number) => {
    if (text === undefined || text === "") return Either.right(fallback)
    const ok = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(text)
    const ms = ok ? Date.parse(text) : NaN
    return Number.isNaN(ms)
      ? Either.left(
          `'${name}' must be a date (2026-11-01) or an RFC 3339 date-time; got '${text.slice(0, 40)}'`
        )
      : Either.right(Math.floor(ms / 1000))
  }
  return Either.flatMap(parse(p.to, "to", nowS), (to) =>
    Either.flatMap(parse(p.from, "from", to - 30 * DAY), (from) =>
      from < to ? Either.right({ from, to }) : Either.left("'from' must be before 'to'")
    )
  )
}

/** PTR look-ups in flight at once for one summary. */
const PTR_CONCURRENCY = 16

export class ReportSummaries extends Effect.Service<ReportSummaries>()("ReportSummaries", {
  scoped: Effect.gen(function* () {
    const config = yield* AppConfig
    const scope = yield* Effect.scope
    const sql = yield* SqlClient.SqlClient
    const resolver = yield* Resolver
    const scanContext = yield* Effect.context<ScanContext>()

    const now = Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000))

    /** Each source's PTR and provider; the PTR only for the busiest, failures read as "no PTR". */
    const sourceFacts = (domain: Domain, ips: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const [spf, ptrs] = yield* Effect.all(
          [
            runCheck(Spf, domain).pipe(Effect.provide(scanContext)),
            Effect.forEach(
              ips,
              (ip) =>
                resolver.ptr(ip).pipe(
                  Effect.map((names) => [ip, names[0]?.replace(/\.$/, "") ?? null] as const),
                  // a failed look-up (timeout, SERVFAIL) is unknown, not "no PTR" (unknown is not missing)
                  Effect.orElseSucceed(() => [ip, undefined] as const)
                ),
              { concurrency: PTR_CONCURRENCY }
            )
          ],
          { concurrency: 2 }
        )
        const providers = spfProviders(spf.lookupGraph)
        const spfUnknown = spf.status === "unknown"
        const ptrOf = new Map<string, string | null | undefined>(ptrs)
        return (ip: string): SourceFacts => {
          const asked = ptrOf.has(ip)
          const found = ptrOf.get(ip)
          const ptr = found ?? null
          const viaSpf = spfProviderOf(providers, ip)
          const viaPtr = ptr === null ? undefined : providerOfName(ptr)
          const ptrFailed = asked && found === undefined
          return {
            ptr,
            provider: viaSpf ?? viaPtr?.name ?? null,
            providerFrom: viaSpf !== undefined ? "spf-include" : viaPtr !== undefined ? "ptr" : null,
            knownForwarder: viaSpf === undefined && viaPtr?.forwarder === true,
            lookupFailed:
              viaSpf !== undefined || viaPtr !== undefined
                ? undefined
                : ptrFailed && spfUnknown
                  ? `its PTR look-up and ${domain}'s SPF includes could not be resolved`
                  : ptrFailed
                    ? "its PTR look-up failed"
                    : spfUnknown
                      ? `${domain}'s SPF record or includes could not be resolved`
                      : undefined
          }
        }
      })

    const dmarc = (domain: Domain, period: { from: number; to: number }) =>
      Effect.gen(function* () {
        const [groups, who, clashes, reports] = yield* Effect.all([
          dmarcGroups(domain, period.from, period.to),
          reporters("dmarc", domain, period.from, period.to),
          conflicts("dmarc", domain, period.from, period.to),
          dmarcReports(domain, period.from, period.to)
        ])
        const facts =
          groups.length === 0
            ? () => ({ ptr: null, provider: null, providerFrom: null, knownForwarder: false })
            : yield* sourceFacts(domain, busiestSources(groups, SOURCES_SHOWN))
        const authenticity = reportAuthenticity(
          yield* authenticityCounts("dmarc", domain, period.from, period.to)
        )
        const summary = summariseDmarc({
          domain,
          ...period,
          groups,
          reporters: who,
          facts,
          conflicts: clashes,
          reports,
          authenticity
        })
        if (authenticity.authenticatedReports === 0 || authenticity.unauthenticatedReports === 0)
          return summary
        // the verdict rests on authenticated reports alone (their busiest sources are a subset of
        // all sources', whose facts were looked up above)
        const trusted = yield* authenticatedDmarcGroups(domain, period.from, period.to)
        const verdict = summariseDmarc({ domain, ...period, groups: trusted, reporters: who, facts })
        return {
          ...summary,
          readyForReject: {
            ...verdict.readyForReject,
            note: `From the ${authenticity.authenticatedReports} authenticated report(s) only (${authenticity.unauthenticatedReports} unauthenticated left out): ${verdict.readyForReject.note}`
          }
        }
      }).pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.withSpan("ReportSummaries.dmarc"))

    const tls = (domain: Domain, period: { from: number; to: number }) =>
      Effect.gen(function* () {
        const [policies, who, clashes] = yield* Effect.all([
          tlsPolicies(domain, period.from, period.to),
          reporters("tls", domain, period.from, period.to),
          conflicts("tls", domain, period.from, period.to)
        ])
        return summariseTls({ domain, ...period, policies, reporters: who, conflicts: clashes })
      }).pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.withSpan("ReportSummaries.tls"))

    /**
     * Both summaries of a report's period (the days before its scan ran): every report made from one
     * cached scan asks for the same period, so they are read once per scan, shared by concurrent
     * asks and kept as long as the scan (`SCAN_CACHE_TTL_MS`; a failure is not kept). One scan thus
     * gives one report content, and its snapshots one content hash, while reports keep arriving; and
     * a domain with a million stored records costs its summaries once, not once per page view.
     */
    const shared = makeShared(
      ({ domain, period }: { readonly domain: Domain; readonly period: { from: number; to: number } }) =>
        Effect.all(
          {
            dmarc: dmarc(domain, period),
            tls: tls(domain, period),
            failures: failureCount(domain, period.from, period.to).pipe(
              Effect.provideService(SqlClient.SqlClient, sql)
            )
          },
          { concurrency: 2 }
        ),
      {
        ttlMs: config.scanCacheTtlMs,
        size: config.scanCacheSize,
        scope,
        keyText: ({ domain, period }) => `${domain} ${period.from} ${period.to}`
      }
    )
    const forReport = (domain: Domain, period: { from: number; to: number }) => shared.get({ domain, period })

    return { dmarc, tls, now, forReport }
  })
}) {}
