/**
 * The PDF report of a domain (GET /pdf/{domain}), drawn by pdfkit (docs/presentation.md): the
 * grade and its statement, the categories with their status colours, the NIS2 summary, every issue
 * with its guidance (score/Guidance.ts, the text the markdown and the pages show), and every check.
 * Content flows from page to page (no forced page breaks, so no nearly empty page); an issue is
 * kept on one page where it fits. A snapshot's PDF carries its id and content hash in every footer.
 *
 * A pure function of its typed input: the same input gives the same bytes. pdfkit stamps a
 * document with `new Date()` and derives the file `/ID` from its info dictionary
 * (`PDFSecurity.generateFileID`), so the creation date is fixed to the scan's `computedAt` (the
 * score's `timestamp`); font subsets are named after their font ids (PdfLayout.ts).
 */
import PDFDocument from "pdfkit"
import { guidanceOf, providerNames } from "../score/Guidance.ts"
import type { Recommendation, ScanScore } from "../score/Score.ts"
import { referenceOf } from "./GuidanceText.ts"
import {
  fixImpact,
  gradeWord,
  issueDescription,
  issueTitle,
  type Lang,
  recordTitle,
  reportWords,
  requiredBy,
  scoreStatement
} from "./ReportText.ts"
import { receivedLines } from "./ReceivedMarkdown.ts"
import type { ReportsReceived } from "./ReceivedReports.ts"
import {
  type Cell,
  drawable,
  drawTable,
  GRADE_COLOUR,
  body,
  heading,
  INK,
  lookIn,
  muted,
  MUTED,
  pill,
  registerFonts,
  SEVERITY_LOOK
} from "./PdfLayout.ts"

export { winAnsi } from "./PdfLayout.ts"

/** The NIS2 readiness summary the PDF shows (from the NIS2 scorecard of the same scan). */
export interface Nis2Summary {
  /** 0-100, weighted. */
  readonly total: number
  /** `compliant`, `partial`, `non-compliant` or `unscannable`. */
  readonly status: string
  /** The measures that block readiness, in words. */
  readonly criticalGaps: ReadonlyArray<string>
  /** What was measured, in words ("Meets the 8 measured controls."): never "compliant". */
  readonly measured: string
}

/** The stored snapshot a PDF is drawn from: its id and content hash go in every footer. */
export interface PdfSnapshot {
  readonly id: string
  readonly contentHash: string
}

export interface PdfReportInput {
  readonly score: ScanScore
  /** Null when the NIS2 scorecard is not available: the section then says so. */
  readonly nis2: Nis2Summary | null
  /** Set when the PDF is of a stored snapshot rather than of a live scan. */
  readonly snapshot?: PdfSnapshot
  /** The reports received for the domain, as the Everything Report carries them; no section without. */
  readonly received?: ReportsReceived | undefined
  /** The language of its words and guidance (English when absent); the checks' details stay English. */
  readonly lang?: Lang
}

