/**
 * How the PDF report (PdfReport.ts) draws: its fonts, status colours and labels, and tables whose
 * columns are wide enough for the longest word of every cell, so that no word is broken inside a
 * cell (pdfkit breaks a word that does not fit its column letter by letter).
 *
 * The fonts are DejaVu Sans (Debian `fonts-dejavu-core`) when present, embedded as subsets: they
 * draw the status marks (check and cross) and any Latin, Greek or Cyrillic text of a record. Without
 * them the standard Helvetica is used (not embedded; WinAnsi only), the marks become ASCII and other
 * text is mapped by `winAnsi`. pdfkit names a subset after its font id (F1, F2...), not at random,
 * so either way the same input gives the same bytes.
 */
import { existsSync, readFileSync } from "node:fs"
import LineBreaker from "linebreak"
import PDFDocument from "pdfkit"
import { unsafeCoerce } from "effect/Function"

const DEJAVU = "/usr/share/fonts/truetype/dejavu"

/** The three faces the report uses, by the names it registers them under. */
export type Face = "Body" | "Bold" | "Mono"

interface Fonts {
  readonly embedded: boolean
  /** A standard font's name, or a parsed font (pdfkit accepts any object with a `layout`). */
  readonly files: Readonly<Record<Face, string | object>>
}

/**
 * A font file parsed once. pdfkit parses a font given as bytes anew for every document (fontkit,
 * about 1 s of CPU for the three DejaVu faces), but takes an already parsed font as it is: a probe
 * document parses each face once, and every report embeds its own subset of it.
 */
const parsed = (file: Buffer): object => {
  const probe = new PDFDocument({ autoFirstPage: false })
  probe.font(file)
  // pdfkit keeps the parsed fontkit font on its current font object
  return unsafeCoerce<typeof probe, { _font: { font: object } }>(probe)._font.font
}

const loadFonts = (): Fonts => {
  const paths = { Body: "DejaVuSans.ttf", Bold: "DejaVuSans-Bold.ttf", Mono: "DejaVuSansMono.ttf" }
  if (Object.values(paths).every((f) => existsSync(`${DEJAVU}/${f}`)))
    return {
      embedded: true,
      files: {
        Body: parsed(readFileSync(`${DEJAVU}/${paths.Body}`)),
        Bold: parsed(readFileSync(`${DEJAVU}/${paths.Bold}`)),
        Mono: parsed(readFileSync(`${DEJAVU}/${paths.Mono}`))
      }
    }
  return { embedded: false, files: { Body: "Helvetica", Bold: "Helvetica-Bold", Mono: "Courier" } }
}

/** Read and parsed once, on first use: the font files do not change while the service runs. */
let loaded: Fonts | undefined
export const fonts = (): Fonts => (loaded ??= loadFonts())

/** Registers the three faces on a new document. */
export const registerFonts = (doc: PDFKit.PDFDocument) => {
  for (const face of ["Body", "Bold", "Mono"] as const) {
    const file = fonts().files[face]
    // A parsed font registered under its PostScript name as family: pdfkit's tables restore the
    // font by (source, family) after each cell, and find it cached under that name instead of
    // opening it again (and comparing it with every font already open).
    const family = typeof file === "string" ? undefined : (file as { postscriptName?: string }).postscriptName
    doc.registerFont(face, file as PDFKit.Mixins.PDFFontSource, family)
  }
  doc.font("Body")
}

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

/** Text as the fonts in use can draw it. */
export const drawable = (text: string): string => (fonts().embedded ? text : winAnsi(text))

/**
 * A line's width as pdfkit's line wrapper sums it: piece by piece between the UAX #14 break
 * opportunities (the `linebreak` package pdfkit uses), each piece measured alone. The whole line
 * measured at once can be narrower, by the kerning across those opportunities ("W)" or "/."), and
 * a line chosen by that width could still be wrapped by pdfkit.
 */
export const wrappedWidth = (widthOf: (text: string) => number, line: string): number => {
  const breaker = new LineBreaker(line)
  let width = 0
  let start = 0
  for (let bk = breaker.nextBreak(); bk !== null; bk = breaker.nextBreak()) {
    width += widthOf(line.slice(start, bk.position))
    start = bk.position
  }
  return width
}

/**
 * A cell's text with its line breaks chosen here, at spaces only, so that each line fits `width`.
 * pdfkit's own wrapping (UAX #14) also breaks after a hyphen or a slash, which splits a host name,
 * a URL or a status in two; lines that already fit are left whole. pdfkit measures a line that
 * ends in a line break with the break's glyph (about 0.6 em), so each line is measured with it:
 * a line that fits only without it would be wrapped again, leaving its last word alone on a line.
 */
const BREAK = "\n"

