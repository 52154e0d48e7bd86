/**
 * The pages' pure parts: escaping (any text placed in a page comes out as the same text, never as
 * markup), the language a request gets, the coding a client gets, and every page rendered from any
 * report the schema allows: only the elements the pages use, no event-handler attribute, no script,
 * and hostile values (a domain or a record with markup in it) shown as text.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, FastCheck } from "effect"
import { parseDocument } from "htmlparser2"
import { negotiate } from "../../src/http/edge/Compression.ts"
import { escape, html } from "../../src/pages/Html.ts"
import { historyPage, tableRows } from "../../src/pages/HistoryPage.ts"
import { reportPage } from "../../src/pages/ReportPage.ts"
import { snapshotPage } from "../../src/pages/SnapshotPage.ts"
import { pickLang } from "../../src/pages/Text.ts"
import { EverythingReport } from "../../src/report/ReportSchema.ts"
import { runs } from "../support/runs.ts"
import type { Domain } from "../../src/records/DomainName.ts"

const ALLOWED = new Set(
  "html head meta title link body a header nav ul ol li main footer p h1 h2 h3 span div table caption thead tbody tr th td section article details summary dl dt dd time code pre strong form button input label svg title desc line text polyline circle".split(
    " "
  )
)

interface Node {
  readonly type: string
  readonly name?: string
  readonly attribs?: Record<string, string>
  readonly children?: ReadonlyArray<Node>
  readonly data?: string
}

const elements = (node: Node): Array<Node> => [
  ...(node.type === "tag" || node.type === "script" || node.type === "style" ? [node] : []),
  ...(node.children ?? []).flatMap(elements)
]

const textOf = (node: Node): string =>
  node.type === "text" ? (node.data ?? "") : (node.children ?? []).map(textOf).join("")

/** The document's elements; every one must be one the pages use, with no event handler. */
const checkMarkup = (markup: string) => {
  const doc = parseDocument(markup, { decodeEntities: true }) as unknown as Node
  const tags = elements(doc)
  for (const tag of tags) {
    expect(ALLOWED.has(tag.name!), tag.name).toBe(true)
    expect(Object.keys(tag.attribs ?? {}).filter((a) => a.startsWith("on"))).toEqual([])
    for (const attr of ["href", "action", "src"]) {
      const value = tag.attribs?.[attr]
      if (value !== undefined) expect(value, attr).toMatch(/^(\/(?!\/)|#|https?:\/\/)/)
    }
  }
  return doc
}

describe("escaping", () => {
  it("any text comes back as the same text, and never as an element", () =>
    FastCheck.assert(
      FastCheck.property(FastCheck.string({ unit: "binary" }), (text) => {
        const doc = parseDocument(html`<p title="${text}">${text}</p>`.markup, {
          decodeEntities: true
        }) as unknown as Node
        const p = doc.children![0]!
        expect(p.name).toBe("p")
        expect(elements(p)).toHaveLength(1)
        const clean = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "\ufffd")
        expect(textOf(p)).toBe(clean)
        expect(p.attribs!.title).toBe(clean)
        expect(escape(text)).not.toMatch(/[<>"']/)
      })
    ))
})

describe("language", () => {
  it("?lang= wins, then Accept-Language by quality, then English", () => {
    expect(pickLang("nl", "en")).toBe("nl")
    expect(pickLang("fr", "nl-NL,nl;q=0.9,en;q=0.8")).toBe("nl")
    expect(pickLang(undefined, "de, en;q=0.5, nl;q=0.7")).toBe("nl")
    expect(pickLang(undefined, "nl;q=0, en")).toBe("en")
    expect(pickLang(undefined, "de")).toBe("en")
    expect(pickLang(undefined, undefined)).toBe("en")
  })
})

describe("content coding", () => {
  it("brotli or gzip by q-value, identity when neither is acceptable", () => {
    expect(negotiate("gzip, deflate, br")).toBe("br")
    expect(negotiate("gzip;q=1, br;q=0.5")).toBe("gzip")
    expect(negotiate("br;q=0, gzip")).toBe("gzip")
    expect(negotiate("*")).toBe("br")
    expect(negotiate("identity")).toBe("identity")
    expect(negotiate(undefined)).toBe("identity")
    expect(negotiate("gzip;q=0, br;q=0")).toBe("identity")
  })
})

describe("report pages", () => {
  it("render any report with the pages' elements only, in both languages", () =>
    FastCheck.assert(
      FastCheck.property(
        Arbitrary.make(EverythingReport),
        FastCheck.constantFrom("en" as const, "nl" as const),
        (report, lang) => {
          checkMarkup(reportPage(report, lang).markup)
          checkMarkup(snapshotPage(report, lang).markup)
        }
      ),
      { numRuns: runs(25) }
    ))

  it("show a hostile domain and record as text", () =>
    FastCheck.assert(
      FastCheck.property(Arbitrary.make(EverythingReport), (generated) => {
        const hostile = `<img src=x onerror=alert(1)>"'`
        const report = {
          ...generated,
          // a Domain cannot hold it, but the page escapes whatever text it is given
          domain: hostile as Domain,
          summary: { ...generated.summary, headline: hostile }
        }
        const markup = reportPage(report, "en").markup
        checkMarkup(markup)
        expect(markup).not.toContain("<img")
        expect(markup).toContain("&lt;img src=x onerror=alert(1)&gt;&quot;&#39;")
      }),
      { numRuns: runs(10) }
    ))
})

describe("the history page", () => {
  const entry = FastCheck.record({
    seq: FastCheck.integer({ min: 1, max: 10_000 }),
    scannedAt: FastCheck.date({
      min: new Date("2020-01-01"),
      max: new Date("2030-01-01"),
      noInvalidDate: true
    }).map((d) => d.toISOString()),
    grade: FastCheck.constantFrom("A+", "A", "B", "C", "D", "F"),
    percentage: FastCheck.integer({ min: 0, max: 100 }),
    hash: FastCheck.string()
  })
  const line = FastCheck.record({
    severity: FastCheck.constantFrom("critical", "high", "medium", "low", "info"),
    summary: FastCheck.string(),
    checks: FastCheck.array(FastCheck.string(), { maxLength: 3 })
  })

  it("draws every entry on the chart and lists every line of the changes, and the checks a line folds, as text", () =>
    FastCheck.assert(
      FastCheck.property(
        FastCheck.array(entry, { maxLength: 40 }),
        FastCheck.array(
          FastCheck.record({ to: FastCheck.nat(), lines: FastCheck.array(line, { maxLength: 5 }) }),
          {
            maxLength: 10
          }
        ),
        FastCheck.boolean(),
        (entries, steps, chainValid) => {
          const markup = historyPage(
            { domain: "example.com", entries, chainValid, invalidSeq: chainValid ? null : 1, steps },
            "en"
          ).markup
          const doc = checkMarkup(markup)
          const circles = elements(doc).filter((e) => e.name === "circle")
          expect(circles).toHaveLength(entries.length)
          for (const c of circles) expect(Number(c.attribs!.cy)).not.toBeNaN()
          const items = elements(doc).filter((e) => e.name === "li")
          expect(items.length).toBeGreaterThanOrEqual(
            steps.reduce((s, x) => s + x.lines.reduce((n, l) => n + 1 + l.checks.length, 0), 0)
          )
        }
      ),
      { numRuns: runs(40) }
    ))

  it("folds each stretch of scans that changed nothing into one row, and keeps every scan in one row", () => {
    // 40 daily scans; scan 10 and scan 30 changed something, the diffs of the last 32 are known
    const entries = Array.from({ length: 40 }, (_, i) => ({
      seq: i + 1,
      scannedAt: new Date(Date.UTC(2026, 0, i + 1)).toISOString(),
      grade: i + 1 >= 30 ? "A" : "B",
      percentage: i + 1 >= 30 ? 92 : 85,
      hash: `h${i + 1}`
    }))
    const steps = entries.slice(8).map((e) => ({
      to: e.seq,
      lines: e.seq === 10 || e.seq === 30 ? [{ severity: "info", summary: "changed", checks: [] }] : []
    }))
    const rows = tableRows({ domain: "example.com", entries, chainValid: true, invalidSeq: null, steps })
    expect(rows.map((r) => r.map((e) => e.seq).join(","))).toEqual([
      "31,32,33,34,35,36,37,38,39,40",
      "30",
      "11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29",
      "10",
      "9",
      "8",
      "7",
      "6",
      "5",
      "4",
      "3",
      "2",
      "1"
    ])
    const markup = historyPage(
      { domain: "example.com", entries, chainValid: true, invalidSeq: null, steps },
      "nl"
    ).markup
    expect(markup).toContain("31–40")
    expect(markup).toContain("10 scans, niets veranderd")
    expect(markup).toContain("19 scans, niets veranderd")
  })
})
