import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Schema, TestClock } from "effect"
import fc from "fast-check"
import { generateKeyPairSync } from "node:crypto"
import {
  analyseDkim,
  checkDkim,
  Dkim,
  DkimResult,
  dkimWith,
  gatherDkim,
  KNOWN_SELECTORS,
  SELECTOR_CONCURRENCY,
  WILDCARD_PROBE_SELECTOR
} from "../../../src/checks/dkim/Dkim.ts"
import { parseDkimKey, parseTagList } from "../../../src/records/DkimKey.ts"
import { withFacts } from "../../../src/scan/Scanner.ts"
import { fakeNet, runFake } from "../facts.ts"
import { fakeTxt } from "../fakeTxt.ts"
import { runs } from "../../support/runs.ts"
import { domain } from "../../support/domain.ts"

const rsa = (bits: number, type: "spki" | "pkcs1" = "spki") =>
  generateKeyPairSync("rsa", { modulusLength: bits })
    .publicKey.export({ type, format: "der" })
    .toString("base64")
const ed25519 = () =>
  generateKeyPairSync("ed25519")
    .publicKey.export({ type: "spki", format: "der" })
    .subarray(12)
    .toString("base64")
const keys = { 512: rsa(512), 1024: rsa(1024), 2048: rsa(2048), pkcs1: rsa(1024, "pkcs1"), ed: ed25519() }

describe("DKIM key records (RFC 6376 3.6.1)", () => {
  it("measures RSA key lengths from the key material", () => {
    expect(parseDkimKey(`v=DKIM1; k=rsa; p=${keys[2048]}`)).toMatchObject({
      keyType: "rsa",
      keyLength: 2048,
      valid: true,
      status: "pass"
    })
    expect(parseDkimKey(`v=DKIM1; p=${keys[1024]}`)).toMatchObject({
      keyLength: 1024,
      valid: true,
      status: "warning"
    })
    expect(parseDkimKey(`v=DKIM1; p=${keys[512]}`)).toMatchObject({
      keyLength: 512,
      valid: false,
      status: "fail"
    })
    expect(parseDkimKey(`p=${keys.pkcs1}`)).toMatchObject({ keyLength: 1024, valid: true })
  })

  it("accepts Ed25519 keys (RFC 8463) and checks their size", () => {
    expect(parseDkimKey(`v=DKIM1; k=ed25519; p=${keys.ed}`)).toMatchObject({
      keyType: "ed25519",
      keyLength: 256,
      valid: true
    })
    expect(parseDkimKey(`v=DKIM1; k=ed25519; p=${keys[1024]}`).valid).toBe(false)
  })

  it("flags revoked, testing, sha1-only, bad base64 and bad versions", () => {
    expect(parseDkimKey("v=DKIM1; p=")).toMatchObject({ revoked: true, valid: false, status: "revoked" })
    expect(parseDkimKey(`v=DKIM1; t=y; p=${keys[2048]}`)).toMatchObject({ testing: true, status: "warning" })
    expect(parseDkimKey(`v=DKIM1; t=s; p=${keys[2048]}`)).toMatchObject({ strict: true, status: "pass" })
    expect(parseDkimKey(`v=DKIM1; h=sha1; p=${keys[2048]}`).status).toBe("fail")
    expect(parseDkimKey("v=DKIM1; p=%%%").errors[0]).toContain("base64")
    expect(parseDkimKey("v=DKIM1; p=QUJD").errors[0]).toContain("does not decode")
    expect(parseDkimKey(`k=rsa; v=DKIM1; p=${keys[2048]}`).valid).toBe(false)
    expect(parseDkimKey("v=DKIM1; k=dsa; p=QUJD").errors[0]).toContain("unknown key type")
    expect(parseDkimKey("v=DKIM1; k=rsa").errors[0]).toContain("p= tag is missing")
    // RFC 6376 3.6.1 example: whitespace inside p= is allowed.
    const folded = keys[2048].replace(/(.{64})/g, "$1 ")
    expect(parseDkimKey(`v=DKIM1; p=${folded}`).keyLength).toBe(2048)
  })

  it("tag lists reject duplicates (RFC 6376 3.2)", () => {
    expect(parseTagList("a=1; a=2").errors[0]).toContain("duplicate")
  })

  it("property: parsing never throws", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string().map((s) => `v=DKIM1; k=rsa; p=${s}`)
        ),
        (s) => {
          const k = parseDkimKey(s)
          if (k.valid) expect(k.keyLength).not.toBeNull()
        }
      ),
      { numRuns: runs(1000) }
    )
  })
})

