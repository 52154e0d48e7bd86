/// <reference lib="dom" />
/**
 * The pages in a real browser (Debian's chromium driven by puppeteer-core; nothing downloads a
 * browser), against the service on the world: each page renders its content with no console error
 * and no failed request, axe-core finds no serious or critical violation, Tab reaches every link,
 * button, field and fold, nothing is wider than the window, and a screenshot at 1280 and 390 px
 * wide is written under test-results/.
 * perfect.com gets a DMARC and a TLS report first, so its page shows "Reports received" in full.
 * The snapshot page is reached the way a person reaches it, with the report page's button; home
 * comes last, when perfect.com (scanned above, A+) is in its list.
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
import { dmarcXml, gzipText, tlsJson } from "../inbound/reports.ts"
import { worldEnv } from "../world/env.ts"

const CHROMIUM = "/usr/bin/chromium"
const SHOTS = fileURLToPath(new URL("../../test-results/pages/", import.meta.url))
const AXE = readFileSync(join(createRequire(import.meta.url).resolve("axe-core"), "..", "axe.min.js"), "utf8")

/** Chromium from Debian, installed as the world installs its servers when it is missing. */
const ensureChromium = () => {
  if (existsSync(CHROMIUM)) return
  execFileSync("apt-get", ["install", "-y", "-o", "DPkg::Lock::Timeout=300", "chromium"], {
    stdio: "inherit"
  })
}

const launch = () =>
  Effect.acquireRelease(
    Effect.promise(() => {
      ensureChromium()
      return puppeteer.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]
      })
    }),
    (browser: Browser) => Effect.promise(() => browser.close())
  )

interface Visit {
  readonly consoleErrors: Array<string>
  readonly failed: Array<string>
  status: number
}

/** Open `url` in a fresh page that records console errors and failed requests. */
const open = async (
  browser: Browser,
  url: string,
  expectStatus = 200
): Promise<{ page: Page; visit: Visit }> => {
  const page = await browser.newPage()
  // axe is injected as a script: the pages' own CSP (no script at all) would refuse it.
  await page.setBypassCSP(true)
  const visit: Visit = { consoleErrors: [], failed: [], status: 0 }
  page.on("console", (m) => {
    // Chromium logs an error status of the page itself: expected when the page is an error page.
    const own = m.location()?.url === url && expectStatus >= 400
    if (m.type() === "error" && !own) visit.consoleErrors.push(m.text())
  })
  page.on("pageerror", (e) => visit.consoleErrors.push(String(e)))
  page.on("requestfailed", (r) => visit.failed.push(`${r.url()} ${r.failure()?.errorText}`))
  page.on("response", (r) => {
    if (r.status() >= 400 && r.url() !== url) visit.failed.push(`${r.url()} ${r.status()}`)
  })
  const response = await page.goto(url, { waitUntil: "networkidle0", timeout: 120_000 })
  visit.status = response?.status() ?? 0
  // A page seen before in this browser may be revalidated: 304 (its ETag) is the same page.
  expect(visit.status === 304 && expectStatus === 200 ? 200 : visit.status).toBe(expectStatus)
  return { page, visit }
}

/** axe-core's serious and critical violations, as "rule: first target" lines. */
const axeViolations = async (page: Page) => {
  await page.addScriptTag({ content: AXE })
  const result = (await page.evaluate(() => (globalThis as any).axe.run(document))) as {
    violations: Array<{ id: string; impact: string; nodes: Array<{ target: Array<string> }> }>
  }
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)
}

/** Tab through the page: the indices of the actions focus reached, and how many there are. */
const tabThrough = async (page: Page) => {
  const total = await page.evaluate(() => {
    const actions = Array.from(
      document.querySelectorAll("a[href], button, input:not([type=hidden]), summary, select, textarea")
    )
    actions.forEach((el, i) => el.setAttribute("data-action", String(i)))
    return actions.length
  })
  const reached = new Set<string>()
  for (let i = 0; i < total + 3; i++) {
    await page.keyboard.press("Tab")
    const at = await page.evaluate(() => document.activeElement?.getAttribute("data-action") ?? null)
    if (at !== null) reached.add(at)
  }
  return { total, reached: reached.size }
}

