/**
 * The report endpoints' compositions: one full scan (shared and cached by `Scans`, like
 * GET /scan/quick) handed to the report builders of `report/`, which take a scan and start none,
 * with the summaries of the DMARC and TLS reports received for the domain (`inbound/`, which looks
 * up the PTR names of the busiest sources), computed here and handed in.
 */
import type { Domain } from "../records/DomainName.ts"
import { Effect } from "effect"
import type { ScanResult } from "../scan/ScanResult.ts"
import { ReportSummaries } from "../inbound/Summaries.ts"
import { everythingOf } from "../report/Everything.ts"
import { VerifiedDomains } from "../monitor/access/VerifiedDomains.ts"
import {
  privateReceived,
  receivedOf,
  receivedPeriod,
  type ReportsReceived
} from "../report/ReceivedReports.ts"
import { Snapshots } from "../report/Snapshots.ts"
import { Scans } from "../scan/Scans.ts"

/**
 * The reports received for the scan's domain over the 30 days before the scan ran, read once per
 * scan (`ReportSummaries.forReport`): every report made from one cached scan has the same content
 * and hash. Undefined when the report store cannot be read: the report then says nothing of
 * reports, rather than that none arrived.
 */
const publishedReports = (
  domain: Domain,
  scan: ScanResult,
  base: string
): Effect.Effect<ReportsReceived | undefined, never, ReportSummaries> =>
  Effect.flatMap(ReportSummaries, (summaries) => {
    const period = receivedPeriod(scan.computedAt)
    return summaries.forReport(domain, period).pipe(
      Effect.map((both): ReportsReceived | undefined => receivedOf(scan, base, both)),
      Effect.catchAll((error) =>
        Effect.as(
          Effect.logWarning("reports received left out of the report: the report store failed", error),
          undefined
        )
      )
    )
  })

/**
 * What a public report, page or PDF says of the reports received: what they say when an owner of
 * the domain has published them (or no API key exists: the one operator owns everything), that
 * they are private otherwise (docs/access.md). When who publishes cannot be read, nothing.
 */
export const reportsReceived = (
  domain: Domain,
  scan: ScanResult,
  base: string
): Effect.Effect<ReportsReceived | undefined, never, ReportSummaries | VerifiedDomains> =>
  Effect.flatMap(VerifiedDomains, (owners) => owners.reportsPublic(domain)).pipe(
    Effect.flatMap((shown) =>
      shown ? publishedReports(domain, scan, base) : Effect.succeed(privateReceived(scan, base))
    ),
    Effect.catchAllCause((cause) =>
      Effect.as(
        Effect.logWarning("reports received left out of the report: their owners could not be read", cause),
        undefined
      )
    )
  )

/** The live Everything Report of `domain`, its URLs on `base`. */
export const liveReport = (domain: Domain, base: string) =>
  Effect.flatMap(Scans, (scans) =>
    Effect.flatMap(scans.scan(domain), (scan) =>
      Effect.map(reportsReceived(domain, scan, base), (received) => everythingOf(scan, base, received))
    )
  )

/** A snapshot of `domain`'s report now (or the same content stored moments ago). */
export const snapshotReport = (domain: Domain, base: string) =>
  Effect.flatMap(Effect.zip(Scans, Snapshots), ([scans, snapshots]) =>
    Effect.flatMap(scans.scan(domain), (scan) =>
      Effect.flatMap(reportsReceived(domain, scan, base), (received) =>
        snapshots.create(scan, base, received)
      )
    )
  )
