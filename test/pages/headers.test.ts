/**
 * Our own pages pass our own checks: the service's security-headers analysis (checks/headers
 * `analyse`, the one GET /security-headers/analyze uses) over the response headers of the pages
 * finds every header present and rated good when the service is served over HTTPS
 * (PUBLIC_BASE_URL), and everything but HSTS over plain HTTP, where RFC 6797 §7.2 forbids sending
 * it. Also: a form POST from another site creates nothing, an unknown path is an HTML page for a
 * browser and JSON for code, the pages, /api/docs and /api/openapi.json are compressed and
 * validated, and the snapshot form creates a snapshot within the snapshot limit.
 */
import { request as httpRequest } from "node:http"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { HttpServer } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { analyse } from "../../src/checks/headers/Headers.ts"
import { PAGE_CSP } from "../../src/http/edge/PageHeaders.ts"
import { testApp } from "../http/harness.ts"
import { pdfText } from "../report/pdfText.ts"

interface Raw {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: Buffer
}

/** One request with node's own client: the bytes as sent (no decoding), the headers as strings. */
const fetchRaw = (port: number, path: string, headers: Record<string, string> = {}, method = "GET") =>
  Effect.promise(
    () =>
      new Promise<Raw>((resolve, reject) => {
        const req = httpRequest({ host: "127.0.0.1", port, path, method, headers }, (res) => {
          const chunks: Array<Buffer> = []
          res.on("data", (c: Buffer) => chunks.push(c))
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: Object.fromEntries(
                Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : String(v)])
              ),
              body: Buffer.concat(chunks)
            })
          )
        })
        req.on("error", reject)
        req.end()
      })
  )

const portOf = Effect.map(HttpServer.HttpServer, (s) => (s.address as HttpServer.TcpAddress).port)

/** The headers analysis of a page's answer, as the scanner would judge a site answering so. */
const judged = (raw: Raw) =>
  analyse(
    "audit.example",
    {
      kind: "response",
      status: raw.status,
      headers: raw.headers,
      finalUrl: "https://audit.example/",
      redirects: 0,
      tlsError: null,
      metaCsp: [],
      metaReferrer: "no-referrer",
      bodyTruncated: false
    },
    new Date()
  )

const PAGES = [
  "/",
  "/report/not_a_domain",
  "/snapshot/no-such-snapshot",
  "/history/example.com",
  "/no-such-page"
]

describe("page headers over HTTPS", () => {
  layer(testApp({ PUBLIC_BASE_URL: "https://audit.example/api" }), { excludeTestServices: true })((it) => {
    it.effect("every page passes every security-header check, HSTS included", () =>
      Effect.gen(function* () {
        const port = yield* portOf
        for (const path of PAGES) {
          const raw = yield* fetchRaw(port, path, { Accept: "text/html" })
          expect(raw.headers["content-type"], path).toBe("text/html; charset=utf-8")
          const result = judged(raw)
          expect(
            result.current.map((h) => [path, h.name, h.status, h.rating]),
            path
          ).toEqual(result.current.map((h) => [path, h.name, "pass", "good"]))
          expect(result.missing).toEqual([])
          expect(raw.headers["content-security-policy"]).not.toContain("unsafe-inline")
          expect(raw.headers["content-security-policy"]).toContain("frame-ancestors 'none'")
        }
      })
    )
  })
})

