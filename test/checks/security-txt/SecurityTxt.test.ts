/** The security.txt check: the file judged against the clock, its address and media type; gather over a fake web. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import { rules } from "../../../src/checks/security-txt/Rules.ts"
import { analyse, type Fetched, SecurityTxt } from "../../../src/checks/security-txt/SecurityTxt.ts"
import { webError } from "../../../src/net/WebTypes.ts"
import { runFake } from "../facts.ts"

const NOW = new Date("2026-12-01T00:00:00Z")
const URL_ = "https://a.example/.well-known/security.txt"
const file = (expires = "2027-03-01T00:00:00Z", extra = "") =>
  `Contact: mailto:security@a.example\nExpires: ${expires}\nCanonical: ${URL_}\n${extra}`
const served = (
  body: string,
  contentType: string | null = "text/plain; charset=utf-8",
  url = URL_
): Fetched => ({
  kind: "response",
  url,
  status: 200,
  contentType,
  body,
  truncated: false,
  redirects: []
})
const notFound: Fetched = {
  kind: "response",
  url: URL_,
  status: 404,
  contentType: "text/html",
  body: "<h1>404</h1>",
  truncated: false,
  redirects: []
}
const judged = (wellKnown: Fetched, legacy: Fetched | null = null) =>
  analyse("a.example", { wellKnown, legacy }, NOW)

describe("analyse", () => {
  it("a current file under /.well-known/ is valid", () => {
    const r = judged(served(file()))
    expect(r).toMatchObject({ verdict: "valid", found: true, location: "well-known", expiresInDays: 90 })
    expect(r.errors).toEqual([])
    expect(r.warnings).toEqual([])
  })

  it.each([
    ["expired", served(file("2026-11-01T00:00:00Z")), "expired"],
    ["text/html", served(file(), "text/html"), "invalid"],
    ["another charset", served(file(), "text/plain; charset=iso-8859-1"), "invalid"],
    [
      "Canonical elsewhere",
      served(file().replace(URL_, "https://b.example/.well-known/security.txt")),
      "invalid"
    ],
    ["no Contact", served("Expires: 2027-01-01T00:00:00Z\n"), "invalid"]
  ] as const)("%s: %s", (_, f, verdict) => expect(judged(f).verdict).toBe(verdict))

  it("more than a year ahead, or no charset: valid with a warning", () => {
    const far = judged(served(file("2028-06-01T00:00:00Z")))
    expect(far.verdict).toBe("valid")
    expect(far.warnings.join()).toContain("more than a year")
    expect(judged(served(file(), "text/plain")).warnings.join()).toContain("charset")
  })

  it("only the legacy file: legacy; neither: missing; an HTML page for every path: missing", () => {
    const legacy = served(
      file().replace(URL_, "https://a.example/security.txt"),
      "text/plain; charset=utf-8",
      "https://a.example/security.txt"
    )
    expect(judged(notFound, legacy)).toMatchObject({ verdict: "legacy", location: "legacy" })
    expect(judged(notFound, notFound)).toMatchObject({ verdict: "missing", statusCode: 404 })
    expect(judged(served("<!doctype html><p>home</p>", "text/html"), notFound).verdict).toBe("missing")
  })

  it("a redirect off the host, a timeout, a refused connection", () => {
    expect(
      judged({ kind: "elsewhere", url: "https://b.example/.well-known/security.txt", redirects: [] }).verdict
    ).toBe("redirected-elsewhere")
    expect(judged({ kind: "failed", url: URL_, reason: "timeout", message: "slow" }).verdict).toBe("unknown")
    expect(judged({ kind: "failed", url: URL_, reason: "connect", message: "refused" })).toMatchObject({
      verdict: "missing",
      fetchError: "connect: refused"
    })
  })

  it("a signed file reports its signature as not verified", () => {
    const signed = [
      "-----BEGIN PGP SIGNED MESSAGE-----",
      "Hash: SHA256",
      "",
      file(),
      "-----BEGIN PGP SIGNATURE-----",
      "",
      "wsBcBAEBCAAQBQJ=",
      "-----END PGP SIGNATURE-----"
    ].join("\n")
    const r = judged(served(signed))
    expect(r.signed).toBe(true)
    expect(r.signature?.verified).toBe("unknown")
    expect(r.contact).toEqual(["mailto:security@a.example"])
  })

  it("is total, and its rule judges every result", () => {
    const fetched: fc.Arbitrary<Fetched> = fc.oneof(
      fc.record({
        kind: fc.constant("response" as const),
        url: fc.constantFrom(URL_, "https://a.example/security.txt"),
        status: fc.constantFrom(200, 404, 500),
        contentType: fc.option(fc.constantFrom("text/plain", "text/html", "text/plain; charset=utf-8")),
        body: fc.oneof(fc.string(), fc.constant(file())),
        truncated: fc.boolean(),
        redirects: fc.constant([])
      }),
      fc.record({
        kind: fc.constant("failed" as const),
        url: fc.constant(URL_),
        reason: fc.constantFrom("timeout", "connect", "dns", "http"),
        message: fc.string()
      })
    )
    fc.assert(
      fc.property(fetched, fc.option(fetched), (w, l) => {
        const r = judged(w, l)
        const rulings = rules.judge({
          checks: {
            "dns-records": { status: "done", reason: null, result: null },
            "security-txt": { status: "done", reason: null, result: r }
          }
        })
        expect(rulings).toHaveLength(1)
      })
    )
  })
})

describe("the check through Facts", () => {
  it.effect("follows a redirect within the host, not to another", () =>
    Effect.gen(function* () {
      const r = yield* runFake(SecurityTxt, "a.example", {
        web: (url) =>
          url === URL_
            ? { status: 301, headers: { Location: "/security/contact.txt" } }
            : url === "https://a.example/security/contact.txt"
              ? {
                  status: 200,
                  headers: { "Content-Type": "text/plain; charset=utf-8" },
                  body: new TextEncoder().encode(
                    file().replace(URL_, "https://a.example/security/contact.txt")
                  )
                }
              : webError(url, "connect", "no")
      })
      expect(r).toMatchObject({ verdict: "valid", fetchedUrl: "https://a.example/security/contact.txt" })
      expect(r.redirects).toHaveLength(1)
      const away = yield* runFake(SecurityTxt, "b.example", {
        web: () => ({ status: 302, headers: { Location: "https://c.example/.well-known/security.txt" } })
      })
      expect(away).toMatchObject({
        verdict: "redirected-elsewhere",
        redirectedTo: "https://c.example/.well-known/security.txt"
      })
    })
  )
})
