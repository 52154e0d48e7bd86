/**
 * GET /scan/quick and POST /scan: the full scan of a domain (shared and cached by `Scans`), scored
 * by the pure model of `score/`. A repeated scan within `SCAN_CACHE_TTL_MS` is served from the cache.
 * The badge and the PDF read the same shared scan (`gradedScan`), so one domain is scanned once.
 */
import type { Domain } from "../records/DomainName.ts"
import { Effect } from "effect"
import type { Lang } from "../score/Nis2Text.ts"
import { score, type ScanScore } from "../score/Score.ts"
import type { ScanResult } from "../scan/ScanResult.ts"
import { Scans } from "../scan/Scans.ts"
import { scanPdf } from "../report/ScanPdf.ts"
import type { ReportSummaries } from "../inbound/Summaries.ts"
import type { VerifiedDomains } from "../monitor/access/VerifiedDomains.ts"
import { reportsReceived } from "./Reports.ts"

/** The score of `domain`'s full scan; `names`: names its owner lists for the takeover check. */
export const scanScore = (
  domain: Domain,
  names: ReadonlyArray<string> = []
): Effect.Effect<ScanScore, never, Scans> => Effect.map(gradedScan(domain, names), (graded) => graded.score)

/** The shared full scan with its score (whose `unscannable` says why it cannot grade the domain). */
export const gradedScan = (
  domain: Domain,
  names: ReadonlyArray<string> = []
): Effect.Effect<{ readonly scan: ScanResult; readonly score: ScanScore }, never, Scans> =>
  Effect.flatMap(Scans, (scans) =>
    Effect.map(scans.scan(domain, names), (scan) => ({ scan, score: score(scan) }))
  )

/**
 * What a badge of `domain` shows: its grade, or no grade (the grey badge) with the reason the scan
 * cannot grade the domain (none when the scan itself failed).
 */
export const badgeVerdict = (
  domain: Domain
): Effect.Effect<{ readonly grade: string | null; readonly unscannable: string | null }, never, Scans> =>
  gradedScan(domain).pipe(
    Effect.map(({ score }) => ({
      grade: score.unscannable === null ? score.grade : null,
      unscannable: score.unscannable
    })),
    Effect.catchAllDefect((defect) =>
      Effect.as(Effect.logError(`the badge scan of ${domain} failed`, defect), {
        grade: null,
        unscannable: null
      })
    )
  )

/**
 * The PDF report of `domain` in `lang`, from its shared scan, with the reports received (their URLs
 * on `base`).
 */
export const pdfReport = (
  domain: Domain,
  base: string,
  lang: Lang = "en"
): Effect.Effect<Uint8Array, never, Scans | ReportSummaries | VerifiedDomains> =>
  Effect.flatMap(gradedScan(domain), ({ score, scan }) =>
    Effect.flatMap(reportsReceived(domain, scan, base), (received) => scanPdf(score, scan, received, lang))
  )