/** The title block: the domain, the grade in its colour, the score and the grade statement, once. */
const titleBlock = (doc: PDFKit.PDFDocument, s: ScanScore, lang: Lang) => {
  const w = reportWords(lang)
  const left = doc.page.margins.left
  const width = doc.page.width - left - doc.page.margins.right
  doc.font("Body").fontSize(11).fillColor(MUTED).text(w.title, left, doc.y)
  doc.font("Bold").fontSize(24).fillColor(INK).text(drawable(s.domain), { width })
  const top = doc.y + 10
  const graded = s.unscannable === null
  const colour = graded ? GRADE_COLOUR(s.grade) : "#555555"
  doc.roundedRect(left, top, 84, 84, 8).fill(colour)
  doc
    .font("Bold")
    .fontSize(graded ? 40 : 16)
    .fillColor("#ffffff")
    .text(graded ? s.grade : w.notGraded, left, top + (graded ? 20 : 34), { width: 84, align: "center" })
  const x = left + 100
  const textWidth = width - 100
  doc
    .fillColor(INK)
    .font("Bold")
    .fontSize(14)
    .text(
      drawable(
        graded
          ? w.grade(s.grade, gradeWord(s.grade, s.gradeInfo.label, lang))
          : gradeWord(s.grade, s.gradeInfo.label, lang)
      ),
      x,
      top,
      {
        width: textWidth
      }
    )
  if (graded)
    doc
      .font("Body")
      .fontSize(11)
      .text(w.scoreLine(s.percentage, s.points, s.maxPoints), { width: textWidth })
  // The statement names the band and every cap: printed once, here.
  body(doc, scoreStatement(s, lang).description, { width: textWidth })
  doc.moveDown(0.3)
  body(doc, w.counts(s.critical_issues, s.warnings), { width: textWidth })
  doc
    .font("Body")
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(w.scanned(s.timestamp, s.scoringVersion), { width: textWidth })
  doc.fillColor(INK)
  doc.x = left
  doc.y = Math.max(doc.y, top + 84) + 6
}

const categoryTable = (doc: PDFKit.PDFDocument, s: ScanScore, lang: Lang) => {
  const w = reportWords(lang)
  const c_ = w.columns
  heading(doc, w.categories)
  const rows: Array<Array<Cell>> = Object.entries(s.categories).map(([id, c]) => [
    { text: id },
    statusCell(c.status, lang),
    { text: `${c.points} / ${c.maxPoints}` },
    { text: c.maxPoints === 0 ? "-" : `${c.percentage} %` },
    { text: String(c.issues) }
  ])
  drawTable(doc, [c_.category, c_.status, c_.points, c_.score, c_.issues], rows)
}

/** A status cell: its colour, and its word in the report's language. */
const statusCell = (status: string, lang: Lang): Cell => {
  const look = lookIn(status, reportWords(lang).status[status] ?? status)
  return { text: look.label, look }
}

const checkTable = (doc: PDFKit.PDFDocument, s: ScanScore, lang: Lang) => {
  const w = reportWords(lang)
  const c_ = w.columns
  heading(doc, w.checks)
  const rows: Array<Array<Cell>> = Object.entries(s.categories).flatMap(([id, c]) =>
    c.checks.map((r) => [
      { text: id },
      { text: recordTitle(r.id, r.title, lang) },
      statusCell(r.status, lang),
      { text: `${r.points} / ${r.maxPoints}` },
      { text: r.detail === "" ? "-" : r.detail }
    ])
  )
  drawTable(doc, [c_.category, c_.check, c_.status, c_.points, c_.detail], rows, 4)
}

/** The checks of the score that produced issue `id`, with what they found. */
const foundBy = (s: ScanScore, id: string) =>
  Object.values(s.categories).flatMap((c) => c.checks.filter((r) => r.issues.includes(id) && r.detail !== ""))