describe("page headers over plain HTTP", () => {
  layer(testApp(), { excludeTestServices: true })((it) => {
    it.effect("everything but HSTS, which is never sent over plain HTTP", () =>
      Effect.gen(function* () {
        const port = yield* portOf
        const raw = yield* fetchRaw(port, "/", { Accept: "text/html" })
        expect(raw.status).toBe(200)
        expect(raw.headers["strict-transport-security"]).toBeUndefined()
        const failing = judged(raw).current.filter((h) => h.status !== "pass")
        expect(failing.map((h) => h.name)).toEqual(["Strict-Transport-Security"])
      })
    )

    it.effect("a scan that cannot ask the DNS is a 503 page saying so, and counts as costly work", () =>
      Effect.gen(function* () {
        const port = yield* portOf
        const raw = yield* fetchRaw(port, "/report/example.com", { Accept: "text/html" })
        expect([raw.status, raw.headers["content-type"]]).toEqual([503, "text/html; charset=utf-8"])
        expect(raw.headers["retry-after"]).toBe("60")
        expect(raw.body.toString()).toContain("This domain could not be checked")
        expect(raw.headers["ratelimit-policy"]).toContain('"costly"')
        const home = yield* fetchRaw(port, "/")
        expect(home.headers["ratelimit-policy"]).toContain('"cheap"')
        const moved = yield* fetchRaw(port, "/Report/EXAMPLE.com")
        expect([moved.status, moved.headers["location"]]).toEqual([301, "/report/EXAMPLE.com"])
      })
    )

    it.effect("a browser gets an HTML 404 for a page that is not there; code gets JSON", () =>
      Effect.gen(function* () {
        const port = yield* portOf
        const page = yield* fetchRaw(port, "/no-such-page", { Accept: "text/html" })
        expect([page.status, page.headers["content-type"]]).toEqual([404, "text/html; charset=utf-8"])
        expect(page.body.toString()).toContain("Page not found")
        const code = yield* fetchRaw(port, "/no-such-page")
        expect([code.status, code.headers["content-type"]]).toEqual([404, "application/json"])
        expect(Object.keys(JSON.parse(code.body.toString()))).toEqual(["error"])
      })
    )

    it.effect("hostile input is text on the page, never markup", () =>
      Effect.gen(function* () {
        const port = yield* portOf
        const hostile = `<script>alert(1)</script>"'&x`
        const raw = yield* fetchRaw(port, `/?domain=${encodeURIComponent(hostile)}`, { Accept: "text/html" })
        expect(raw.status).toBe(400)
        const body = raw.body.toString()
        expect(body).not.toContain("<script>")
        expect(body).toContain("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;x")
      })
    )

    it.effect("a cross-site form POST creates no snapshot", () =>
      Effect.gen(function* () {
        const port = yield* portOf
        const raw = yield* fetchRaw(
          port,
          "/report/example.com/snapshot",
          {
            "Sec-Fetch-Site": "cross-site",
            "Content-Type": "application/x-www-form-urlencoded",
            Accept: "text/html"
          },
          "POST"
        )
        expect(raw.status).toBe(403)
        expect(raw.headers["content-type"]).toBe("text/html; charset=utf-8")
      })
    )

    it.effect(
      "/api/docs, /api/openapi.json and the pages: brotli or gzip by Accept-Encoding, ETag, 304",
      () =>
        Effect.gen(function* () {
          const port = yield* portOf
          for (const path of ["/api/docs", "/api/openapi.json", "/", "/assets/pages.css"]) {
            const plain = yield* fetchRaw(port, path)
            expect(plain.headers["content-encoding"], path).toBeUndefined()
            expect(plain.headers["vary"], path).toBe("Accept-Encoding")
            const br = yield* fetchRaw(port, path, { "Accept-Encoding": "gzip, deflate, br" })
            expect(br.headers["content-encoding"], path).toBe("br")
            expect(brotliDecompressSync(br.body).equals(plain.body), path).toBe(true)
            const gz = yield* fetchRaw(port, path, { "Accept-Encoding": "gzip" })
            expect(gz.headers["content-encoding"], path).toBe("gzip")
            expect(gunzipSync(gz.body).equals(plain.body), path).toBe(true)
            const tags = [plain, br, gz].map((r) => r.headers["etag"])
            expect(new Set(tags).size, path).toBe(3)
            const again = yield* fetchRaw(port, path, {
              "Accept-Encoding": "br",
              "If-None-Match": br.headers["etag"]!
            })
            expect([again.status, again.body.length, again.headers["etag"]], path).toEqual([
              304,
              0,
              br.headers["etag"]
            ])
            if (path === "/api/docs") {
              // A page rendered from the OpenAPI document, with no viewer script: light even before
              // compression, and a fraction of that compressed. It carries the pages' headers.
              expect(plain.body.length).toBeLessThan(1_000_000)
              expect(br.body.length).toBeLessThan(plain.body.length / 3)
              expect(gz.body.length).toBeLessThan(plain.body.length / 3)
              expect(plain.headers["content-security-policy"]).toBe(PAGE_CSP)
              expect(plain.body.toString("utf8")).not.toMatch(
                /<script|https?:\/\/(?!localhost|127\.)[^"'\s]*\.(js|css|woff2?)/
              )
            }
          }
          const head = yield* fetchRaw(port, "/api/docs", { "Accept-Encoding": "br" }, "HEAD")
          expect([head.status, head.headers["content-encoding"]]).toEqual([200, "br"])
        })
    )
  })
})

describe("the snapshot form", () => {
  layer(testApp({ SNAPSHOT_RATE_BURST: "1", SNAPSHOT_RATE_PER_MINUTE: "1" }), { excludeTestServices: true })(
    (it) => {
      it.effect("posts, lands on the snapshot's page by 303, and is held to the snapshot limit", () =>
        Effect.gen(function* () {
          const port = yield* portOf
          const form = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Sec-Fetch-Site": "same-origin",
            Accept: "text/html"
          }
          const created = yield* fetchRaw(port, "/report/example.com/snapshot?lang=nl", form, "POST")
          expect(created.status).toBe(303)
          const location = created.headers["location"]!
          expect(location).toMatch(/^\/snapshot\/[^/?]+\?lang=nl$/)
          const page = yield* fetchRaw(port, location, { Accept: "text/html" })
          expect(page.status).toBe(200)
          const hash = /Inhoudshash<\/dt>\s*<dd><code>(sha256:[0-9a-f]{64})<\/code>/.exec(
            page.body.toString()
          )?.[1]
          expect(hash).toBeDefined()
          // the page's PDF link: the snapshot as stored, its id and hash in the footer
          const pdfPath = `${location.split("?")[0]}/pdf`
          expect(page.body.toString()).toContain(`href="${pdfPath}"`)
          const pdf = yield* fetchRaw(port, pdfPath)
          expect([pdf.status, pdf.headers["content-type"]]).toEqual([200, "application/pdf"])
          const text = (yield* Effect.promise(() => pdfText(pdf.body))).replace(/\s+/g, " ")
          expect(text).toContain(`content hash (SHA-256) ${hash}`)
          expect(text).toContain(`Snapshot ${decodeURIComponent(location.split("/")[2]!.split("?")[0]!)}`)
          const again = yield* fetchRaw(port, "/report/example.com/snapshot", form, "POST")
          expect([again.status, again.headers["content-type"]]).toEqual([429, "text/html; charset=utf-8"])
          expect(Number(again.headers["retry-after"])).toBeGreaterThan(0)
          const missing = yield* fetchRaw(port, "/snapshot/no-such-id", { Accept: "text/html" })
          expect(missing.status).toBe(404)
        })
      )
    }
  )
})

