import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema, TestClock } from "effect"
import fc from "fast-check"
import { analyseBimi, BimiResult, bimiWithLogo, type BimiGathered } from "../../../src/checks/bimi/Bimi.ts"
import { renderBimiHtml } from "../../../src/checks/bimi/BimiHtml.ts"
import { parseBimi } from "../../../src/records/BimiRecord.ts"
import { checkSvgTinyPs } from "../../../src/records/BimiSvg.ts"
import { checkAuthority } from "../../../src/records/BimiVmc.ts"
import { certificateExtensions, decodeOid } from "../../../src/records/BimiDer.ts"
import type { FakeZone } from "../../../src/net/Resolver.ts"
import { WebError, type WebResponse } from "../../../src/net/Web.ts"
import { withFacts } from "../../../src/scan/Scanner.ts"
import { fakeNet } from "../facts.ts"
import { makeVmc } from "../vmcFixture.ts"
import { runs } from "../../support/runs.ts"
import { domain as toDomain } from "../../support/domain.ts"

const GOOD_SVG = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 100 100">
  <title>Example</title><desc>Example logo</desc>
  <circle cx="50" cy="50" r="40" fill="#336699"/>
</svg>`
const bytes = (s: string) => new TextEncoder().encode(s)

describe("BIMI record", () => {
  it("parses the draft's example", () => {
    const r = parseBimi(
      "v=BIMI1; l=https://images.example.com/image.svg; a=https://images.example.com/evidence.pem"
    )
    expect(r).toMatchObject({
      version: "BIMI1",
      location: "https://images.example.com/image.svg",
      authority: "https://images.example.com/evidence.pem",
      declined: false,
      errors: []
    })
  })
  it("recognises a declination and reports problems", () => {
    expect(parseBimi("v=BIMI1; l=; a=;").declined).toBe(true)
    expect(parseBimi("v=BIMI1; l=http://x.example/l.svg").errors[0]).toContain("https")
    expect(parseBimi("v=BIMI1; a=https://x.example/a.pem").errors[0]).toContain("l= tag")
    expect(parseBimi("l=https://x.example/l.svg").errors[0]).toContain("v=BIMI1")
    expect(parseBimi("v=BIMI1; l=https://x.example/l.svg").warnings[0]).toContain("No a=")
  })
  it("checks lps= and avp= by their grammar in every case, a declination included", () => {
    const ok = parseBimi("v=BIMI1; l=; lps=ceo,first.last; avp=personal")
    expect(ok).toMatchObject({ declined: true, errors: [], localPartSelectors: ["ceo", "first.last"] })
    expect(ok.avatarPreference).toBe("personal")
    for (const lps of ["", "a..b", ".ceo", "a b", "x".repeat(65)])
      expect(parseBimi(`v=BIMI1; l=; lps=${lps}`).errors.join(" "), lps).toMatch(/lps=/)
    expect(parseBimi("v=BIMI1; l=; avp=logo").warnings.join(" ")).toMatch(/avp=logo/)
  })
  it("property: never throws", () => fc.assert(fc.property(fc.string(), (s) => void parseBimi(s))))
})

describe("SVG Tiny PS", () => {
  it("accepts a conforming logo", () => {
    const c = checkSvgTinyPs(bytes(GOOD_SVG))
    expect(c).toMatchObject({ isSvg: true, tinyPs: true, title: "Example", square: true, errors: [] })
  })
  const cases: ReadonlyArray<[string, string, string]> = [
    ["wrong baseProfile", GOOD_SVG.replace("tiny-ps", "tiny"), 'baseProfile must be "tiny-ps"'],
    ["wrong version", GOOD_SVG.replace('version="1.2"', 'version="1.1"'), 'version must be "1.2"'],
    ["no title", GOOD_SVG.replace("<title>Example</title>", ""), "<title>"],
    ["script", GOOD_SVG.replace("<desc>", "<script>alert(1)</script><desc>"), "<script>"],
    [
      "animation",
      GOOD_SVG.replace("/>\n</svg>", '><animate attributeName="r" to="10"/></circle></svg>'),
      "animation"
    ],
    [
      "external href",
      GOOD_SVG.replace("<desc>", '<use href="https://evil.example/x.svg#a"/><desc>'),
      "external references"
    ],
    [
      "external style",
      GOOD_SVG.replace("<desc>", "<style>@import url(https://evil.example/x.css);</style><desc>"),
      "external references"
    ],
    ["event handler", GOOD_SVG.replace("<circle", '<circle onclick="x()"'), "event handler"],
    ["raster image", GOOD_SVG.replace("<desc>", '<image href="#x"/><desc>'), "<image>"],
    ["x on root", GOOD_SVG.replace("<svg ", '<svg x="0" '), "x or y"],
    ["not svg", "<html><title>x</title></html>", "not an SVG"],
    ["too large", GOOD_SVG.replace("<desc>", `<desc>${"a".repeat(33_000)}`), "at most 32768"]
  ]
  for (const [name, svg, message] of cases)
    it(name, () => {
      const c = checkSvgTinyPs(bytes(svg))
      expect(c.tinyPs).toBe(false)
      expect(c.errors.join("\n")).toContain(message)
    })
  it("property: never throws", () =>
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 500 }), (b) => void checkSvgTinyPs(b)),
      { numRuns: runs(300) }
    ))
})

describe("VMC / CMC evidence", () => {
  const now = () => new Date(Date.now() + 86_400_000)
  it("accepts a well-formed chain covering the domain with the logotype matching the logo", () => {
    const pem = makeVmc({ logotype: GOOD_SVG })
    const c = checkAuthority(bytes(pem), "example.com", "example.com", now(), bytes(GOOD_SVG))
    expect(c).toMatchObject({
      parsed: true,
      chainLinked: true,
      chainLength: 2,
      sanCoversDomain: true,
      validNow: true,
      bimiExtendedKeyUsage: true,
      logotypePresent: true,
      logotypeMatchesLogo: true,
      markType: "Registered Mark",
      type: "VMC",
      trademarkVerified: false,
      errors: []
    })
  })
  it("finds each defect", () => {
    const check = (o: Parameters<typeof makeVmc>[0], at = now()) =>
      checkAuthority(bytes(makeVmc(o)), "example.com", "example.com", at, bytes(GOOD_SVG)).errors.join("\n")
    expect(check({ san: ["other.org"] })).toContain("does not cover example.com")
    expect(check({ eku: false })).toContain("extended key usage")
    expect(check({ logotype: null })).toContain("no logotype extension")
    expect(check({ logotype: "<svg>other</svg>" })).toContain("differs")
    expect(check({ wrongIssuer: true })).toContain("not issued and signed")
    expect(check({ days: 1 }, new Date(Date.now() + 30 * 86_400_000))).toContain("expired")
    expect(
      checkAuthority(
        bytes(makeVmc({ markType: "Prior Use Mark" })),
        "example.com",
        "example.com",
        now(),
        null
      ).type
    ).toBe("CMC")
    expect(checkAuthority(bytes("garbage"), "example.com", "example.com", now(), null).errors[0]).toContain(
      "no PEM"
    )
  })
  it("walks DER extensions and decodes OIDs", () => {
    expect(decodeOid(Uint8Array.from([0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x01, 0x0c]))).toBe(
      "1.3.6.1.5.5.7.1.12"
    )
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), (b) => void certificateExtensions(b)))
  })
})

const response = (url: string, status: number, contentType: string, body: string): WebResponse => ({
  url,
  finalUrl: url,
  status,
  headers: { "content-type": contentType },
  rawHeaders: [],
  body: bytes(body),
  redirects: [],
  address: "192.0.2.1",
  tls: null
})
const fakeWeb =
  (pages: Record<string, [number, string, string] | "refused">) =>
  (url: string): WebResponse | WebError => {
    const page = pages[url]
    if (page === undefined || page === "refused")
      return new WebError({ url, reason: "connect", message: `cannot connect to ${url}` })
    return response(url, ...page)
  }
/** TXT records by name ("servfail" fails the question), as a zone of the fake resolver. */
const txt = (zone: Record<string, ReadonlyArray<string> | "servfail">): FakeZone =>
  Object.fromEntries(Object.entries(zone).map(([n, v]) => [`${n} TXT`, v === "servfail" ? "SERVFAIL" : v]))
/** The BIMI check over the fakes (Facts as in a scan), with the logo's bytes the HTML view shows. */
const checkBimi = (zone: FakeZone, web: ReturnType<typeof fakeWeb>, domain: string) =>
  withFacts(toDomain(domain), bimiWithLogo).pipe(Effect.provide(fakeNet({ zone, web })), Effect.orDie)
const NOW = new Date("2026-01-01T00:00:00Z")

describe("BIMI check", () => {
  const dmarcReject = { "_dmarc.example.com": ["v=DMARC1; p=reject; rua=mailto:d@example.com"] }
  it.effect("a complete BIMI setup passes", () =>
    Effect.gen(function* () {
      // The fixture certificate is valid from its creation (whole seconds): check a minute later.
      const pem = makeVmc({ logotype: GOOD_SVG, days: 3650 })
      yield* TestClock.setTime(Date.now() + 60_000)
      const dns = txt({
        ...dmarcReject,
        "default._bimi.example.com": [
          "v=BIMI1; l=https://bimi.example.com/logo.svg; a=https://bimi.example.com/vmc.pem"
        ]
      })
      const web = fakeWeb({
        "https://bimi.example.com/logo.svg": [200, "image/svg+xml", GOOD_SVG],
        "https://bimi.example.com/vmc.pem": [200, "application/pem-certificate-chain", pem]
      })
      const { result, logoBody } = yield* checkBimi(dns, web, "example.com")
      expect(result).toMatchObject({
        exists: true,
        valid: true,
        status: "pass",
        logoUrl: "https://bimi.example.com/logo.svg",
        authorityUrl: "https://bimi.example.com/vmc.pem",
        logo: { reachable: true, contentTypeOk: true, sizeOk: true, valid: true },
        authority: { valid: true, type: "VMC" },
        dmarc: { policy: "reject", eligible: true }
      })
      expect(result.issues).toEqual([])
      expect(logoBody).not.toBeNull()
    })
  )

  it.effect("a bad SVG, a missing logo, and DMARC p=none", () =>
    Effect.gen(function* () {
      const bad = yield* checkBimi(
        txt({
          ...dmarcReject,
          "default._bimi.example.com": ["v=BIMI1; l=https://bimi.example.com/logo.svg"]
        }),
        fakeWeb({
          "https://bimi.example.com/logo.svg": [200, "text/html", GOOD_SVG.replace("tiny-ps", "full")]
        }),
        "example.com"
      )
      expect(bad.result).toMatchObject({
        exists: true,
        valid: false,
        status: "fail",
        logo: { contentTypeOk: false }
      })
      expect(bad.result.issues.join("\n")).toContain("tiny-ps")
      const nologo = yield* checkBimi(
        txt({
          ...dmarcReject,
          "default._bimi.example.com": ["v=BIMI1; l=https://bimi.example.com/logo.svg"]
        }),
        fakeWeb({ "https://bimi.example.com/logo.svg": [404, "text/html", "not found"] }),
        "example.com"
      )
      expect(nologo.result).toMatchObject({ valid: false, logo: { reachable: false, httpStatus: 404 } })
      expect(nologo.result.issues[0]).toContain("could not be fetched")
      const none = yield* checkBimi(
        txt({
          "_dmarc.example.com": ["v=DMARC1; p=none"],
          "default._bimi.example.com": ["v=BIMI1; l=https://bimi.example.com/logo.svg"]
        }),
        fakeWeb({ "https://bimi.example.com/logo.svg": [200, "image/svg+xml", GOOD_SVG] }),
        "example.com"
      )
      expect(none.result).toMatchObject({ valid: false, dmarc: { eligible: false } })
    })
  )

  it.effect("missing, unknown, declined and inherited records", () =>
    Effect.gen(function* () {
      const web = fakeWeb({})
      const missing = yield* checkBimi(txt({}), web, "example.com")
      expect(missing.result).toMatchObject({
        exists: false,
        record: null,
        status: "missing",
        logo: null,
        authority: null
      })
      const unknown = yield* checkBimi(txt({ "default._bimi.example.com": "servfail" }), web, "example.com")
      expect(unknown.result.status).toBe("unknown")
      const declined = yield* checkBimi(
        txt({ "default._bimi.example.com": ["v=BIMI1; l=; a=;"] }),
        web,
        "example.com"
      )
      // A declination is a valid record that opts out, with or without a=.
      expect(declined.result).toMatchObject({ declined: true, status: "not-applicable", valid: true })
      const bare = yield* checkBimi(
        txt({ "default._bimi.example.com": ["v=BIMI1; l=;"] }),
        web,
        "example.com"
      )
      expect(bare.result).toMatchObject({ declined: true, status: "not-applicable", valid: true, issues: [] })
      const badLps = yield* checkBimi(
        txt({ "default._bimi.example.com": ["v=BIMI1; l=; lps=a..b,ceo"] }),
        web,
        "example.com"
      )
      expect(badLps.result).toMatchObject({ declined: true, valid: false, status: "fail" })
      expect(badLps.result.issues.join(" ")).toMatch(/lps=/)
      const lps = yield* checkBimi(
        txt({ "default._bimi.example.com": ["v=BIMI1; l=; lps=CEO, first.last; avp=personal"] }),
        web,
        "example.com"
      )
      expect(lps.result).toMatchObject({
        valid: true,
        localPartSelectors: ["ceo", "first.last"],
        avatarPreference: "personal"
      })
      expect(bare.result).toMatchObject({ localPartSelectors: null, avatarPreference: null })
      const inherited = yield* checkBimi(
        txt({ "default._bimi.example.com": ["v=BIMI1; l=https://x.example.com/l.svg"] }),
        web,
        "mail.example.com"
      )
      expect(inherited.result).toMatchObject({
        exists: true,
        inherited: true,
        source: "default._bimi.example.com"
      })
    })
  )

  it("property: analyse is total", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string(), { maxLength: 2 }),
        fc.option(fc.uint8Array({ maxLength: 100 })),
        (records, body) => {
          const g: BimiGathered = {
            domain: "example.com",
            organisationalDomain: "example.com",
            direct: { name: "default._bimi.example.com", records: records.map((r) => `v=BIMI1;${r}`) },
            organisational: null,
            logo: body
              ? {
                  url: "https://x/l.svg",
                  status: 200,
                  contentType: "image/svg+xml",
                  body,
                  finalUrl: "https://x/l.svg",
                  redirects: 0
                }
              : null,
            authority: body
              ? { url: "https://x/a.pem", status: 200, contentType: null, body, finalUrl: "", redirects: 0 }
              : null,
            dmarc: null
          }
          const r = analyseBimi(g, NOW)
          expect(Schema.is(BimiResult)(r)).toBe(true)
          if (r.valid) expect(r.exists).toBe(true)
        }
      )
    )
  })

  it("renders an escaped HTML page", () => {
    const g: BimiGathered = {
      domain: "example.com",
      organisationalDomain: "example.com",
      direct: {
        name: "default._bimi.example.com",
        records: ['v=BIMI1; l=https://x.example.com/"><script>alert(1)</script>.svg']
      },
      organisational: null,
      logo: null,
      authority: null,
      dmarc: null
    }
    const html = renderBimiHtml(analyseBimi(g, NOW), bytes(GOOD_SVG))
    expect(html).not.toContain("<script>")
    expect(html).toContain("&lt;script&gt;")
    expect(html).toContain("data:image/svg+xml;base64,")
    expect(html).toContain("trademark")
  })
})

describe("BIMI HTML view", () => {
  it("property: no text from the record or the issues reaches the page unescaped", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const g: BimiGathered = {
          domain: "example.com",
          organisationalDomain: "example.com",
          direct: {
            name: "default._bimi.example.com",
            records: [`v=BIMI1; l=https://x.example.com/${a}; x=<${b}>`]
          },
          organisational: null,
          logo: null,
          authority: null,
          dmarc: null
        }
        const html = renderBimiHtml(analyseBimi(g, NOW), null)
        // every '<' in the page opens one of the page's own tags
        for (const m of html.matchAll(/<\/?([a-zA-Z!][a-zA-Z0-9-]*)/g))
          expect([
            "!doctype",
            "html",
            "head",
            "meta",
            "title",
            "style",
            "body",
            "h1",
            "h2",
            "div",
            "img",
            "table",
            "tr",
            "th",
            "td",
            "ul",
            "li",
            "p"
          ]).toContain(m[1]!.toLowerCase())
      })
    )
  })
})

describe("BIMI with an empty l=", () => {
  it.effect("the certificate's logotype is the logo; without a certificate there is none", () =>
    Effect.gen(function* () {
      const pem = makeVmc({ logotype: GOOD_SVG, days: 3650 })
      yield* TestClock.setTime(Date.now() + 60_000)
      const dns = (record: string) =>
        txt({
          "_dmarc.example.com": ["v=DMARC1; p=reject"],
          "default._bimi.example.com": [record]
        })
      const web = fakeWeb({
        "https://bimi.example.com/vmc.pem": [200, "application/pem-certificate-chain", pem]
      })
      const withCert = yield* checkBimi(
        dns("v=BIMI1; l=; a=https://bimi.example.com/vmc.pem"),
        web,
        "example.com"
      )
      expect(withCert.result).toMatchObject({ valid: true, logo: null, authority: { valid: true } })
      expect(withCert.result.warnings.join()).toContain("l= is empty")
      const without = yield* checkBimi(
        dns("v=BIMI1; l=; a=https://bimi.example.com/missing.pem"),
        web,
        "example.com"
      )
      expect(without.result.valid).toBe(false)
      expect(without.result.issues.join()).toContain("No logo to show")
    })
  )
})
