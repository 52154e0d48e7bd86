/**
 * Examples of the scan and report groups: the score, the NIS2 scorecard, the deep scans and the
 * Everything Report, each built by the code that answers over the example scan (ExampleScan.ts).
 */
import { MAIL_CHECKS, type MailScan } from "../../jobs/DeepScan.ts"
import type { DeepScanState } from "../../jobs/DeepScans.ts"
import { badgeSvg } from "../../report/Badge.ts"
import { canonicalJson, contentHashOf } from "../../report/Canonical.ts"
import { contentOf, encodeContent, everythingOf, snapshotEvidence } from "../../report/Everything.ts"
import { renderMarkdown } from "../../report/Markdown.ts"
import { receivedOf } from "../../report/ReceivedReports.ts"
import type { EverythingReport } from "../../report/ReportSchema.ts"
import { nis2Scorecard } from "../../score/Nis2.ts"
import { score } from "../../score/Score.ts"
import { previewAnswer } from "../../composite/Preview.ts"
import { BASE, type Example } from "./Example.ts"
import { exampleScans } from "./ExampleScan.ts"
import { exampleSign } from "./ExampleSigningKey.ts"
import { exampleSummaries } from "./InboundExamples.ts"
import { DOMAIN, NOW_ISO } from "../../kernel/examples/ExampleZone.ts"

const SCAN_ID = "3f6c2a9e-8d41-4b7a-9c55-0e2d7f1b6a84"
const SNAPSHOT_ID = "b2e4f7a1-5c3d-4e8f-9a6b-1d2c3e4f5a6b"

const quick: Example = {
  request: "example.com: signed, SPF, DKIM, DMARC p=reject, DANE; MTA-STS still in testing",
  answer: () => score(exampleScans().scan)
}

/** The reports received for example.com that its report carries (the summaries' examples). */
const received = () => receivedOf(exampleScans().scan, BASE, exampleSummaries())

/** The snapshot the store writes for the example scan: the content, its RFC 8785 hash and signature. */
const snapshot = (): EverythingReport => {
  const content = contentOf(exampleScans().scan, BASE, received())
  const contentHash = contentHashOf(encodeContent(content))
  return {
    ...content,
    evidence: {
      ...snapshotEvidence(content, BASE, { id: SNAPSHOT_ID, contentHash, createdAt: NOW_ISO }),
      signature: exampleSign(canonicalJson(encodeContent(content)))
    }
  }
}

const markdown = (report: () => EverythingReport) => ({
  mediaType: "text/markdown",
  answer: () => renderMarkdown(report())
})

const live: Example = {
  request: "the live report of example.com",
  answer: () => everythingOf(exampleScans().scan, BASE, received()),
  text: markdown(() => everythingOf(exampleScans().scan, BASE, received()))
}
const stored: Example = {
  request: "a snapshot of example.com's report",
  answer: snapshot,
  text: markdown(snapshot)
}

/** The scan a mail deep scan runs: the example scan's mail checks. */
const mailScan = (): typeof MailScan.Type => {
  const { scan } = exampleScans()
  return {
    ...scan,
    checks: Object.fromEntries(
      MAIL_CHECKS.map((c) => [c.id, scan.checks[c.id as keyof typeof scan.checks]])
    ) as (typeof MailScan.Type)["checks"]
  }
}

export const scanExamples: Readonly<Record<string, Example>> = {
  "scan.quick": quick,
  "scan.full": quick,
  "scan.preview": {
    request:
      "example.com with its MTA-STS policy moved from testing to enforce (files: the policy at https://mta-sts.example.com/.well-known/mta-sts.txt)",
    answer: () => previewAnswer(exampleScans().enforced, exampleScans().scan, [])
  },
  "scan.nis2": { request: "example.com, in English", answer: () => nis2Scorecard(exampleScans().scan, "en") },
  "scan.deep": {
    request: "a mail deep scan of example.com, just started",
    answer: () => ({ success: true, scan_id: SCAN_ID, status: "running", estimated_time: 45 })
  },
  "scan.deepResult": {
    request: "the mail deep scan of example.com, completed",
    answer: (): DeepScanState => ({
      success: true,
      scan_id: SCAN_ID,
      domain: DOMAIN,
      type: "mail",
      status: "completed",
      estimated_time: 0,
      startedAt: new Date(Date.parse(NOW_ISO) - 4_000).toISOString(),
      completedAt: NOW_ISO,
      result: { type: "mail", domain: DOMAIN, scan: mailScan() },
      error: null
    })
  },
  "misc.badge": {
    request: "the badge of example.com",
    text: {
      mediaType: "image/svg+xml",
      answer: () => {
        const { grade, unscannable } = score(exampleScans().scan)
        return badgeSvg(DOMAIN, unscannable === null ? grade : null, unscannable)
      }
    }
  },
  "report.everything": live,
  "report.snapshotCreate": stored,
  "report.snapshotCreateLegacy": stored,
  "report.snapshotGet": stored
}
