/// <reference lib="dom" />
/**
 * The "what if" page in a real browser (Debian's chromium driven by puppeteer-core), against the
 * service on the world: the form comes prefilled with spf-toomany.com's live SPF record; replaced
 * by a flattened one and submitted (an HTML form POST, no script), the answer is the report of the
 * domain as previewed with the grade before and after and the issue fixed marked; a malformed record
 * is the form again with the preview's message beside it, status 400; the Dutch page speaks Dutch.
 * No console error, no serious axe violation; screenshots under test-results/pages/.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { HttpServer } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import puppeteer, { type Browser, type Page } from "puppeteer-core"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"

const CHROMIUM = "/usr/bin/chromium"
const SHOTS = fileURLToPath(new URL("../../test-results/pages/", import.meta.url))
const AXE = readFileSync(join(createRequire(import.meta.url).resolve("axe-core"), "..", "axe.min.js"), "utf8")
const FLAT_SPF =
  "v=spf1 ip4:192.0.2.1 ip4:192.0.2.2 ip4:192.0.2.3 ip4:198.51.100.1 ip4:198.51.100.2 ip4:198.51.100.3 a mx ip4:203.0.113.1 -all"

const launch = () =>
  Effect.acquireRelease(
    Effect.promise(() => {
      if (!existsSync(CHROMIUM))
        execFileSync("apt-get", ["install", "-y", "-o", "DPkg::Lock::Timeout=300", "chromium"], {
          stdio: "inherit"
        })
      return puppeteer.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]
      })
    }),
    (browser: Browser) => Effect.promise(() => browser.close())
  )

/** A page that records console errors; axe is injected past the page's CSP (it allows no script). */
const newPage = async (browser: Browser) => {
  const page = await browser.newPage()
  await page.setBypassCSP(true)
  const errors: Array<string> = []
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of 400/.test(m.text())) errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(String(e)))
  return { page, errors }
}

const axeViolations = async (page: Page) => {
  await page.addScriptTag({ content: AXE })
  const result = (await page.evaluate(() => (globalThis as any).axe.run(document))) as {
    violations: Array<{ id: string; impact: string; nodes: Array<{ target: Array<string> }> }>
  }
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)
}

/** Replace the records textarea's text, as a person selecting all and typing would, and submit. */
const submitRecords = async (page: Page, records: string) => {
  await page.$eval("#records", (el, value) => ((el as HTMLTextAreaElement).value = value), records)
  const [response] = await Promise.all([
    page.waitForNavigation({ waitUntil: "networkidle0", timeout: 120_000 }),
    page.click("form.preview button[type=submit]")
  ])
  return response?.status() ?? 0
}

const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true })
  await page.setViewport({ width: 1280, height: 900 })
  await page.screenshot({ path: join(SHOTS, `${name}-1280.png`) as `${string}.png`, fullPage: true })
}

describe("the what-if page in chromium", () => {
  layer(testApp(worldEnv()), { timeout: 300_000, excludeTestServices: true })((it) => {
    it.scoped(
      "prefilled, previewed, refused, and in Dutch",
      () =>
        Effect.gen(function* () {
          const address = (yield* HttpServer.HttpServer).address as HttpServer.TcpAddress
          const base = `http://127.0.0.1:${address.port}`
          const browser = yield* launch()
          yield* Effect.promise(async () => {
            const { page, errors } = await newPage(browser)
            const first = await page.goto(`${base}/preview/spf-toomany.com?lang=en`, {
              waitUntil: "networkidle0"
            })
            expect(first?.status()).toBe(200)
            const prefilled = await page.$eval("#records", (el) => (el as HTMLTextAreaElement).value)
            expect(prefilled).toContain("spf-toomany.com TXT")
            expect(prefilled).toContain("include:a._spf.spf-toomany.com")

            expect(await submitRecords(page, `@ TXT ${FLAT_SPF}`)).toBe(200)
            const body = await page.$eval("main", (el) => (el as HTMLElement).innerText)
            expect(body).toContain("What publishing these records does")
            expect(body).toMatch(/Issues fixed \(\d+\)/)
            expect(body).toContain("spf_too_many_lookups")
            expect(await page.$$eval(".hero .grade", (els) => els.length)).toBeGreaterThanOrEqual(2)
            // the form stays, with what was submitted, to change and try again
            expect(await page.$eval("#records", (el) => (el as HTMLTextAreaElement).value)).toContain(
              FLAT_SPF
            )
            expect(await axeViolations(page)).toEqual([])
            await shot(page, "preview")

            expect(await submitRecords(page, "_dmarc.spf-toomany.com TXT v=DMARC1; p=maybe")).toBe(400)
            const problem = await page.$eval("#problem", (el) => (el as HTMLElement).innerText)
            expect(problem).toContain("_dmarc.spf-toomany.com")
            expect(problem).toContain("DMARC")
            await shot(page, "preview-refused")

            await page.goto(`${base}/preview/spf-toomany.com?lang=nl`, { waitUntil: "networkidle0" })
            const dutch = await page.$eval("main", (el) => (el as HTMLElement).innerText)
            expect(dutch).toContain("Te publiceren records")
            expect(dutch).toContain("je")
            expect(await submitRecords(page, `@ TXT ${FLAT_SPF}`)).toBe(200)
            expect(await page.$eval("main", (el) => (el as HTMLElement).innerText)).toContain(
              "Opgeloste problemen"
            )
            await shot(page, "preview-nl")
            expect(errors).toEqual([])
          })
        }),
      // two scans of the domain and a browser: over 30 s on a loaded machine
      180_000
    )
  })
})