/** One issue: severity, title, what was found, then its guidance. */
const issueBlock = (
  doc: PDFKit.PDFDocument,
  s: ScanScore,
  issue: ScanScore["issues"][number],
  fix: Recommendation | undefined,
  lang: Lang,
  /** The place in the list of what to fix. */
  place?: number
) => {
  const w = reportWords(lang)
  const g = guidanceOf(issue.id, s.domain, lang)
  const title = issueTitle(issue.id, issue.title, lang)
  const description = issueDescription(issue.id, issue.description, lang)
  const left = doc.page.margins.left
  const width = doc.page.width - left - doc.page.margins.right
  const lines = [
    description,
    ...foundBy(s, issue.id).map((c) => `${w.foundBy} ${recordTitle(c.id, c.title, lang)}: ${c.detail}`),
    g?.why ?? "",
    ...(g?.steps ?? []),
    ...(g?.providers.map((p) => p.note) ?? [])
  ]
  // Keep an issue on one page where it fits: measure it before drawing.
  const height =
    40 +
    lines.reduce(
      (h, t) =>
        h +
        doc
          .font("Body")
          .fontSize(10)
          .heightOfString(drawable(t), { width: width - 14 }) +
        2,
      0
    )
  if (
    height < doc.page.height - doc.page.margins.top - doc.page.margins.bottom &&
    doc.y + height > doc.page.height - doc.page.margins.bottom
  )
    doc.addPage()
  doc.moveDown(0.7)
  const look = SEVERITY_LOOK[issue.severity] ?? SEVERITY_LOOK["info"]!
  const top = doc.y
  const pillWidth = pill(doc, w.severity[issue.severity] ?? look.label, look.colour, left, top)
  doc
    .font("Bold")
    .fontSize(11)
    .fillColor(INK)
    .text(drawable(place === undefined ? title : `${place}. ${title}`), left + pillWidth + 6, top + 1, {
      width: width - pillWidth - 6
    })
  doc.x = left
  muted(
    doc,
    `${issue.id} - ${issue.category}${fix ? ` - ${w.priority(fix.priority, fixImpact(fix, lang))}` : `, ${w.noPoints}`}`
  )
  if (fix !== undefined && fix.requiredBy.length > 0) body(doc, requiredBy(fix, lang))
  body(doc, description)
  for (const check of foundBy(s, issue.id))
    body(doc, `${w.foundBy} ${recordTitle(check.id, check.title, lang)}: ${check.detail}`)
  if (g === undefined) return
  doc.moveDown(0.2)
  doc.font("Bold").fontSize(10).text(`${w.why}: `, { continued: true }).font("Body").text(drawable(g.why))
  doc.font("Bold").fontSize(10).text(w.steps)
  doc
    .font("Body")
    .fontSize(10)
    .list(g.steps.map(drawable), { listType: "numbered", indent: 4, bulletIndent: 4, textIndent: 14 })
  for (const p of g.providers)
    doc
      .font("Bold")
      .fontSize(9.5)
      .text(`${providerNames[p.provider]}: `, { continued: true })
      .font("Body")
      .text(drawable(p.note))
  if (g.record !== null)
    doc
      .font("Bold")
      .fontSize(9.5)
      .text(`${w.record}: `, { continued: true })
      .font("Mono")
      .fontSize(8.5)
      .text(drawable(g.record))
  if (g.generator !== null) muted(doc, `${w.generated}: ${g.generator}`)
  if (g.references.length > 0)
    muted(doc, `${w.sources}: ${g.references.map((r) => referenceOf(r).title).join("; ")}`)
}

/**
 * The score's list of what to fix, in its order and count (score/Fixes.ts), then the issues that
 * ask for no fix, for information.
 */
const issueSection = (doc: PDFKit.PDFDocument, s: ScanScore, lang: Lang) => {
  const w = reportWords(lang)
  const byId = new Map(s.issues.map((i) => [i.id, i]))
  heading(doc, w.whatToFix(s.recommendations.length))
  if (s.recommendations.length === 0) body(doc, w.nothingToFix)
  else muted(doc, w.fixOrder)
  s.recommendations.forEach((fix, n) => {
    const issue = byId.get(fix.id)
    if (issue !== undefined) issueBlock(doc, s, issue, fix, lang, n + 1)
  })
  const listed = new Set(s.recommendations.map((r) => r.id))
  const notes = s.issues.filter((i) => !listed.has(i.id))
  if (notes.length === 0) return
  heading(doc, w.forInformation(notes.length))
  for (const issue of notes) issueBlock(doc, s, issue, undefined, lang)
}