describe("DKIM discovery", () => {
  it("the selector list has at least 100 entries with the major providers", () => {
    const s = new Set(KNOWN_SELECTORS.map((k) => k.selector))
    expect(s.size).toBe(KNOWN_SELECTORS.length)
    expect(s.size).toBeGreaterThanOrEqual(100)
    for (const x of [
      "google",
      "selector1",
      "selector2",
      "k1",
      "k2",
      "s1",
      "s2",
      "default",
      "dkim",
      "mail",
      "protonmail",
      "fm1",
      "zoho",
      "mailo",
      "amazonses"
    ])
      expect(s.has(x)).toBe(true)
  })

  it.effect("finds known and requested selectors and reports both shapes", () =>
    Effect.gen(function* () {
      const { source, asked } = fakeTxt({
        "google._domainkey.example.com": [`v=DKIM1; k=rsa; p=${keys[2048]}`],
        "custom._domainkey.example.com": [`v=DKIM1; k=ed25519; p=${keys.ed}`],
        "s1._domainkey.example.com": ["v=spf1 -all"]
      })
      const r = yield* checkDkim(source, domain("Example.com"), ["Custom", "bad selector!"])
      expect(asked[0]).toBe("custom._domainkey.example.com")
      expect(asked).toContain("selector2._domainkey.example.com")
      expect(r).toMatchObject({
        selectors_found: ["custom", "google"],
        valid_keys: 2,
        hasDkim: true,
        status: "pass",
        discovery: "found"
      })
      expect(r.selectorsChecked.length).toBe(KNOWN_SELECTORS.length + 1)
      expect(
        r.selectorsFound.map((f) => [f.selector, f.keyType, f.keyLength, f.valid, f.provider, f.requested])
      ).toEqual([
        ["custom", "ed25519", 256, true, null, true],
        ["google", "rsa", 2048, true, "Google Workspace", false]
      ])
    })
  )

  it.effect("weak and revoked keys", () =>
    Effect.gen(function* () {
      const weak = yield* checkDkim(
        fakeTxt({ "default._domainkey.dkim-weak.com": [`v=DKIM1; p=${keys[1024]}`] }).source,
        domain("dkim-weak.com")
      )
      expect(weak).toMatchObject({ status: "warning", hasDkim: true, valid_keys: 1 })
      expect(weak.warnings.join()).toContain("RSA-1024")
      const revoked = yield* checkDkim(
        fakeTxt({ "default._domainkey.dkim-revoked.com": ["v=DKIM1; p="] }).source,
        domain("dkim-revoked.com")
      )
      expect(revoked).toMatchObject({
        status: "fail",
        hasDkim: false,
        valid_keys: 0,
        selectors_found: ["default"]
      })
      expect(revoked.selectorsFound[0]).toMatchObject({ revoked: true, valid: false })
      const tiny = yield* checkDkim(
        fakeTxt({ "k1._domainkey.example.com": [`p=${keys[512]}`] }).source,
        domain("example.com")
      )
      expect(tiny.status).toBe("fail")
    })
  )

  it.effect("nothing found is not-found (unknown), not 'no DKIM'; failures are unknown", () =>
    Effect.gen(function* () {
      const none = yield* checkDkim(fakeTxt({}).source, domain("example.com"))
      expect(none).toMatchObject({
        status: "unknown",
        discovery: "not-found",
        hasDkim: false,
        selectors_found: []
      })
      expect(none.issues[0]).toContain("may still be set up")
      const zone = Object.fromEntries(
        KNOWN_SELECTORS.map((k) => [`${k.selector}._domainkey.example.com`, "timeout" as const])
      )
      const failed = yield* checkDkim(fakeTxt(zone).source, domain("example.com"))
      expect(failed).toMatchObject({ status: "unknown", discovery: "unknown" })
      expect(failed.failedSelectors.length).toBe(KNOWN_SELECTORS.length)
    })
  )

  it.effect("a wildcard key is reported once", () =>
    Effect.gen(function* () {
      const rec = `v=DKIM1; p=${keys[2048]}`
      const zone = Object.fromEntries(
        [...KNOWN_SELECTORS.map((k) => k.selector), WILDCARD_PROBE_SELECTOR].map((s) => [
          `${s}._domainkey.example.com`,
          [rec]
        ])
      )
      const r = yield* checkDkim(fakeTxt(zone).source, domain("example.com"))
      expect(r.selectors_found).toEqual(["*"])
    })
  )

  it.effect("the registered check and the ?selector= variant ask through the scan's Facts", () =>
    Effect.gen(function* () {
      const zone = {
        "google._domainkey.example.com TXT": [`v=DKIM1; k=rsa; p=${keys[2048]}`],
        "custom._domainkey.example.com TXT": [`v=DKIM1; k=ed25519; p=${keys.ed}`],
        "selector1._domainkey.example.com TXT": "SERVFAIL" as const
      }
      const r = yield* runFake(Dkim, "example.com", { zone })
      expect(r).toMatchObject({ selectors_found: ["google"], valid_keys: 1, status: "pass" })
      expect(r.failedSelectors).toEqual([
        { selector: "selector1", error: expect.stringContaining("SERVFAIL") }
      ])
      const withCustom = yield* withFacts(domain("example.com"), dkimWith(["custom"])).pipe(
        Effect.provide(fakeNet({ zone })),
        Effect.orDie
      )
      expect(withCustom.selectors_found).toEqual(["custom", "google"])
      expect(withCustom.selectorsChecked[0]).toBe("custom")
    })
  )

  it("property: analyse is total over arbitrary answers", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom("a", "b", "c"),
            fc.oneof(fc.array(fc.string(), { maxLength: 2 }), fc.constant(null))
          )
        ),
        (rows) => {
          const r = analyseDkim({
            domain: "example.com",
            selectors: ["a", "b", "c"],
            requested: ["a"],
            wildcardProbe: null,
            answers: rows.map(([selector, recs]) => ({
              selector,
              outcome:
                recs === null ? { name: selector, error: "timeout" } : { name: selector, records: recs }
            }))
          })
          expect(Schema.is(DkimResult)(r)).toBe(true)
          expect(r.valid_keys).toBeLessThanOrEqual(r.selectorsFound.length)
          expect(r.hasDkim).toBe(r.valid_keys > 0)
        }
      )
    )
  })
})

