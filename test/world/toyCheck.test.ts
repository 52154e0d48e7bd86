/**
 * A check added as a newcomer adds one (test/fixtures/toy: a folder, and one registry line) appears
 * in the score, the Everything Report (JSON and markdown), the PDF, the CSV and the mail deep scan,
 * with no other edit: every reader takes the registry as a parameter (the real one by default).
 * Scanned against the world, where no apex publishes a toy-verification= token.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { csvHeader, csvRow } from "../../src/batch/Record.ts"
import { registry } from "../../src/checks/index.ts"
import { deepScan, deepScanChecks } from "../../src/jobs/DeepScan.ts"
import { buildContent, liveEvidence } from "../../src/report/Everything.ts"
import { renderMarkdown } from "../../src/report/Markdown.ts"
import { renderPdf } from "../../src/report/PdfReport.ts"
import { reportContentSchema } from "../../src/report/ReportSchema.ts"
import { scan } from "../../src/scan/Scanner.ts"
import { score } from "../../src/score/Score.ts"
import { toyRegistry } from "../fixtures/toy/registry.ts"
import { pdfText } from "../report/pdfText.ts"
import { ScanWorld } from "./scanWorld.ts"
import { domain } from "../support/domain.ts"

const parse = (line: string) => line.trim().split(",")

describe("a toy check added with a folder and a registry line", () => {
  layer(ScanWorld, { timeout: 120_000 })((it) => {
    it.effect("is scored, reported, exported and deep-scanned", () =>
      Effect.gen(function* () {
        const result = yield* scan(domain("perfect.com"), { checks: toyRegistry })
        expect(result.checks.toy).toMatchObject({ status: "done", result: { status: "fail", token: null } })

        // The score: its rule in its category, its issue among the issues and recommendations.
        const sc = score(result, toyRegistry)
        const record = sc.categories.dns.checks.find((r) => r.id === "toy.token")
        expect(record).toMatchObject({
          status: "fail",
          points: 0,
          maxPoints: 1,
          issues: ["toy_token_missing"]
        })
        expect(sc.issues.map((i) => i.id)).toContain("toy_token_missing")
        expect(sc.recommendations.map((r) => r.id)).toContain("toy_token_missing")
        // Without the toy, perfect.com is perfect; the toy's point is what it lost.
        const plain = score(result)
        expect(plain.categories.dns.checks.some((r) => r.id === "toy.token")).toBe(false)
        expect(sc.maxPoints - plain.maxPoints).toBe(1)

        // The Everything Report: a section of its own, in place, that survives its Schema.
        const content = buildContent(result, sc, "http://localhost/api", toyRegistry)
        const encoded = Schema.encodeSync(reportContentSchema(toyRegistry))(content)
        const keys = Object.keys(encoded.sections)
        expect(keys.indexOf("toy")).toBe(keys.indexOf("senderRequirements") + 1)
        expect((encoded.sections as Readonly<Record<string, unknown>>)["toy"]).toMatchObject({
          title: "Toy verification",
          check: "toy",
          status: "fail",
          records: [{ id: "toy.token" }],
          findings: [{ issueId: "toy_token_missing" }]
        })
        expect(content.summary.sections.map((s) => s.key)).toContain("toy")
        const markdown = renderMarkdown({
          ...content,
          evidence: liveEvidence(content, "http://localhost/api")
        })
        expect(markdown).toContain("## Toy verification")

        // The PDF: its issue, with its title.
        const text = yield* Effect.promise(() => renderPdf({ score: sc, nis2: null }).then(pdfText))
        expect(text).toContain("No toy verification token")

        // The CSV: its column, with its verdict, and its issue.
        const header = parse(csvHeader(toyRegistry))
        const row = parse(csvRow({ domain: domain("perfect.com"), scan: result, score: sc }, toyRegistry))
        expect(header).toContain("toy")
        expect(row[header.indexOf("toy")]).toBe("fail")
        expect(row[header.indexOf("issues")]).toContain("toy_token_missing")
        expect(parse(csvHeader())).not.toContain("toy")

        // The mail deep scan runs it, beside the mail checks.
        const mail = deepScanChecks("mail", toyRegistry)
        expect(mail.map((c) => c.id)).toEqual([...deepScanChecks("mail", registry).map((c) => c.id), "toy"])
        const deep = yield* deepScan(domain("perfect.com"), mail, 30_000)
        expect(deep.checks["toy"]).toMatchObject({ status: "done", result: { status: "fail" } })
      })
    )
  })
})