const nis2Section = (doc: PDFKit.PDFDocument, nis2: Nis2Summary | null, lang: Lang) => {
  const w = reportWords(lang)
  heading(doc, w.nis2)
  if (nis2 === null) return void body(doc, w.nis2Missing)
  const look = lookIn(
    nis2.status === "compliant" ? "pass" : nis2.status === "partial" ? "partial" : "fail",
    ""
  )
  const top = doc.y
  const label = w.readinessLabel[nis2.status] ?? nis2.status
  const pillWidth = pill(doc, label, look.colour, doc.page.margins.left, top)
  doc
    .font("Body")
    .fontSize(10)
    .fillColor(INK)
    .text(`${w.readiness(nis2.total)} ${nis2.measured}`, doc.page.margins.left + pillWidth + 6, top + 1)
  doc.x = doc.page.margins.left
  if (nis2.criticalGaps.length === 0) return void body(doc, w.noGaps)
  body(doc, w.criticalGaps)
  doc
    .font("Body")
    .fontSize(10)
    .list(nis2.criticalGaps.map(drawable), { indent: 4, bulletIndent: 4, textIndent: 12 })
}

/**
 * "Reports received": the markdown section's own lines (ReceivedMarkdown.ts), so the PDF says what
 * the report and its page say; its tables drawn as tables, its emphasis as plain text.
 */
const receivedSection = (doc: PDFKit.PDFDocument, domain: string, received: ReportsReceived | undefined) => {
  const tables: Array<{ head: ReadonlyArray<string>; rows: ReadonlyArray<ReadonlyArray<string>> }> = []
  const table = (head: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>) => [
    `\u0000${tables.push({ head, rows }) - 1}`
  ]
  const plain = (line: string) => line.replace(/\*\*|`/g, "")
  for (const line of receivedLines(domain, received, (text) => text, table)) {
    if (line.startsWith("## ")) heading(doc, line.slice(3))
    else if (line.startsWith("### "))
      doc
        .moveDown(0.4)
        .font("Bold")
        .fontSize(11.5)
        .text(drawable(line.slice(4)))
    else if (line.startsWith("\u0000")) {
      const { head, rows } = tables[Number(line.slice(1))]!
      drawTable(
        doc,
        head,
        rows.map((row) => row.map((text) => ({ text: text === "" ? "-" : text })))
      )
    } else if (line === "") doc.moveDown(0.3)
    else body(doc, plain(line))
  }
}

const footers = (doc: PDFKit.PDFDocument, domain: string, snapshot: PdfSnapshot | undefined, lang: Lang) => {
  const range = doc.bufferedPageRange()
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i)
    const bottom = doc.page.margins.bottom
    doc.page.margins.bottom = 0 // writing inside the margin must not add a page
    const width = doc.page.width - doc.page.margins.left - doc.page.margins.right
    const lines = [
      reportWords(lang).page(domain, i + 1, range.count),
      ...(snapshot ? [`Snapshot ${snapshot.id} - content hash (SHA-256) ${snapshot.contentHash}`] : [])
    ]
    doc.font("Body").fontSize(7.5).fillColor("#777777")
    lines.forEach((line, n) =>
      doc.text(line, doc.page.margins.left, doc.page.height - 34 + n * 10, {
        align: "center",
        width,
        lineBreak: false
      })
    )
    doc.page.margins.bottom = bottom
  }
}

/** The report's PDF bytes. Same input, same bytes. */
export const renderPdf = (input: PdfReportInput): Promise<Uint8Array> =>
  new Promise((resolve, reject) => {
    const s = input.score
    const lang = input.lang ?? "en"
    const created = new Date(s.timestamp)
    const doc = new PDFDocument({
      size: "A4",
      margins: { top: 50, left: 50, right: 50, bottom: 60 },
      bufferPages: true,
      info: {
        Title: `${reportWords(lang).title}: ${s.domain}`,
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
      registerFonts(doc)
      titleBlock(doc, s, lang)
      categoryTable(doc, s, lang)
      nis2Section(doc, input.nis2, lang)
      issueSection(doc, s, lang)
      receivedSection(doc, s.domain, input.received)
      checkTable(doc, s, lang)
      footers(doc, s.domain, input.snapshot, lang)
      doc.end()
    } catch (error) {
      reject(error)
    }
  })