const shoot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true })
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  for (const width of [1280, 390]) {
    await page.setViewport({ width, height: 900 })
    // Nothing wider than the window: a phone reads the page without scrolling sideways.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${name} at ${width} px`
    ).toBeLessThanOrEqual(width)
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`) as `${string}.png`, fullPage: true })
  }
}

/** Everything asked of every page. */
const judge = async (page: Page, visit: Visit, name: string) => {
  expect(visit.consoleErrors, `${name}: console errors`).toEqual([])
  expect(visit.failed, `${name}: failed requests`).toEqual([])
  expect(await axeViolations(page), `${name}: axe`).toEqual([])
  const { total, reached } = await tabThrough(page)
  expect(total).toBeGreaterThan(0)
  expect(reached, `${name}: actions reached by Tab`).toBe(total)
  await shoot(page, name)
  await page.close()
}

const text = (page: Page) => page.evaluate(() => document.body.innerText)

/**
 * A DMARC aggregate report (with a source that blocks p=reject) and a TLS report for perfect.com,
 * of yesterday, posted as senders post them: its report page then shows "Reports received" in full.
 */
const postReports = async (base: string) => {
  const today = Math.floor(Date.now() / 86_400_000) * 86_400
  const xml = dmarcXml({
    domain: "perfect.com",
    reportId: `browser-${Date.now()}`,
    begin: today - 86_400,
    end: today - 1,
    rows: [
      {
        ip: "127.25.0.1",
        count: 40,
        dkimAuth: [{ domain: "perfect.com", selector: "selector1", result: "pass" }]
      },
      {
        ip: "198.51.100.7",
        count: 6,
        dkim: "fail",
        spf: "fail",
        dkimAuth: [{ domain: "perfect.com", selector: "retired", result: "fail" }],
        spfAuth: [{ domain: "bounce.esp.example", result: "pass" }]
      },
      { ip: "127.25.0.1", count: 3, headerFrom: "news.perfect.com" }
    ]
  })
  const day = new Date((today - 86_400) * 1000).toISOString().slice(0, 10)
  const tls = tlsJson({
    domain: "perfect.com",
    reportId: `browser-tls-${Date.now()}`,
    range: { start: `${day}T00:00:00Z`, end: `${day}T23:59:59Z` },
    failures: [{ type: "certificate-expired", count: 2 }]
  })
  for (const [path, type, body] of [
    ["/api/reports/dmarc", "application/gzip", gzipText(xml)],
    ["/api/reports/tls", "application/tlsrpt+json", tls]
  ] as const) {
    const posted = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": type }, body })
    expect(posted.status, path).toBe(202)
  }
}

describe("the pages in chromium", () => {
  layer(testApp(worldEnv()), { timeout: 600_000, excludeTestServices: true })((it) => {
    it.scoped(
      "reports, a snapshot, NIS2 in Dutch, a name that does not exist, and home",
      () =>
        Effect.gen(function* () {
          const server = yield* HttpServer.HttpServer
          const address = server.address as HttpServer.TcpAddress
          const base = `http://127.0.0.1:${address.port}`
          const browser = yield* launch()
          yield* Effect.promise(async () => {
            await postReports(base)
            {
              const { page, visit } = await open(browser, `${base}/report/perfect.com`)
              const body = await text(page)
              expect(body).toContain("perfect.com")
              expect(body).toContain("A+")
              expect(body).toContain("Reports received")
              expect(body).toContain("receivers refuse this mail now: 1 legitimate-looking source sends mail")
              // the analyst's view: subdomain mail apart, the days, the identity that failed, the policy seen
              for (const part of [
                "Mail by header-from domain",
                "news.perfect.com",
                "Day by day (UTC)",
                "Identities that failed, per source",
                "retired",
                "Policy as receivers saw it published",
                "Report quality:",
                "Failures as senders described them"
              ])
                expect(body).toContain(part)
              for (const part of ["DNS records", "SPF include tree", "DNSSEC chain of trust", "Mail servers"])
                expect(body).toContain(part)
              await judge(page, visit, "report-perfect")
            }
            {
              const { page, visit } = await open(browser, `${base}/report/dmarc-none.com`)
              const body = await text(page)
              expect(body).toContain("dmarc-none.com")
              expect(body).toMatch(/What to fix \([1-9]/)
              expect(body).toContain("Why it matters")
              expect(body).toContain("No DMARC aggregate report for this period reached this service.")
              expect(await page.$$("article.finding ol li")).not.toHaveLength(0)
              // The browser's print: no navigation and no forms, the findings kept; a PDF to look at.
              await page.emulateMediaType("print")
              expect(
                await page.$$eval("header.site nav, form", (els) =>
                  els.every((e) => getComputedStyle(e).display === "none")
                )
              ).toBe(true)
              expect(await page.$eval("article.finding", (e) => getComputedStyle(e).display)).not.toBe("none")
              mkdirSync(SHOTS, { recursive: true })
              await page.pdf({
                path: join(SHOTS, "report-dmarc-none.pdf"),
                format: "A4",
                printBackground: true
              })
              await page.emulateMediaType("screen")
              await judge(page, visit, "report-dmarc-none")
            }
            {
              // The report page's button: a POST from the page itself, then 303 to the snapshot.
              const { page } = await open(browser, `${base}/report/perfect.com`)
              await Promise.all([
                page.waitForNavigation({ waitUntil: "networkidle0", timeout: 120_000 }),
                page.click("form[action*='/snapshot'] button")
              ])
              expect(page.url()).toMatch(/\/snapshot\/[^/?]+\?lang=en$/)
              const snapshotUrl = page.url()
              await page.close()
              const opened = await open(browser, snapshotUrl)
              const body = await text(opened.page)
              expect(body).toMatch(/Content hash\s+sha256:[0-9a-f]{64}/)
              expect(body).toContain("How to verify this snapshot")
              await judge(opened.page, opened.visit, "snapshot")
            }
            {
              const { page, visit } = await open(browser, `${base}/nis2/perfect.com?lang=nl`)
              expect(await page.evaluate(() => document.documentElement.lang)).toBe("nl")
              expect(await text(page)).toContain("NIS2-gereedheid")
              await judge(page, visit, "nis2-perfect-nl")
            }
            {
              const { page, visit } = await open(browser, `${base}/report/no-such-domain-xyz.com`, 404)
              expect(await text(page)).toContain("This domain does not exist")
              await judge(page, visit, "no-such-domain")
            }
            {
              // perfect.com was scanned above: its history has at least that scan.
              const { page, visit } = await open(browser, `${base}/history/perfect.com`)
              expect(await page.$("svg.chart circle")).not.toBeNull()
              expect(await text(page)).toContain("The hash chain of this history verifies.")
              await judge(page, visit, "history-perfect")
            }
            {
              // The API's documentation is a page like the others: no script, every operation listed.
              const { page, visit } = await open(browser, `${base}/api/docs`)
              const body = await text(page)
              expect(body).toContain("GET /api/scan/quick")
              expect(await page.$$("script")).toHaveLength(0)
              await judge(page, visit, "api-docs")
            }
            {
              // A domain name in a heading moves to the next line whole rather than break mid-name.
              const { page } = await open(browser, `${base}/report/dmarc-none.com`)
              await page.setViewport({ width: 390, height: 900 })
              const { height, lineHeight } = await page.$eval("h1 .mono", (e) => ({
                height: e.getBoundingClientRect().height,
                lineHeight: parseFloat(getComputedStyle(e).lineHeight)
              }))
              expect(height).toBeLessThan(lineHeight * 1.5)
              await page.close()
            }
            {
              // Last: perfect.com, scanned above, is in the hall of fame by now.
              const { page, visit } = await open(browser, `${base}/`)
              expect(await page.$("form input#domain")).not.toBeNull()
              expect(await text(page)).toContain("Check a domain")
              expect(await page.$$eval("ol.hall a", (links) => links.map((a) => a.textContent))).toContain(
                "perfect.com"
              )
              await judge(page, visit, "home")
            }
          })
        }),
      600_000
    )
  })
})
