/**
 * The PDF report of a domain (GET /pdf/{domain}), drawn by pdfkit: a title page with the grade and
 * score, the category table, every check, every issue with its fix, and the NIS2 summary.
 *
 * A pure function of its typed input: the same input gives the same bytes. pdfkit stamps a
 * document with `new Date()` and derives the file `/ID` from its info dictionary
 * (`PDFSecurity.generateFileID`), so the creation date is fixed to the scan's `computedAt` (the
 * score's `timestamp`) and nothing else varies. The fonts are the standard 14 (Helvetica), which are
 * not embedded, so no font subset tag varies either.
 */
import PDFDocument from "pdfkit"
import type { Recommendation, ScanScore } from "../score/Score.ts"

/** The NIS2 readiness summary the PDF shows (from the NIS2 scorecard of the same scan). */
export interface Nis2Summary {
  /** 0-100, weighted. */
  readonly total: number
  /** `compliant`, `partial`, `non-compliant` or `unscannable`. */
  readonly status: string
  /** The measures that block readiness, in words. */
  readonly criticalGaps: ReadonlyArray<string>
}

export interface PdfReportInput {
  readonly score: ScanScore
  /** Null when the NIS2 scorecard is not available: the section then says so. */
  readonly nis2: Nis2Summary | null
}

const SEVERITY_ORDER = ["critical", "high", "medium", "low", "info"]

/** Where the service itself generates the fix of an issue (`fixable` in the catalogue). */
const generatorOf = (id: string): string | null =>
  id.startsWith("spf_")
    ? "POST /email/spf/generate"
    : id.startsWith("dmarc_")
      ? "POST /email/dmarc/generate"
      : id.startsWith("dane_") || id.startsWith("tlsa_")
        ? "POST /dns/tlsa/generate"
        : /^(hsts|csp|xcto|frame|referrer|permissions|coop|coep|corp)_/.test(id)
          ? "POST /security-headers/generate"
          : null

/**
 * The standard 14 fonts encode WinAnsi only: typographic punctuation is mapped to its ASCII
 * cousin and anything else outside Latin-1 becomes "?", rather than drawing garbage.
 */
export const winAnsi = (text: string): string =>
  text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, "-")
    .replace(/\u2026/g, "...")
    .replace(/\u2192/g, "->")
    .replace(/\u2265/g, ">=")
    .replace(/\u2264/g, "<=")
    .replace(/[^\x09\x0a\x0d\x20-\x7e\xa0-\xff]/g, "?")

const heading = (doc: PDFKit.PDFDocument, text: string) =>
  doc.moveDown(0.8).font("Helvetica-Bold").fontSize(15).fillColor("#000").text(winAnsi(text)).moveDown(0.3)

const body = (doc: PDFKit.PDFDocument, text: string, options: PDFKit.Mixins.TextOptions = {}) =>
  doc.font("Helvetica").fontSize(10).fillColor("#000").text(winAnsi(text), options)

const titlePage = (doc: PDFKit.PDFDocument, s: ScanScore) => {
  doc.font("Helvetica").fontSize(12).fillColor("#555").text("Domain security report", { align: "center" })
  doc.moveDown(2).font("Helvetica-Bold").fontSize(28).fillColor("#000").text(s.domain, { align: "center" })
  if (s.unscannable !== null) {
    // One verdict everywhere: the scan's reason, not a grade with caps that nothing could lift.
    doc.moveDown(1.5).fontSize(40).text("Not graded", { align: "center" })
    doc.moveDown(0.5).font("Helvetica").fontSize(16).text(winAnsi(s.unscannable), { align: "center" })
    doc.moveDown(2)
    body(doc, `Scanned at ${s.timestamp} (scoring version ${s.scoringVersion})`, { align: "center" })
    return
  }
  doc.moveDown(1.5).fontSize(60).text(`Grade: ${s.grade}`, { align: "center" })
  doc
    .moveDown(0.5)
    .font("Helvetica")
    .fontSize(16)
    .text(`Score: ${s.percentage} / 100 (${s.points} of ${s.maxPoints} points)`, { align: "center" })
  doc.moveDown(0.5).fontSize(13).text(winAnsi(s.gradeInfo.label), { align: "center" })
  doc.moveDown(1)
  body(doc, s.gradeInfo.description, { align: "center" })
  for (const cap of s.gradeInfo.caps) body(doc, cap, { align: "center" })
  doc.moveDown(2)
  body(doc, `Critical and high issues: ${s.critical_issues}    Warnings: ${s.warnings}`, { align: "center" })
  body(doc, `Scanned at ${s.timestamp} (scoring version ${s.scoringVersion})`, { align: "center" })
}

const TABLE_STYLE = {
  rowStyles: (i: number) => (i === 0 ? { backgroundColor: "#e8e8e8", font: "Helvetica-Bold" } : {}),
  defaultStyle: { padding: 4, border: 0.5, fontSize: 9, font: "Helvetica" }
} as const

