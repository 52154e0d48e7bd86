/**
 * One verdict per domain, on every endpoint: a name the world does not have (NXDOMAIN) is reported
 * as not existing, with the same reason string, by GET /scan/quick, POST /scan, the Everything
 * Report, the PDF, the badge, the NIS2 scorecard and the batch (docs/scoring.md "A domain that
 * cannot be graded"), and none of them talks about caps.
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { parseCsvRecord } from "../../src/batch/Csv.ts"
import { CSV_COLUMNS } from "../../src/batch/Record.ts"
import { testApp } from "../http/harness.ts"
import { parseSvg } from "../report/svg.ts"
import { pdfText } from "../report/pdfText.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"
import { CLI } from "../support/bundle.ts"

const DOMAIN = "no-such-domain-xyz.com"
const REASON = `${DOMAIN} does not exist (NXDOMAIN)`
const root = fileURLToPath(new URL("../../", import.meta.url))

const getBytes = (url: string) =>
  Effect.gen(function* () {
    const response = yield* (yield* HttpClient.HttpClient).get(url)
    return { status: response.status, bytes: new Uint8Array(yield* response.arrayBuffer) }
  }).pipe(Effect.scoped)

/** The batch as a user runs it (`domain-audit batch - --format csv`), one domain on stdin. */
const batchCsv = (domain: string) =>
  new Promise<{ code: number | null; stdout: string }>((ok) => {
    const child = spawn(process.execPath, [...CLI, "batch", "-", "--format", "csv"], {
      cwd: root,
      env: { ...process.env, ...worldEnv(), LOG_LEVEL: "Error" },
      stdio: ["pipe", "pipe", "pipe"]
    })
    let stdout = ""
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()))
    child.stdin.end(`${domain}\n`)
    child.on("exit", (code) => ok({ code, stdout }))
  })

describe("a domain that does not exist, on every endpoint", () => {
  layer(testApp(worldEnv()), { timeout: 180_000, excludeTestServices: true })((it) => {
    it.effect("scan, report, PDF, badge and NIS2 give the one verdict with one reason", () =>
      Effect.gen(function* () {
        const quick = yield* getJson(`/api/scan/quick?domain=${DOMAIN}`)
        expect(quick).toMatchObject({ grade: "F", percentage: 0, score: 0, unscannable: REASON })
        expect(quick.gradeInfo).toEqual({
          grade: "F",
          label: "Unscannable",
          description: `Not graded: ${REASON}.`,
          caps: []
        })
        expect(quick.issues.map((i: { id: string }) => i.id)).toEqual(["dns_no_such_domain"])

        const full = yield* HttpClientRequest.post("/api/scan").pipe(
          HttpClientRequest.bodyUnsafeJson({ domain: DOMAIN }),
          (request) => Effect.flatMap(HttpClient.HttpClient, (client) => client.execute(request)),
          Effect.flatMap((response) => response.json),
          Effect.scoped
        )
        expect(full).toMatchObject({
          grade: "F",
          percentage: 0,
          unscannable: REASON,
          gradeInfo: quick.gradeInfo
        })

        const report = yield* getJson(`/api/report/everything?domain=${DOMAIN}`)
        expect(report.summary).toMatchObject({ grade: "F", percentage: 0, unscannable: REASON })
        expect(report.summary.headline).toBe(`${DOMAIN} could not be graded: ${REASON}.`)
        expect(JSON.stringify(report.summary)).not.toMatch(/cap/i)

        const nis2 = yield* getJson(`/api/scan/nis2?domain=${DOMAIN}`)
        expect(nis2).toMatchObject({ status: "unscannable", total: 0, unscannable: REASON })

        const badge = yield* getBytes(`/api/badge/${DOMAIN}`)
        expect(badge.status).toBe(200)
        const svgText = new TextDecoder().decode(badge.bytes)
        expect(parseSvg(svgText).texts).toContain("unscannable")
        expect(svgText).toContain(`<title>security: unscannable: ${REASON}</title>`)

        const pdf = yield* getBytes(`/api/pdf/${DOMAIN}`)
        expect(pdf.status).toBe(200)
        const text = (yield* Effect.promise(() => pdfText(pdf.bytes))).replace(/\s+/g, " ")
        expect(text).toContain("Not graded")
        expect(text).toContain(REASON)
        expect(text).not.toMatch(/capped|Grade F/)
      })
    )

    it.effect("the batch writes the same reason in its unscannable column", () =>
      Effect.gen(function* () {
        const run = yield* Effect.promise(() => batchCsv(DOMAIN))
        expect(run.code).toBe(0)
        const [header, row] = run.stdout
          .split("\r\n")
          .filter((line) => line !== "")
          .map(parseCsvRecord)
        expect(header).toEqual([...CSV_COLUMNS])
        const cell = (column: (typeof CSV_COLUMNS)[number]) => row![CSV_COLUMNS.indexOf(column)]
        // The batch calls it what the API and the badge call it, not a grade.
        expect([cell("domain"), cell("grade"), cell("score"), cell("unscannable"), cell("error")]).toEqual([
          DOMAIN,
          "unscannable",
          "0",
          REASON,
          ""
        ])
      })
    )
  })
})
