/**
 * Badge, PDF and hall of fame in the world, through the API: the badge
 * of a domain is valid SVG saying the grade of its quick scan (perfect.com's is A+, pinned by
 * score.test.ts), a name the world does not have gets the grey "unscannable", an invalid domain is a
 * 400 {error}; the PDF's text names the domain, grade and issues; exactly the scanned A+ domains are
 * in the hall of fame.
 */
import { HttpClient } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { BADGE_COLOURS } from "../../src/report/Badge.ts"
import { testApp } from "../http/harness.ts"
import { parseSvg } from "../report/svg.ts"
import { pdfText } from "../report/pdfText.ts"
import { guidanceOf } from "../../src/score/Guidance.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"

const get = (url: string, headers: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const response = yield* (yield* HttpClient.HttpClient).get(url, { headers })
    const bytes = new Uint8Array(yield* response.arrayBuffer)
    return {
      status: response.status,
      headers: response.headers,
      bytes,
      text: new TextDecoder().decode(bytes)
    }
  }).pipe(Effect.scoped)

describe("presentation in the world", () => {
  layer(testApp(worldEnv()), { timeout: 180_000, excludeTestServices: true })((it) => {
    for (const domain of ["perfect.com", "spf-passall.com"])
      it.effect(`the badge of ${domain} is an SVG saying its grade, cached briefly`, () =>
        Effect.gen(function* () {
          const r = yield* get(`/api/badge/${domain}`)
          const quick = yield* getJson(`/api/scan/quick?domain=${domain}`)
          expect(quick.cached).toBe(true) // the badge's scan, shared
          expect(r.status).toBe(200)
          expect(r.headers["content-type"]).toMatch(/^image\/svg\+xml/)
          expect(r.headers["cache-control"]).toBe("public, max-age=300")
          const svg = parseSvg(r.text)
          expect(svg.root?.name).toBe("svg")
          expect(svg.texts).toContain(quick.grade)
          expect(svg.texts).not.toContain("unknown")
          expect(BADGE_COLOURS[quick.grade]).toBeDefined()
          for (const ref of svg.references) expect(svg.ids).toContain(ref)
        })
      )

    it.effect("a domain the world does not have gets the grey unscannable badge", () =>
      Effect.gen(function* () {
        const r = yield* get("/api/badge/no-such-domain.com")
        expect(r.status).toBe(200)
        expect(r.headers["cache-control"]).toBe("public, max-age=60")
        expect(parseSvg(r.text).texts).toContain("unscannable")
        expect(r.text).toContain('fill="#939393"')
      })
    )

    it.effect("an invalid domain is a 400 {error}, not an SVG", () =>
      Effect.gen(function* () {
        for (const bad of ["not_a_domain", "localhost", "192.0.2.1"]) {
          const r = yield* get(`/api/badge/${bad}`)
          expect([bad, r.status, r.headers["content-type"]]).toEqual([bad, 400, "application/json"])
          expect(Object.keys(JSON.parse(r.text))).toEqual(["error"])
        }
        const pdf = yield* get("/api/pdf/not_a_domain")
        expect(pdf.status).toBe(400)
      })
    )

    it.effect(
      "the PDF of spf-passall.com names the domain, its grade and every issue; same scan, same bytes",
      () =>
        Effect.gen(function* () {
          const quick = yield* getJson("/api/scan/quick?domain=spf-passall.com")
          const r = yield* get("/api/pdf/spf-passall.com")
          expect(r.status).toBe(200)
          expect(r.headers["content-type"]).toBe("application/pdf")
          const text = (yield* Effect.promise(() => pdfText(r.bytes))).replace(/\s+/g, " ")
          expect(text).toContain("spf-passall.com")
          expect(text).toContain(`Grade ${quick.grade}: `)
          expect(quick.issues.length).toBeGreaterThan(0)
          for (const issue of quick.issues) expect(text).toContain(issue.id)
          // The NIS2 summary is the scorecard of the same scan (GET /scan/nis2).
          const nis2 = yield* getJson("/api/scan/nis2?domain=spf-passall.com")
          expect(text).toContain(`Readiness: ${nis2.total} / 100. Meets `)
          expect(text).not.toMatch(/\bcompliant\b/i)
          for (const gap of nis2.criticalGaps) expect(text).toMatch(new RegExp(`\\b${gap}: `))
          const again = yield* get("/api/pdf/spf-passall.com")
          expect(Buffer.from(again.bytes).equals(Buffer.from(r.bytes))).toBe(true)
        })
    )

    it.effect(
      "spf-toomany.com: the page, the PDF, the markdown and the API show one list of what to fix, in one order",
      () =>
        Effect.gen(function* () {
          const quick = yield* getJson("/api/scan/quick?domain=spf-toomany.com")
          const fixes: ReadonlyArray<{ id: string; title: string }> = quick.recommendations
          expect(fixes.length).toBeGreaterThan(2)
          expect(fixes.map((f) => f.id)).toContain("spf_too_many_lookups")
          const page = yield* get("/report/spf-toomany.com")
          expect(page.status).toBe(200)
          expect(page.text).toContain(`What to fix (${fixes.length})`)
          const list = /<ol class="fixes">([\s\S]*?)<\/ol>\s*<\/section>/.exec(page.text)?.[1] ?? ""
          const cards = [...list.matchAll(/id="issue-([^"]+)"/g)].map((m) => m[1])
          expect(cards).toEqual(fixes.map((f) => f.id))
          // no sender-requirement card repeats a finding
          expect(page.text).not.toContain("sender-requirements.")
          const pdf = yield* get("/api/pdf/spf-toomany.com")
          const text = (yield* Effect.promise(() => pdfText(pdf.bytes))).replace(/\s+/g, " ")
          expect(text).toContain(`What to fix (${fixes.length})`)
          let from = 0
          fixes.forEach((fix, i) => {
            const title = `${i + 1}. ${fix.title.replace(/^Fix: /, "")}`
            const at = text.indexOf(title, from)
            expect(at, title).toBeGreaterThanOrEqual(from)
            from = at + title.length
          })
          const markdown = yield* get("/api/report/everything?domain=spf-toomany.com&format=markdown")
          expect(markdown.text).toContain(`**What to fix** (${fixes.length})`)
        })
    )

    it.effect("the PDF of perfect.com shows its grade", () =>
      Effect.gen(function* () {
        const quick = yield* getJson("/api/scan/quick?domain=perfect.com")
        const r = yield* get("/api/pdf/perfect.com")
        const text = (yield* Effect.promise(() => pdfText(r.bytes))).replace(/\s+/g, " ")
        expect(text).toContain("perfect.com")
        expect(text).toContain(`Grade ${quick.grade}: `)
        expect(text).toContain(`Score ${quick.percentage} / 100`)
      })
    )

    it.effect("the PDF and the markdown speak Dutch with lang=nl or Accept-Language: nl", () =>
      Effect.gen(function* () {
        const why = guidanceOf("spf_plus_all", "spf-passall.com", "nl")!.why.slice(0, 50)
        for (const [query, headers] of [
          ["?lang=nl", {}],
          ["", { "accept-language": "nl-NL, nl;q=0.9, en;q=0.5" }]
        ] as const) {
          const pdf = yield* get(`/api/pdf/spf-passall.com${query}`, headers)
          expect(pdf.status).toBe(200)
          expect(pdf.headers["content-language"]).toBe("nl")
          expect(pdf.headers["vary"]).toMatch(/Accept-Language/i)
          const text = (yield* Effect.promise(() => pdfText(pdf.bytes))).replace(/\s+/g, " ")
          expect(text).toContain("Beveiligingsrapport van een domein")
          expect(text).toMatch(/Wat te verbeteren \(\d+\)/)
          expect(text).toContain(why)
          // the grade statement and its caps in Dutch, the check titles too
          expect(text).toContain("van de toepasselijke punten")
          expect(text).not.toMatch(/applicable points|Capped at/)
          expect(text).toContain("SPF-beleid")
          const md = yield* get(
            `/api/report/everything?domain=spf-passall.com&format=markdown${query.replace("?", "&")}`,
            headers
          )
          expect(md.headers["content-language"]).toBe("nl")
          expect(md.text).toContain("## Samenvatting")
          expect(md.text).toContain(why)
          expect(md.text).toContain("| Maatregel | Status | Score | Gewicht |")
          expect(md.text).toContain("- Inhoudshash: ")
        }
        const english = yield* get("/api/pdf/spf-passall.com?lang=en", { "accept-language": "nl" })
        expect(english.headers["content-language"]).toBe("en")
      })
    )

    it.effect("the hall of fame lists exactly the scanned A+ domains, dated by their scan", () =>
      Effect.gen(function* () {
        const scanned = []
        for (const domain of ["perfect.com", "spf-passall.com", "no-such-domain.com"])
          scanned.push(yield* getJson(`/api/scan/quick?domain=${domain}`))
        expect(scanned.map((q) => q.grade).slice(1)).toEqual(["F", "F"])
        const hof = yield* getJson("/api/hall-of-fame")
        expect(hof.entries).toEqual(
          scanned
            .filter((q) => q.grade === "A+")
            .map((q) => ({ domain: q.domain, score: 100, grade: "A+", addedAt: Date.parse(q.timestamp) }))
        )
        expect(hof.total).toBe(hof.entries.length)
      })
    )
  })
})
