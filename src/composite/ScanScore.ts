/**
 * GET /scan/quick and POST /scan: the full scan of a domain (shared and cached by `Scans`), scored
 * by the pure model of `score/`. A repeated scan within `SCAN_CACHE_TTL_MS` is served from the cache.
 * The badge and the PDF read the same shared scan (`gradedScan`), so one domain is scanned once.
 */
import { Effect } from "effect"
import { score, type ScanScore } from "../score/Score.ts"
import { unscannableReason } from "../scan/Scannable.ts"
import type { ScanResult } from "../checks/ScanResult.ts"
import { Scans } from "../scan/Scans.ts"
import { scanPdf } from "../report/ScanPdf.ts"

export const scanScore = (domain: string): Effect.Effect<ScanScore, never, Scans> =>
  Effect.map(gradedScan(domain), (graded) => graded.score)

/** The shared full scan with its score, and why it cannot grade the domain (null when it can). */
export const gradedScan = (
  domain: string
): Effect.Effect<
  { readonly scan: ScanResult; readonly score: ScanScore; readonly unscannable: string | null },
  never,
  Scans
> =>
  Effect.flatMap(Scans, (scans) =>
    Effect.map(scans.scan(domain), (scan) => ({
      scan,
      score: score(scan),
      unscannable: unscannableReason(scan)
    }))
  )

/** The grade a badge of `domain` shows: null (the grey "unknown") when the scan cannot grade it. */
export const badgeGrade = (domain: string): Effect.Effect<string | null, never, Scans> =>
  gradedScan(domain).pipe(
    Effect.map(({ score, unscannable }) => (unscannable === null ? score.grade : null)),
    Effect.catchAllDefect((defect) =>
      Effect.as(Effect.logError(`the badge scan of ${domain} failed`, defect), null)
    )
  )

/** The PDF report of `domain`, from its shared scan. */
export const pdfReport = (domain: string): Effect.Effect<Uint8Array, never, Scans> =>
  Effect.flatMap(gradedScan(domain), ({ score, scan }) => scanPdf(score, scan))