export const wrapAtSpaces = (measure: (text: string) => number, text: string, width: number): string =>
  text
    .split(BREAK)
    .map((paragraph, i, all) => {
      // the last paragraph, when it fits, is one line that ends in no break
      if (i === all.length - 1 && measure(paragraph) <= width) return paragraph
      const lines: Array<string> = []
      for (const word of paragraph.split(/\s+/).filter((w) => w !== "")) {
        const last = lines.length - 1
        if (last >= 0 && measure(`${lines[last]} ${word}${BREAK}`) <= width)
          lines[last] = `${lines[last]} ${word}`
        else lines.push(word)
      }
      return lines.join(BREAK)
    })
    .join(BREAK)

/** A status as colour and label: green pass, amber partial, red fail, grey otherwise. */
export interface Look {
  readonly colour: string
  readonly tint: string
  readonly label: string
}

const mark = (embedded: string, ascii: string) => (fonts().embedded ? embedded : ascii)

export const STATUS_LOOK: Readonly<Record<string, Look>> = {
  pass: { colour: "#1b7f3b", tint: "#e3f4e8", label: `${mark("\u2713", "+")} pass` },
  partial: { colour: "#9a6700", tint: "#fff4d6", label: `${mark("\u25d0", "~")} partial` },
  fail: { colour: "#b42318", tint: "#fde8e6", label: `${mark("\u2717", "x")} fail` },
  unknown: { colour: "#555555", tint: "#eeeeee", label: "? unknown" },
  "not-applicable": { colour: "#555555", tint: "#f4f4f4", label: "n/a" }
}

export const lookOf = (status: string): Look => STATUS_LOOK[status] ?? STATUS_LOOK["unknown"]!

const STATUS_MARK: Readonly<Record<string, readonly [string, string]>> = {
  pass: ["\u2713", "+"],
  partial: ["\u25d0", "~"],
  fail: ["\u2717", "x"],
  unknown: ["?", "?"]
}

/** A status's look labelled with `word` (the status in the report's language), after its mark. */
export const lookIn = (status: string, word: string): Look => {
  const m = STATUS_MARK[status] ?? (Object.hasOwn(STATUS_LOOK, status) ? undefined : STATUS_MARK["unknown"])
  return { ...lookOf(status), label: m === undefined ? word : `${mark(m[0], m[1])} ${word}` }
}

export const SEVERITY_LOOK: Readonly<Record<string, Look>> = {
  critical: { colour: "#7a0e0e", tint: "#fde8e6", label: "CRITICAL" },
  high: { colour: "#b42318", tint: "#fde8e6", label: "HIGH" },
  medium: { colour: "#9a6700", tint: "#fff4d6", label: "MEDIUM" },
  low: { colour: "#1f5f99", tint: "#e5effa", label: "LOW" },
  info: { colour: "#555555", tint: "#eeeeee", label: "INFO" }
}

export const GRADE_COLOUR = (grade: string): string =>
  grade.startsWith("A") ? "#1b7f3b" : grade === "B" ? "#4d7c0f" : grade === "C" ? "#9a6700" : "#b42318"

/** A cell: its text, and the look of a status cell. */
export interface Cell {
  readonly text: string
  readonly look?: Look
}

export const TABLE_FONT_SIZE = 9
export const CELL_PADDING = 4
/** Room left in a line beyond its measured width, so pdfkit's rounding never wraps it again. */
const SLACK = 2

/** The words of a cell, as pdfkit may wrap between them (at spaces). */
const wordsOf = (text: string) => text.split(/\s+/).filter((w) => w !== "")

/**
 * Column widths that fit `total`: each column as wide as its longest line if they all fit; else
 * the columns shrink toward their longest word (never below it), widest first. `undefined` when
 * even the longest words do not fit side by side (the caller lowers the font size).
 */
