import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import fc from "fast-check"
import { normaliseDomain } from "../../src/records/DomainName.ts"
import { Domain } from "../../src/api/Domain.ts"
import { domain } from "../support/domain.ts"
import { runs } from "../support/runs.ts"

const ok = (input: string) => Either.getOrThrow(normaliseDomain(input))
const why = (input: string) => Either.match(normaliseDomain(input), { onLeft: (m) => m, onRight: () => "" })

describe("normaliseDomain", () => {
  it.each([
    ["example.com", "example.com"],
    ["  Example.COM.  ", "example.com"],
    ["https://Example.com/path?q=1#x", "example.com"],
    ["http://www.example.co.uk:8443/", "www.example.co.uk"],
    ["example.com/some/page", "example.com"],
    ["example.com:443", "example.com"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["xn--bcher-kva.de", "xn--bcher-kva.de"],
    ["münchen.DE.", "xn--mnchen-3ya.de"],
    ["perfect.com", "perfect.com"],
    // a hex-looking first label is still a name: only a numeric last label makes an IPv4 address
    ["0xa.com", "0xa.com"],
    ["1.2.3.example.com", "1.2.3.example.com"]
  ])("accepts %s as %s", (input, expected) => {
    expect(ok(input)).toBe(expected)
  })

  it.each([
    ["", "empty"],
    ["http:/x", "':'"],
    ["localhost", "single label"],
    ["foo.localhost", "localhost"],
    ["com", "single label"],
    ["co.uk", "public suffix"],
    ["printer.local", "not a public suffix"],
    ["intranet.corp", "not a public suffix"],
    ["192.168.1.1", "IP addresses"],
    ["2130706433", "IP addresses"],
    ["0x7f.1", "IP addresses"],
    ["127.0.0.0x1", "IP addresses"],
    ["[::1]", "IP addresses"],
    ["::1", "IP addresses"],
    ["http://[2001:db8::1]/", "IP addresses"],
    ["exa mple.com", "' '"],
    ["exam_ple.com", "'_'"],
    ["-bad.com", "hyphen"],
    ["a..com", "empty label"],
    [`${"a".repeat(64)}.com`, "63"],
    [`${"abcdefghi.".repeat(26)}com`, "253"],
    ["https://user:pw@example.com/", "credentials"]
  ])("refuses %j (%s)", (input, reason) => {
    const message = why(input)
    expect(message).toMatch(/^domain must be a hostname such as example\.com; got /)
    expect(message).toContain(reason)
  })

  // Hyphens in the third and fourth places are reserved for A-labels (RFC 5891 §4.2.3.1): `xn--a`
  // is invalid punycode, rightly refused, so such labels are not "valid hostnames" here.
  const label = fc
    .stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/)
    .filter((l) => l.slice(2, 4) !== "--")
  const tld = fc.constantFrom("com", "net", "org", "nl", "de", "io", "co.uk", "com.au", "xn--p1ai")
  const hostname = fc
    .tuple(fc.array(label, { minLength: 1, maxLength: 4 }), tld)
    .map(([labels, suffix]) => `${labels.join(".")}.${suffix}`)
    .filter((h) => h.length <= 253)

  it("accepts every generated valid hostname unchanged", () => {
    fc.assert(fc.property(hostname, (host) => ok(host) === host))
  })

  it("accepts decorated hostnames (case, dots, URL) as the bare name", () => {
    fc.assert(
      fc.property(hostname, fc.constantFrom("", "https://", "http://"), fc.boolean(), (host, scheme, dot) => {
        return ok(`  ${scheme}${host.toUpperCase()}${dot ? "." : ""}${scheme ? "/x" : ""} `) === host
      })
    )
  })

  it("is idempotent", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), hostname, fc.string({ unit: "binary" })), (input) =>
        Either.match(normaliseDomain(input), {
          onLeft: () => true,
          onRight: (once) => Either.getOrThrow(normaliseDomain(once)) === once
        })
      )
    )
  })

  it("never throws, whatever the input", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 3000 }), fc.string({ unit: "binary" }), fc.webUrl()),
        (input) => {
          normaliseDomain(input)
          return true
        }
      ),
      { numRuns: runs(2000) }
    )
  })
})

describe("the Domain schema", () => {
  it("decodes to the name normaliseDomain gives, and refuses what it refuses", () => {
    const decode = Schema.decodeUnknownEither(Domain)
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.domain()), (input) => {
        const decoded = decode(input)
        const normalised = normaliseDomain(input)
        expect(Either.isRight(decoded)).toBe(Either.isRight(normalised))
        if (Either.isRight(decoded) && Either.isRight(normalised))
          expect(decoded.right).toBe(normalised.right)
      })
    )
  })

  it("the tests' domain() decodes as the edge does and throws on a refused name", () => {
    expect(domain("https://Example.COM./x")).toBe("example.com")
    expect(() => domain("localhost")).toThrow(/localhost/)
    expect(domain("Mx.Perfect.Example.")).toBe("mx.perfect.example")
    expect(() => domain("1.2.3.4")).toThrow(/IP addresses/)
  })
})
