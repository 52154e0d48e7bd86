/** The HTTP-to-HTTPS check: chains judged hop by hop (pure), gather through Facts over a fake web, its rules. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import {
  analyse,
  type HostGathered,
  HttpRedirect,
  judgeHost,
  type Hop
} from "../../../src/checks/http-redirect/HttpRedirect.ts"
import { rules } from "../../../src/checks/http-redirect/Rules.ts"
import { webError } from "../../../src/net/WebTypes.ts"
import { runFake } from "../facts.ts"

const NOW = new Date("2026-12-01T00:00:00Z")
const HSTS = "max-age=31536000; includeSubDomains"
const hop = (url: string, status: number, location: string | null, hsts: string | null = null): Hop => ({
  url,
  status,
  location,
  hsts
})
const chain = (...hops: Array<Hop>): HostGathered => ({ kind: "chain", hops, broken: null })

describe("judgeHost", () => {
  it("same host first, ending on https, HSTS on the host's answer: redirects-to-https", () => {
    const h = judgeHost(
      "a.example",
      chain(hop("http://a.example/", 301, "https://a.example/"), hop("https://a.example/", 200, null, HSTS))
    )
    expect(h).toMatchObject({
      verdict: "redirects-to-https",
      firstHopSameHost: true,
      hstsRating: "good",
      issues: []
    })
  })

  it("HSTS is read on the host's own answer even when it redirects on to www", () => {
    const h = judgeHost(
      "a.example",
      chain(
        hop("http://a.example/", 301, "https://a.example/"),
        hop("https://a.example/", 301, "https://www.a.example/", "max-age=300"),
        hop("https://www.a.example/", 200, null, HSTS)
      )
    )
    expect(h).toMatchObject({ verdict: "redirects-to-https", hsts: "max-age=300", hstsRating: "weak" })
    expect(h.finalUrl).toBe("https://www.a.example/")
  })

  it("a first hop to another host: redirects-elsewhere-first, HSTS unknown", () => {
    const h = judgeHost(
      "a.example",
      chain(
        hop("http://a.example/", 301, "https://www.a.example/"),
        hop("https://www.a.example/", 200, null, HSTS)
      )
    )
    expect(h).toMatchObject({
      verdict: "redirects-elsewhere-first",
      firstHopSameHost: false,
      hstsRating: "unknown"
    })
  })

  it("a first hop over http: redirects-via-http", () => {
    const h = judgeHost(
      "a.example",
      chain(
        hop("http://a.example/", 301, "http://www.a.example/"),
        hop("http://www.a.example/", 301, "https://www.a.example/"),
        hop("https://www.a.example/", 200, null)
      )
    )
    expect(h.verdict).toBe("redirects-via-http")
  })

  it("content over http, a chain ending on http, a broken chain", () => {
    expect(judgeHost("a.example", chain(hop("http://a.example/", 200, null))).verdict).toBe("no-redirect")
    expect(
      judgeHost(
        "a.example",
        chain(hop("http://a.example/", 301, "http://b.example/"), hop("http://b.example/", 200, null))
      ).verdict
    ).toBe("not-https")
    const broken = judgeHost("a.example", {
      kind: "chain",
      hops: [hop("http://a.example/", 301, "https://a.example/")],
      broken: "https://a.example/ does not answer"
    })
    expect(broken).toMatchObject({
      verdict: "not-https",
      finalUrl: null,
      error: "https://a.example/ does not answer"
    })
  })

  it("nothing on port 80: https-only when HTTPS answers, no-web-server when it does not", () => {
    expect(
      judgeHost("a.example", {
        kind: "no-http",
        https: hop("https://a.example/", 200, null, HSTS),
        error: "connect"
      })
    ).toMatchObject({ verdict: "https-only", hstsRating: "good" })
    expect(judgeHost("a.example", { kind: "no-http", https: null, error: "connect" }).verdict).toBe(
      "no-web-server"
    )
  })
})

describe("analyse", () => {
  const good = (host: string) =>
    chain(hop(`http://${host}/`, 301, `https://${host}/`), hop(`https://${host}/`, 200, null, HSTS))

  it("www like the apex is consistent; www without HSTS is not", () => {
    expect(
      analyse("a.example", { apex: good("a.example"), www: good("www.a.example") }, NOW).wwwConsistent
    ).toBe(true)
    const noHsts = chain(
      hop("http://www.a.example/", 301, "https://www.a.example/"),
      hop("https://www.a.example/", 200, null)
    )
    const r = analyse("a.example", { apex: good("a.example"), www: noHsts }, NOW)
    expect(r.wwwConsistent).toBe(false)
    expect(r.issues.at(-1)).toContain("does not behave as a.example")
  })

  it("no www: consistency is null", () => {
    expect(
      analyse("a.example", { apex: good("a.example"), www: { kind: "absent" } }, NOW).wwwConsistent
    ).toBeNull()
  })

  const url = fc.constantFrom(
    "http://a.example/",
    "https://a.example/",
    "https://www.a.example/",
    "http://www.a.example/",
    "https://b.example/x",
    "not a url"
  )
  const hopArb = fc.record({
    url,
    status: fc.integer({ min: 100, max: 599 }),
    location: fc.option(url),
    hsts: fc.option(fc.constantFrom(HSTS, "max-age=0", "garbage", "max-age=1; max-age=2"))
  })
  const host: fc.Arbitrary<HostGathered> = fc.oneof(
    fc.record({
      kind: fc.constant("chain" as const),
      hops: fc.array(hopArb, { minLength: 1, maxLength: 5 }),
      broken: fc.option(fc.string())
    }),
    fc.record({ kind: fc.constant("no-http" as const), https: fc.option(hopArb), error: fc.string() }),
    fc.constant({ kind: "absent" as const }),
    fc.record({ kind: fc.constant("unknown" as const), error: fc.string() })
  )

  it("is total, and its rules judge every result", () => {
    fc.assert(
      fc.property(host, host, (apex, www) => {
        const r = analyse("a.example", { apex, www }, NOW)
        const rulings = rules.judge({
          checks: {
            "dns-records": { status: "done", reason: null, result: null },
            "http-redirect": { status: "done", reason: null, result: r }
          }
        })
        expect(rulings).toHaveLength(2)
      })
    )
  })
})

describe("the check through Facts", () => {
  it.effect("walks each hop once without following, apex and www", () =>
    Effect.gen(function* () {
      const asked: Array<string> = []
      const r = yield* runFake(HttpRedirect, "a.example", {
        web: (url, options) => {
          asked.push(url)
          expect(options.followRedirects).toBe(false)
          if (url === "http://a.example/") return { status: 301, headers: { Location: "https://a.example/" } }
          if (url === "https://a.example/")
            return { status: 200, headers: { "Strict-Transport-Security": HSTS } }
          if (url === "http://www.a.example/") return { status: 301, headers: { Location: "/" } }
          return webError(url, "no-address", "no such host")
        }
      })
      expect(r.apex.verdict).toBe("redirects-to-https")
      // www redirects to itself over http: a loop, not https.
      expect(r.www).toMatchObject({ verdict: "not-https" })
      expect(r.www.error).toContain("loop")
      expect(asked.filter((u) => u === "https://a.example/")).toHaveLength(1)
    })
  )

  it.effect("a timeout is unknown, never a failure", () =>
    Effect.gen(function* () {
      const r = yield* runFake(HttpRedirect, "a.example", { web: (url) => webError(url, "timeout", "slow") })
      expect(r.apex.verdict).toBe("unknown")
      expect(r.www.verdict).toBe("unknown")
    })
  )
})
