/**
 * The PDF reads as a document: table columns fit their words (pdftotext finds every word of every
 * cell whole, none broken across lines), no page but the last is nearly empty, the fonts are
 * embedded, and a snapshot's hash is in every footer. Page 1 is written to test-results/ for review.
 * Needs poppler-utils: installed with apt-get when missing, as the world installs its servers.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { Categories } from "../../src/kernel/Check.ts"
import { type IssueId, issueIds } from "../../src/score/Catalogue.ts"
import { scored } from "../../src/score/Rules.ts"
import { scoreRecords } from "../../src/score/Score.ts"
import { renderPdf } from "../../src/report/PdfReport.ts"
import {
  drawable,
  fitColumns,
  fonts,
  registerFonts,
  wrapAtSpaces,
  wrappedWidth
} from "../../src/report/PdfLayout.ts"
import PDFDocument from "pdfkit"
import { domain as toDomain } from "../support/domain.ts"

const has = (tool: string) => {
  try {
    execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
}

const ensurePoppler = () => {
  if (has("pdftotext") && has("pdftoppm")) return
  execFileSync(
    "apt-get",
    ["install", "-y", "-q", "-o", "DPkg::Lock::Timeout=300", "--no-install-recommends", "poppler-utils"],
    { stdio: "ignore", timeout: 600_000 }
  )
}

const run = (tool: string, args: ReadonlyArray<string>) => execFileSync(tool, args, { encoding: "utf8" })

/** Details as checks write them: host names, URLs, hyphenated words, long words. */
const DETAILS = [
  "No Strict-Transport-Security header on https://www.spf-passall.com/",
  "mx1.mail-servers.example-hosting.net presents a certificate for mail.example-hosting.net",
  "not-applicable: the domain publishes no MX record, so no mail-transport check applies",
  "p=none; rua=mailto:dmarc-reports@spf-passall.com; internationalisation of the reporting address",
  "the record ends in +all"
]

const titles = ["SPF policy", "DMARC policy enforced", "HSTS max-age", "MTA-STS policy", "DNSSEC signed"]

/** A score with every catalogue issue, spread over checks in every category. */
const fullScore = () =>
  scoreRecords(
    issueIds.map((id, i) =>
      scored(
        {
          id: `check.${i}`,
          title: titles[i % titles.length]!,
          titleNl: titles[i % titles.length]!,
          category: Categories[i % Categories.length]!,
          maxPoints: 5,
          level: "required",
          critical: i % 11 === 0,
          rule: "",
          rank: i
        },
        {
          status: i % 3 === 0 ? "fail" : "partial",
          points: i % 3 === 0 ? 0 : 2,
          detail: DETAILS[i % 5]!,
          issues: [id as IssueId]
        }
      )
    ),
    { domain: toDomain("spf-passall.com"), timestamp: "2026-03-04T05:06:07.000Z", cached: false }
  )

const tokens = (text: string) => text.split(/\s+/).filter((t) => t !== "")
const countOf = (list: ReadonlyArray<string>) => {
  const counts = new Map<string, number>()
  for (const t of list) counts.set(t, (counts.get(t) ?? 0) + 1)
  return counts
}

/** The words of `cells` that the `region` of pdftotext's layout output does not hold whole. */
const brokenWords = (cells: ReadonlyArray<string>, region: string) => {
  const found = countOf(tokens(region))
  return [...countOf(cells.flatMap(tokens))].filter(([word, n]) => (found.get(word) ?? 0) < n).map(([w]) => w)
}