export const fitColumns = (
  measure: (text: string, face: Face) => number,
  head: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>,
  total: number,
  fill?: number
): ReadonlyArray<number> | undefined => {
  const pad = 2 * CELL_PADDING + SLACK
  const cells = (c: number) => [
    { text: head[c]!, face: "Bold" as Face },
    ...rows.map((r) => ({ text: r[c]!.text, face: (r[c]!.look === undefined ? "Body" : "Bold") as Face }))
  ]
  // A word may end a line that ends in a break, which pdfkit measures with the break (wrapAtSpaces).
  const min = head.map(
    (_, c) =>
      Math.max(...cells(c).flatMap((x) => wordsOf(x.text).map((w) => measure(`${w}${BREAK}`, x.face)))) + pad
  )
  const natural = head.map((_, c) => Math.max(...cells(c).map((x) => measure(x.text, x.face))) + pad)
  if (min.reduce((s, w) => s + w, 0) > total) return undefined
  const widths = natural.map((w, c) => Math.max(w, min[c]!))
  // Shrink the widest column toward its minimum until the table fits: short columns stay whole.
  let excess = widths.reduce((s, w) => s + w, 0) - total
  while (excess > 0.01) {
    const order = widths.map((w, c) => ({ w, c, slack: w - min[c]! })).filter((x) => x.slack > 0.01)
    order.sort((a, b) => b.w - a.w || a.c - b.c)
    const widest = order[0]!
    const next = order[1]?.w ?? 0
    const cut = Math.min(excess, widest.slack, Math.max(widest.w - next, 1))
    widths[widest.c] = widest.w - cut
    excess -= cut
  }
  // Left-over room goes to the `fill` column, if any (a table of short values stays compact).
  const spare = total - widths.reduce((s, w) => s + w, 0)
  if (fill !== undefined) widths[fill] = widths[fill]! + Math.max(spare, 0)
  return widths
}

/** Draws a table with a bold shaded header row, status cells in their colour, columns fitted. */
export const drawTable = (
  doc: PDFKit.PDFDocument,
  head: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>,
  /** The column that takes the width the others leave (none: the table is as wide as its text). */
  fill?: number
) => {
  const total = doc.page.width - doc.page.margins.left - doc.page.margins.right
  let size = TABLE_FONT_SIZE
  let widths: ReadonlyArray<number> | undefined
  // Widths scale with the size: each text is laid out once per face (layout is the costly part).
  const unit = new Map<string, number>()
  const measure = (face: Face) => (text: string) => {
    const key = `${face}\u0000${text}`
    let w = unit.get(key)
    if (w === undefined) {
      const sized = doc.font(face).fontSize(1)
      unit.set(key, (w = wrappedWidth((piece) => sized.widthOfString(piece), drawable(text))))
    }
    return w * size
  }
  for (; size >= 6; size -= 0.5) {
    widths = fitColumns((t, f) => measure(f)(t), head, rows, total, fill)
    if (widths !== undefined) break
  }
  const fitted = widths ?? head.map(() => total / head.length)
  const cellText = (text: string, face: Face, column: number) =>
    wrapAtSpaces(measure(face), drawable(text), fitted[column]! - 2 * CELL_PADDING - SLACK)
  doc.font("Body").fontSize(size)
  doc.table({
    position: { x: doc.page.margins.left },
    columnStyles: fitted.map((width) => ({ width })),
    defaultStyle: { padding: CELL_PADDING, border: 0.5, borderColor: "#bbbbbb" },
    rowStyles: (i) =>
      i === 0 ? { font: { src: "Bold", size }, backgroundColor: "#e8e8e8" } : { font: { src: "Body", size } },
    data: [
      head.map((h, c) => ({ text: cellText(h, "Bold", c) })),
      ...rows.map((r) =>
        r.map((cell, c) =>
          cell.look === undefined
            ? { text: cellText(cell.text, "Body", c) }
            : {
                text: cellText(cell.text, "Bold", c),
                textColor: cell.look.colour,
                backgroundColor: cell.look.tint,
                font: { src: "Bold", size }
              }
        )
      )
    ]
  })
  doc.x = doc.page.margins.left
}

export const INK = "#1a1a1a"
export const MUTED = "#5c5c5c"

/** A section heading, never left alone at the foot of a page. */
export const heading = (doc: PDFKit.PDFDocument, text: string) => {
  // a heading never stands alone at the foot of a page
  if (doc.y > doc.page.height - doc.page.margins.bottom - 90) doc.addPage()
  doc.moveDown(0.9).font("Bold").fontSize(15).fillColor(INK).text(drawable(text)).moveDown(0.3)
}

/** Body text at the cursor. */
export const body = (doc: PDFKit.PDFDocument, text: string, options: PDFKit.Mixins.TextOptions = {}) =>
  doc.font("Body").fontSize(10).fillColor(INK).text(drawable(text), options)

/** A small grey line (metadata, sources). */
export const muted = (doc: PDFKit.PDFDocument, text: string) =>
  doc.font("Body").fontSize(8.5).fillColor(MUTED).text(drawable(text)).fillColor(INK)

/** A filled rounded label (a status or severity), drawn at the cursor; returns its width. */
export const pill = (doc: PDFKit.PDFDocument, text: string, colour: string, x: number, y: number) => {
  doc.font("Bold").fontSize(8)
  const w = doc.widthOfString(drawable(text)) + 10
  doc.roundedRect(x, y, w, 13, 3).fill(colour)
  doc.fillColor("#ffffff").text(drawable(text), x + 5, y + 3, { lineBreak: false })
  doc.fillColor(INK)
  return w
}
