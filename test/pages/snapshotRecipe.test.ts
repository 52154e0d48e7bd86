/**
 * The snapshot page's recipe works as printed: the commands the page shows, copied out of its HTML
 * and run by a shell with Node, fetch the snapshot from the URL the page names and say "verified";
 * a copy changed in one value says "MISMATCH" and exits 1.
 */
import { execFile } from "node:child_process"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { FastCheck as fc, Schema } from "effect"
import { snapshotPage } from "../../src/pages/SnapshotPage.ts"
import { contentHashOf } from "../../src/report/Canonical.ts"
import { contentOf, encodeContent, snapshotEvidence } from "../../src/report/Everything.ts"
import { EverythingReport } from "../../src/report/ReportSchema.ts"
import { scanResult } from "../../src/score/Arbitraries.ts"

let served = ""
let server: Server
let base = ""

beforeAll(async () => {
  server = createServer((_, res) => res.writeHead(200, { "content-type": "application/json" }).end(served))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const UNESCAPE: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'"
}

/** The recipe as the page prints it: the last code block, as a reader would copy it. */
const recipeOf = (page: string): string => {
  const blocks = [...page.matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) => m[1]!)
  return blocks.at(-1)!.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => UNESCAPE[e]!)
}

const run = (script: string) =>
  new Promise<{ code: number; out: string }>((resolve) =>
    execFile("sh", ["-c", script], { timeout: 30_000 }, (error, stdout) =>
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), out: stdout })
    )
  )

describe("the snapshot page's recipe", () => {
  it("verifies the snapshot it names, and refuses a tampered copy", async () => {
    const scan = fc.sample(scanResult({ gradable: true }), { numRuns: 1, seed: 7 })[0]!
    const content = contentOf(scan, base)
    const contentHash = contentHashOf(encodeContent(content))
    const report: EverythingReport = {
      ...content,
      evidence: snapshotEvidence(content, base, {
        id: "snap_1",
        contentHash,
        createdAt: "2026-01-01T00:00:00.000Z"
      })
    }
    const json = Schema.encodeSync(Schema.parseJson(EverythingReport))(report)
    const recipe = recipeOf(snapshotPage(report, "en").markup)
    expect(recipe).toContain(`${base}/report/snapshot/snap_1`)
    expect(recipe).not.toContain("<this host>")
    served = json
    expect(await run(recipe)).toEqual({ code: 0, out: `verified ${contentHash}\n` })
    const tampered = JSON.parse(json)
    tampered.summary.percentage = (tampered.summary.percentage + 1) % 100
    served = JSON.stringify(tampered)
    const refused = await run(recipe)
    expect(refused.code).toBe(1)
    expect(refused.out).toMatch(/^MISMATCH sha256:/)
  }, 60_000)
})
