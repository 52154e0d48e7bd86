/** Set-Cookie as user agents parse it (RFC 6265bis 5.6) and the name prefixes they enforce (4.1.3). */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  defaultPath,
  parseSetCookie,
  prefixViolation,
  replacedLater,
  type SetCookie,
  serializeSetCookie,
  storageRefusal
} from "../../src/records/SetCookie.ts"

describe("parseSetCookie", () => {
  it("reads the pair and the attributes, case-insensitively", () => {
    expect(
      parseSetCookie(" sid = abc ; secure; HTTPONLY; samesite=lax; Path=/; Domain=.Example.COM; Max-Age=60")
    ).toEqual({
      name: "sid",
      value: "abc",
      secure: true,
      httpOnly: true,
      sameSite: "lax",
      domain: "example.com",
      path: "/",
      maxAge: 60,
      expires: null,
      partitioned: false
    })
  })

  it.each([
    ["a=1; SameSite", "invalid"],
    ["a=1; SameSite=", "invalid"],
    ["a=1; SameSite=Sometimes", "invalid"],
    ["a=1; SameSite=None", "none"],
    ["a=1; SameSite=STRICT", "strict"],
    ["a=1", null]
  ])("%s has SameSite %s", (header, sameSite) => expect(parseSetCookie(header)?.sameSite).toBe(sameSite))

  it("a pair without '=' is a value with an empty name (5.6 step 3)", () =>
    expect(parseSetCookie("token; Secure")).toMatchObject({ name: "", value: "token", secure: true }))

  it.each(["", "=", " ; Secure", "a=b\u0001c", "a=b\nc"])("ignores %j", (header) =>
    expect(parseSetCookie(header)).toBeNull()
  )

  it("ignores a name and value longer than 4096 octets (5.6 step 5)", () =>
    expect(parseSetCookie(`a=${"x".repeat(4096)}`)).toBeNull())

  it("ignores attribute values longer than 1024 octets and a Path not starting with /", () => {
    expect(parseSetCookie(`a=1; Domain=${"x".repeat(1025)}`)?.domain).toBeNull()
    expect(parseSetCookie("a=1; Path=relative")?.path).toBeNull()
  })

  it("is total: any string parses or is ignored, never throws", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), (s) => void parseSetCookie(s)))
  })

  const token = fc.stringMatching(/^[A-Za-z0-9_!#$%&'*+.^`|~-]{1,20}$/)
  const cookie: fc.Arbitrary<SetCookie> = fc.record({
    name: token,
    value: fc.stringMatching(/^[A-Za-z0-9_.~-]{0,30}$/),
    secure: fc.boolean(),
    httpOnly: fc.boolean(),
    sameSite: fc.constantFrom("strict", "lax", "none", "invalid", null),
    domain: fc.option(fc.domain(), { nil: null }),
    path: fc.option(fc.stringMatching(/^\/[a-z0-9/]{0,10}$/), { nil: null }),
    maxAge: fc.option(fc.integer({ min: -1000, max: 100_000_000 }), { nil: null }),
    expires: fc.option(fc.constant("Wed, 21 Oct 2026 07:28:00 GMT"), { nil: null }),
    partitioned: fc.boolean()
  })

  it("round trip: a serialised cookie parses back to itself", () => {
    fc.assert(
      fc.property(cookie, (c) => {
        expect(parseSetCookie(serializeSetCookie(c))).toEqual(c)
      })
    )
  })
})

describe("prefixViolation (4.1.3)", () => {
  const parsed = (h: string) => parseSetCookie(h)!
  it.each([
    ["__Host-s=1; Secure; Path=/", null],
    ["__Host-s=1; Path=/", "without Secure"],
    ["__Host-s=1; Secure; Path=/; Domain=example.com", "Domain"],
    ["__host-s=1; Secure", "Path=/"],
    ["__Secure-s=1; Secure", null],
    ["__SECURE-s=1", "without Secure"],
    ["plain=1", null]
  ])("%s", (header, reason) => {
    const v = prefixViolation(parsed(header))
    if (reason === null) expect(v).toBeNull()
    else expect(v).toContain(reason)
  })
})

describe("storageRefusal", () => {
  it.each([
    ["a=1; Domain=example.com", "www.example.com", null],
    ["a=1; Domain=.EXAMPLE.com", "example.com", null],
    ["a=1; Domain=other.org", "example.com", "does not cover example.com"],
    ["a=1; Domain=ample.com", "example.com", "does not cover"],
    ["__Host-a=1; Path=/", "example.com", "without Secure"]
  ])("%s set by %s", (header, host, reason) => {
    const v = storageRefusal(parseSetCookie(header)!, host)
    if (reason === null) expect(v).toBeNull()
    else expect(v).toContain(reason)
  })
})

describe("defaultPath (RFC 6265 5.1.4)", () => {
  it.each([
    ["/", "/"],
    ["", "/"],
    ["/home", "/"],
    ["/a/b", "/a"],
    ["/a/b/", "/a/b"],
    ["relative", "/"]
  ])("%j -> %s", (path, expected) => expect(defaultPath(path)).toBe(expected))
})

describe("replacedLater (RFC 6265 5.3 step 11)", () => {
  const replaced = (headers: ReadonlyArray<string>, stored = headers.map(() => true), path = "/") =>
    replacedLater(
      headers.map((h) => parseSetCookie(h)!),
      stored,
      path
    )

  it("a later cookie of the same name, domain and path replaces an earlier one", () => {
    expect(replaced(["s=1", "s=2; Secure", "t=3"])).toEqual([true, false, false])
    // no Path on a page at /shop/cart is /shop; Path=/shop is the same
    expect(replaced(["s=1", "s=2; Path=/shop"], undefined, "/shop/cart")).toEqual([true, false])
  })

  it("another path, another Domain (or none: host-only) or another name's case keeps both", () => {
    expect(replaced(["s=1; Path=/", "s=2; Path=/app"])).toEqual([false, false])
    expect(replaced(["s=1", "s=2; Domain=example.com"])).toEqual([false, false])
    expect(replaced(["s=1", "S=2"])).toEqual([false, false])
  })

  it("a later cookie the user agent refuses replaces nothing", () => {
    expect(replaced(["s=1", "s=2"], [true, false])).toEqual([false, false])
  })

  it("the last of each key is never replaced (property)", () => {
    const cookie = fc.record({
      name: fc.constantFrom("a", "b"),
      path: fc.constantFrom(null, "/", "/x"),
      domain: fc.constantFrom(null, "example.com")
    })
    fc.assert(
      fc.property(fc.array(cookie, { maxLength: 8 }), (specs) => {
        const cookies = specs.map((c) => ({
          ...parseSetCookie(`${c.name}=v`)!,
          path: c.path,
          domain: c.domain
        }))
        const out = replacedLater(
          cookies,
          cookies.map(() => true),
          "/"
        )
        const keys = cookies.map((c) => `${c.name} ${c.domain} ${c.path ?? "/"}`)
        keys.forEach((k, i) => expect(out[i]).toBe(keys.indexOf(k, i + 1) !== -1))
      })
    )
  })
})
