/**
 * The responses of GET /badge/{domain} and GET /pdf/{domain} (docs/presentation.md): both read the
 * shared, cached full scan of `composite/ScanScore.ts`, so a badge, a quick scan and a PDF of one domain
 * within `SCAN_CACHE_TTL_MS` cost one scan.
 */
import { HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { badgeSvg } from "../../report/Badge.ts"
import { renderPdf } from "../../report/PdfReport.ts"
import { gradedScan } from "../../composite/ScanScore.ts"
import { nis2Scorecard, type Nis2Scorecard } from "../../score/Nis2.ts"

/** A graded badge may be cached as long as the scan it shows; "unknown" is retried sooner. */
export const BADGE_MAX_AGE_S = 300
export const UNKNOWN_BADGE_MAX_AGE_S = 60

const badge = (domain: string, grade: string | null) =>
  HttpServerResponse.text(badgeSvg(domain, grade), {
    contentType: "image/svg+xml; charset=utf-8",
    headers: {
      "Cache-Control": `public, max-age=${grade === null ? UNKNOWN_BADGE_MAX_AGE_S : BADGE_MAX_AGE_S}`,
      // Opened on its own, the SVG may run nothing and load nothing (it draws with inline attributes only).
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
      "X-Content-Type-Options": "nosniff"
    }
  })

/** The badge of `domain`: its grade, or the grey "unknown" when the scan cannot grade it. */
export const badgeResponse = (domain: string) =>
  gradedScan(domain).pipe(
    Effect.map(({ score, unscannable }) => badge(domain, unscannable === null ? score.grade : null)),
    Effect.catchAllDefect((defect) =>
      Effect.as(Effect.logError(`the badge scan of ${domain} failed`, defect), badge(domain, null))
    )
  )

/**
 * Rendering a PDF is synchronous CPU work (about 50-120 ms for 30 issues on a busy 2-core machine)
 * that holds the event loop. The bytes are a function of the scan (deterministic), so the last few
 * are kept by domain and scan time: repeated requests within the scan cache render once.
 */
const PDF_MEMO_SIZE = 32
const pdfMemo = new Map<string, Uint8Array>()
const memoised = (key: string, render: Effect.Effect<Uint8Array>) =>
  Effect.suspend(() => {
    const hit = pdfMemo.get(key)
    if (hit !== undefined) return Effect.succeed(hit)
    return Effect.tap(render, (bytes) =>
      Effect.sync(() => {
        pdfMemo.set(key, bytes)
        while (pdfMemo.size > PDF_MEMO_SIZE) pdfMemo.delete(pdfMemo.keys().next().value!)
      })
    )
  })

/** The scorecard's summary, its critical gaps named in words ("g: <the measure's label>"). */
const pdfNis2 = (card: Nis2Scorecard) => ({
  total: card.total,
  status: card.status,
  criticalGaps: card.measures
    .filter((m) => card.criticalGaps.includes(m.id))
    .map((m) => `${m.id}: ${m.label}`)
})

/** The PDF report of `domain` from its shared scan. */
export const pdfResponse = (domain: string) =>
  Effect.gen(function* () {
    const { score, scan } = yield* gradedScan(domain)
    // The NIS2 summary comes from the same scan, so the memo key (domain and scan time) covers it.
    const bytes = yield* memoised(
      `${score.domain} ${score.timestamp}`,
      Effect.promise(() => renderPdf({ score, nis2: pdfNis2(nis2Scorecard(scan, "en")) }))
    )
    return HttpServerResponse.uint8Array(bytes, {
      contentType: "application/pdf",
      headers: {
        "Cache-Control": `public, max-age=${BADGE_MAX_AGE_S}`,
        "Content-Disposition": `inline; filename="${domain}-security-report.pdf"`,
        "X-Content-Type-Options": "nosniff"
      }
    })
  })