describe("a browser over its limit", () => {
  layer(testApp({ RATE_COSTLY_BURST: "1", RATE_COSTLY_PER_MINUTE: "1" }), { excludeTestServices: true })(
    (it) => {
      it.effect("gets the 429 as a page with the page headers; code gets the JSON", () =>
        Effect.gen(function* () {
          const port = yield* portOf
          const html = { Accept: "text/html", "Accept-Language": "nl" }
          yield* fetchRaw(port, "/report/example.com", html)
          const page = yield* fetchRaw(port, "/report/example.com", html)
          expect([page.status, page.headers["content-type"]]).toEqual([429, "text/html; charset=utf-8"])
          expect(Number(page.headers["retry-after"])).toBeGreaterThan(0)
          expect(page.headers["content-security-policy"]).toContain("frame-ancestors 'none'")
          expect(page.body.toString()).toContain("Te veel verzoeken")
          const code = yield* fetchRaw(port, "/report/example.com")
          expect([code.status, code.headers["content-type"]]).toEqual([429, "application/json"])
        })
      )
    }
  )
})

describe("the history page", () => {
  layer(testApp(), { excludeTestServices: true })((it) => {
    it.effect("is a 404 page for a domain without history, then shows the scans once there are some", () =>
      Effect.gen(function* () {
        const port = yield* portOf
        const none = yield* fetchRaw(port, "/history/example.com", { Accept: "text/html" })
        expect([none.status, none.headers["content-type"]]).toEqual([404, "text/html; charset=utf-8"])
        expect(none.body.toString()).toContain("No history for this domain")
      })
    )
  })
})