const categoryTable = (doc: PDFKit.PDFDocument, s: ScanScore) => {
  heading(doc, "Categories")
  const rows = Object.entries(s.categories).map(([id, c]) => [
    id,
    c.status,
    `${c.points} / ${c.maxPoints}`,
    c.maxPoints === 0 ? "-" : `${c.percentage} %`,
    String(c.issues)
  ])
  doc.font("Helvetica").table({
    ...TABLE_STYLE,
    columnStyles: ["*", 90, 80, 75, 50],
    data: [["Category", "Status", "Points", "Percentage", "Issues"], ...rows]
  })
}

const checkTable = (doc: PDFKit.PDFDocument, s: ScanScore) => {
  heading(doc, "Checks")
  const rows = Object.entries(s.categories).flatMap(([id, c]) =>
    c.checks.map((r) => [
      id,
      winAnsi(r.title),
      r.status,
      `${r.points} / ${r.maxPoints}`,
      winAnsi(r.detail === "" ? "-" : r.detail)
    ])
  )
  doc.table({
    ...TABLE_STYLE,
    columnStyles: [60, 120, 60, 50, "*"],
    data: [["Category", "Check", "Status", "Points", "Detail"], ...rows]
  })
}

const issueSection = (doc: PDFKit.PDFDocument, s: ScanScore) => {
  heading(doc, `Issues and fixes (${s.issues.length})`)
  if (s.issues.length === 0) return void body(doc, "No issues: every scored check passes.")
  const fixes = new Map<string, Recommendation>(s.recommendations.map((r) => [r.id, r]))
  const issues = [...s.issues].sort(
    (a, b) =>
      SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) || a.id.localeCompare(b.id)
  )
  for (const issue of issues) {
    doc
      .moveDown(0.6)
      .font("Helvetica-Bold")
      .fontSize(11)
      .text(winAnsi(`[${issue.severity.toUpperCase()}] ${issue.title}`))
    doc.font("Helvetica").fontSize(8).fillColor("#555").text(`${issue.id} - ${issue.category}`)
    body(doc, issue.description)
    for (const check of foundBy(s, issue.id)) body(doc, `Found by ${check.title}: ${check.detail}`)
    const fix = fixes.get(issue.id)
    const generator = issue.fixable ? generatorOf(issue.id) : null
    const how = [
      fix ? `priority ${fix.priority}, ${fix.impact}.` : "informational, no points at stake.",
      generator
        ? `This service generates the corrected record or header: ${generator}.`
        : fix
          ? "Correct what the description names; the check's detail shows what was found."
          : ""
    ]
      .filter((t) => t !== "")
      .join(" ")
    doc
      .font("Helvetica-Bold")
      .fontSize(10)
      .text("Fix: ", { continued: true })
      .font("Helvetica")
      .text(winAnsi(how))
  }
}

/** The checks of the score that produced issue `id`, with what they found. */
const foundBy = (s: ScanScore, id: string) =>
  Object.values(s.categories).flatMap((c) => c.checks.filter((r) => r.issues.includes(id) && r.detail !== ""))

const nis2Section = (doc: PDFKit.PDFDocument, nis2: Nis2Summary | null) => {
  heading(doc, "NIS2 readiness")
  if (nis2 === null)
    return void body(
      doc,
      "The NIS2 readiness summary is not available for this report (GET /scan/nis2 serves it)."
    )
  body(doc, `Readiness: ${nis2.total} / 100 (${nis2.status})`)
  if (nis2.criticalGaps.length === 0) return void body(doc, "No critical gaps.")
  body(doc, "Critical gaps:")
  for (const gap of nis2.criticalGaps) body(doc, gap, { indent: 12 })
}

const footers = (doc: PDFKit.PDFDocument, domain: string) => {
  const range = doc.bufferedPageRange()
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i)
    const bottom = doc.page.margins.bottom
    doc.page.margins.bottom = 0 // writing inside the margin must not add a page
    doc
      .font("Helvetica")
      .fontSize(8)
      .fillColor("#777")
      .text(`${domain} - page ${i + 1} of ${range.count}`, doc.page.margins.left, doc.page.height - 30, {
        align: "center",
        width: doc.page.width - doc.page.margins.left - doc.page.margins.right
      })
    doc.page.margins.bottom = bottom
  }
}

/** The report's PDF bytes. Same input, same bytes. */
export const renderPdf = (input: PdfReportInput): Promise<Uint8Array> =>
  new Promise((resolve, reject) => {
    const s = input.score
    const created = new Date(s.timestamp)
    const doc = new PDFDocument({
      size: "A4",
      margin: 50,
      bufferPages: true,
      info: {
        Title: `Domain security report: ${s.domain}`,
        Subject: `Grade ${s.grade}, score ${s.percentage} / 100`,
        Author: "domain-audit",
        Creator: "domain-audit",
        CreationDate: created,
        ModDate: created
      }
    })
    const chunks: Array<Buffer> = []
    doc.on("data", (chunk: Buffer) => chunks.push(chunk))
    doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))))
    doc.on("error", reject)
    try {
      titlePage(doc, s)
      doc.addPage()
      categoryTable(doc, s)
      nis2Section(doc, input.nis2)
      doc.addPage()
      issueSection(doc, s)
      checkTable(doc, s)
      footers(doc, s.domain)
      doc.end()
    } catch (error) {
      reject(error)
    }
  })