describe("DKIM key lengths", () => {
  it("property: the measured length is the modulus length, in SPKI and PKCS#1", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(512, 768, 1024, 1536, 2048),
        fc.constantFrom("spki", "pkcs1") as fc.Arbitrary<"spki" | "pkcs1">,
        (bits, type) => {
          const k = parseDkimKey(`v=DKIM1; k=rsa; p=${rsa(bits, type)}`)
          expect(k.keyLength).toBe(bits)
          expect(k.status).toBe(bits < 1024 ? "fail" : bits < 2048 ? "warning" : "pass")
        }
      ),
      { numRuns: runs(10) }
    )
  })
})

describe("DKIM discovery concurrency", () => {
  it.effect("asks selectors concurrently, never more than the bound at once", () =>
    Effect.gen(function* () {
      let inFlight = 0
      let peak = 0
      const source = {
        txt: () =>
          Effect.gen(function* () {
            inFlight++
            peak = Math.max(peak, inFlight)
            for (let i = 0; i < 5; i++) yield* Effect.yieldNow()
            inFlight--
            return [] as ReadonlyArray<string>
          })
      }
      const g = yield* gatherDkim(source, domain("example.com"), [], { concurrency: 8 })
      expect(g.answers.length).toBe(KNOWN_SELECTORS.length)
      expect(peak).toBeGreaterThan(1)
      expect(peak).toBeLessThanOrEqual(8)
      // by default: SELECTOR_CONCURRENCY at once, the wildcard probe among them
      peak = 0
      const d = yield* gatherDkim(source, domain("example.com"))
      expect(peak).toBe(SELECTOR_CONCURRENCY)
      expect(d.wildcardProbe).toEqual({
        name: `${WILDCARD_PROBE_SELECTOR}._domainkey.example.com`,
        records: []
      })
    })
  )

  it.effect("a not-found asks every selector in ceil(n / bound) round trips, and says how long it took", () =>
    Effect.gen(function* () {
      // every question takes 20 ms of the (test) clock
      const source = { txt: () => Effect.as(Effect.sleep("20 millis"), [] as ReadonlyArray<string>) }
      const fiber = yield* Effect.fork(checkDkim(source, domain("nodkim.example")))
      yield* TestClock.adjust("10 seconds")
      const r = yield* Fiber.join(fiber)
      expect(r.discovery).toBe("not-found")
      const rounds = Math.ceil((KNOWN_SELECTORS.length + 1) / SELECTOR_CONCURRENCY)
      expect(r.lookupMs).toBe(rounds * 20)
    })
  )
})
