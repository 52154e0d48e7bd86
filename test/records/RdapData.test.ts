/** RDAP bootstrap matching (RFC 9224 4) and domain objects (RFC 9083 4.5, 5.3). */
import fc from "fast-check"
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import {
  baseUrlsFor,
  daysUntil,
  domainQueryUrl,
  expiryBand,
  parseBootstrap,
  parseDomainObject
} from "../../src/records/RdapData.ts"

const bootstrap = Either.getOrThrow(
  parseBootstrap({
    version: "1.0",
    services: [
      [
        ["com", "net"],
        ["http://rdap.verisign.example/", "https://rdap.verisign.example/"]
      ],
      [["uk"], ["https://rdap.nominet.example/"]],
      [["co.uk"], ["https://rdap.co-uk.example/rdap"]]
    ]
  })
)

describe("the RDAP bootstrap", () => {
  it("picks the longest matching entry, HTTPS first", () => {
    expect(baseUrlsFor(bootstrap, "example.com")).toEqual([
      "https://rdap.verisign.example/",
      "http://rdap.verisign.example/"
    ])
    expect(baseUrlsFor(bootstrap, "shop.co.uk")).toEqual(["https://rdap.co-uk.example/rdap"])
    expect(baseUrlsFor(bootstrap, "example.uk")).toEqual(["https://rdap.nominet.example/"])
    expect(baseUrlsFor(bootstrap, "example.de")).toEqual([])
  })

  it("builds the domain query under a base with or without a slash (RFC 9082 3.1.3)", () => {
    expect(domainQueryUrl("https://rdap.co-uk.example/rdap", "Shop.co.uk.")).toBe(
      "https://rdap.co-uk.example/rdap/domain/shop.co.uk"
    )
    expect(domainQueryUrl("https://r.example/", "a.com")).toBe("https://r.example/domain/a.com")
  })

  it("refuses what is not a bootstrap file, and never throws", () => {
    expect(Either.isLeft(parseBootstrap({ services: [[["com"]]] }))).toBe(true)
    expect(Either.isLeft(parseBootstrap("dns.json"))).toBe(true)
    fc.assert(fc.property(fc.jsonValue(), (json) => void parseBootstrap(json)))
  })
})

describe("a domain object", () => {
  it("gives the expiration and registration events and the status", () => {
    const parsed = parseDomainObject({
      objectClassName: "domain",
      status: ["Active", "client transfer prohibited"],
      events: [
        { eventAction: "registration", eventDate: "2015-03-01T00:00:00Z" },
        { eventAction: "expiration", eventDate: "2027-03-01T00:00:00Z" }
      ]
    })
    expect(parsed).toEqual(
      Either.right({
        expires: "2027-03-01T00:00:00.000Z",
        registered: "2015-03-01T00:00:00.000Z",
        statuses: ["active", "client transfer prohibited"]
      })
    )
  })

  it("has no expiry when none is given or it is unreadable, and never throws", () => {
    expect(
      Either.getOrThrow(parseDomainObject({ events: [{ eventAction: "expiration", eventDate: "soon" }] }))
        .expires
    ).toBe(null)
    expect(Either.isLeft(parseDomainObject({ objectClassName: "entity" }))).toBe(true)
    fc.assert(fc.property(fc.jsonValue(), (json) => void parseDomainObject(json)))
  })

  it("falls in the band of the nearest threshold crossed (30, 14, 7 days, expired)", () => {
    const now = new Date("2026-11-26T00:00:00Z")
    const at = (days: number) => new Date(now.getTime() + days * 86_400_000 + 3_600_000).toISOString()
    expect([40, 30, 20, 14, 10, 7, 1, 0].map((d) => expiryBand(daysUntil(at(d), now)))).toEqual([
      null,
      30,
      30,
      14,
      14,
      7,
      7,
      7
    ])
    expect(expiryBand(daysUntil("2026-11-20T00:00:00Z", now))).toBe("expired")
  })
})
