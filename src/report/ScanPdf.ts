/**
 * The PDF report of one graded scan (docs/presentation.md): its NIS2 summary drawn from the same
 * scan, and the last few renderings kept.
 *
 * Rendering a PDF is synchronous CPU work (about 50-120 ms for 30 issues on a busy 2-core machine)
 * that holds the event loop. The bytes are a function of the scan (deterministic), so the last few
 * are kept by domain and scan time: repeated requests within the scan cache render once.
 */
import { type Lang, measuredSentence } from "../score/Nis2Text.ts"
import { Effect } from "effect"
import type { ScanResult } from "../scan/ScanResult.ts"
import { nis2Scorecard, type Nis2Scorecard } from "../score/Nis2.ts"
import type { ScanScore } from "../score/Score.ts"
import { type Nis2Summary, renderPdf } from "./PdfReport.ts"
import type { ReportsReceived } from "./ReceivedReports.ts"
import type { EverythingReport } from "./ReportSchema.ts"

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
export const pdfNis2 = (
  card: Pick<Nis2Scorecard, "total" | "status" | "criticalGaps" | "measures">,
  lang: Lang = "en"
): Nis2Summary => ({
  total: card.total,
  status: card.status,
  measured: measuredSentence(card.measures, lang),
  criticalGaps: card.measures
    .filter((m) => card.criticalGaps.includes(m.id))
    .map((m) => `${m.id}: ${m.label}`)
})

/**
 * The PDF of `scan` graded as `score`, with the reports received for its domain when given, in
 * `lang` (its words, the findings' titles and guidance, the NIS2 summary).
 */
export const scanPdf = (
  score: ScanScore,
  scan: ScanResult,
  received?: ReportsReceived,
  lang: Lang = "en"
): Effect.Effect<Uint8Array> =>
  // The NIS2 summary comes from the same scan, so the domain and scan time cover it; reports may
  // arrive for the same period after the scan, so they are part of the key.
  memoised(
    `${lang} ${score.domain} ${score.timestamp} ${JSON.stringify(received ?? null)}`,
    Effect.promise(() => renderPdf({ score, nis2: pdfNis2(nis2Scorecard(scan, lang), lang), received, lang }))
  )

/**
 * The PDF of a stored snapshot: drawn from the score and NIS2 scorecard it holds (not a new scan,
 * and not the scan judged again by today's checks and mapping), with its id and content hash in
 * every footer. A snapshot never changes, so its id is the memo key.
 */
export const snapshotPdf = (report: EverythingReport): Effect.Effect<Uint8Array> => {
  const { score } = report.machineReadable
  const { snapshotId, contentHash } = report.evidence
  return memoised(
    `snapshot ${snapshotId}`,
    Effect.promise(() =>
      renderPdf({
        score: { ...score, cached: false },
        nis2: pdfNis2(report.sections.nis2),
        snapshot: { id: snapshotId, contentHash },
        received: report.reportsReceived
      })
    )
  )
}