describe("the PDF's layout", () => {
  const score = fullScore()
  const snapshot = { id: "snap_0123456789abcdef", contentHash: "9f".repeat(32) }
  let file = ""
  let layout = ""
  let pages = 0

  beforeAll(async () => {
    ensurePoppler()
    mkdirSync("test-results", { recursive: true })
    file = "test-results/pdf-report.pdf"
    writeFileSync(
      file,
      await renderPdf({
        score,
        nis2: {
          total: 40,
          status: "partial",
          criticalGaps: [],
          measured: "Meets 6 of the 8 measured controls."
        },
        snapshot
      })
    )
    layout = run("pdftotext", ["-layout", file, "-"])
    pages = Number(/Pages:\s+(\d+)/.exec(run("pdfinfo", [file]))![1])
    run("pdftoppm", [
      "-png",
      "-r",
      "60",
      "-f",
      "1",
      "-l",
      "1",
      "-singlefile",
      file,
      "test-results/pdf-report-page-1"
    ])
  }, 900_000)

  it("breaks no word of a table cell across lines", () => {
    const categories = layout.slice(layout.indexOf("Categories"), layout.indexOf("NIS2 readiness"))
    const catCells = [
      "Category Status Points Score Issues",
      ...Object.entries(score.categories).flatMap(([id, c]) => [
        id,
        c.status === "not-applicable" ? "n/a" : c.status
      ])
    ]
    expect(brokenWords(catCells, categories)).toEqual([])
    const checks = layout.slice(layout.lastIndexOf("Checks"))
    const checkCells = [
      "Category Check Status Points Detail",
      ...Object.entries(score.categories).flatMap(([id, c]) =>
        c.checks.flatMap((r) => [id, r.title, r.detail])
      )
    ]
    expect(brokenWords(checkCells, checks)).toEqual([])
  })

  it("leaves no page but the last nearly empty", () => {
    expect(pages).toBeGreaterThan(3)
    for (let p = 1; p < pages; p++) {
      const text = run("pdftotext", ["-f", String(p), "-l", String(p), file, "-"])
      expect(text.replace(/\s+/g, " ").length, `page ${p}`).toBeGreaterThan(900)
    }
  })

  it("states the grade once, and puts the snapshot's hash in every footer", () => {
    expect(layout.split("Capped at").length + layout.split("Would be capped at").length).toBeLessThanOrEqual(
      4
    )
    expect(layout.split(snapshot.contentHash).length - 1).toBe(pages)
  })

  it.runIf(fonts().embedded)("embeds every font it uses", () => {
    const rows = run("pdffonts", [file])
      .split("\n")
      .slice(2)
      .filter((l) => l.trim() !== "")
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) expect(row).toMatch(/\s+yes\s+yes\s+yes\s+\d+\s+\d+\s*$/)
  })
})

describe("column fitting", () => {
  const measure = (text: string) => text.length * 5
  const word = fc.stringMatching(/^[a-z0-9.:/-]{1,14}$/)
  const cell = fc.array(word, { minLength: 1, maxLength: 8 }).map((ws) => ({ text: ws.join(" ") }))

  it("gives every column at least its longest word, and fits the width", () =>
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { maxLength: 12 }), (rows) => {
        const head = ["One", "Two", "Three"]
        const widths = fitColumns((t) => measure(t), head, rows, 400, 2)
        if (widths === undefined) return
        expect(widths.reduce((s, w) => s + w, 0)).toBeLessThanOrEqual(400.01)
        for (const [c, w] of widths.entries())
          for (const r of [{ text: head[c]! }, ...rows.map((row) => row[c]!)])
            for (const t of tokens(r.text)) expect(measure(t)).toBeLessThanOrEqual(w)
      })
    ))

  it("wraps at spaces only, each line within the width unless one word is wider", () =>
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 20, max: 200 }),
        (ws, width) => {
          const wrapped = wrapAtSpaces(measure, ws.join(" "), width)
          expect(tokens(wrapped)).toEqual(ws)
          for (const line of wrapped.split("\n"))
            expect(measure(line) <= width || tokens(line).length === 1).toBe(true)
        }
      )
    ))
})

describe("a cell's lines as pdfkit draws them", () => {
  const word = fc.stringMatching(/^[A-Za-z0-9.:/()-]{1,12}$/)

  it("are the lines chosen here: pdfkit wraps none again, at the cell's width or at the text's own", () => {
    const doc = new PDFDocument({ size: "A4" })
    registerFonts(doc)
    doc.font("Body").fontSize(9)
    const measure = (text: string) => wrappedWidth((piece) => doc.widthOfString(piece), drawable(text))
    const linesOf = (text: string, width: number) =>
      Math.round(doc.boundsOfString(text, 0, 0, { width }).height / doc.currentLineHeight(true))
    // kerning across pdfkit's break opportunities makes this line 0.5 pt wider piece by piece
    const kerned = wrapAtSpaces(
      measure,
      drawable("a(/caiiar aiad .rW)0 /..)..O0(/ p.. /:d. /n-A(.:)B-- prororvpa -/S-(0)A(0"),
      298
    )
    expect(linesOf(kerned, 298)).toBe(kerned.split("\n").length)
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 90, max: 300 }),
        (ws, width) => {
          const wrapped = wrapAtSpaces(measure, drawable(ws.join(" ")), width)
          const lines = wrapped.split("\n").length
          // the table lays a cell out at its width, then draws it at the width of its widest line
          expect(linesOf(wrapped, width)).toBe(lines)
          expect(linesOf(wrapped, doc.boundsOfString(wrapped, 0, 0, { width }).width)).toBe(lines)
        }
      )
    )
  })
})
