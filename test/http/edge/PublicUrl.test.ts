/**
 * Issue 12, honest URLs and client addresses: a Host or X-Forwarded-* header reaches a URL the
 * service writes, or a rate-limit key, only when valid and (for forwarded headers) from a trusted proxy.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import { resolveClient } from "../../../src/http/edge/ClientAddress.ts"
import { baseUrlFor, validHost } from "../../../src/http/edge/PublicUrl.ts"
import { parseAllowList } from "../../../src/net/Targets.ts"
import { call, withTxtDns } from "../harness.ts"

const cidrs = (...items: Array<string>) => {
  const parsed = parseAllowList(items)
  if (!parsed.ok) throw new Error(parsed.bad)
  return parsed.cidrs
}
const proxy = cidrs("10.0.0.0/8")

describe("validHost", () => {
  it("takes names, addresses and ports, and nothing else", () => {
    for (const ok of ["audit.example.net", "localhost:8080", "127.0.0.1:3000", "[::1]:8080", "my_service:80"])
      expect(validHost(ok), ok).toBe(ok)
    for (const bad of [
      'a"><script>x</script>',
      "javascript://x",
      "a b",
      "x:99999",
      "x:0",
      "[zz]:1",
      "x/y",
      "x@y",
      "",
      "a".repeat(300)
    ])
      expect(validHost(bad), bad).toBeUndefined()
  })

  it("whatever it accepts makes a URL with nothing but a host, a port and the /api path", () =>
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("a", ".", ":", "[", "]", "1", "::1", "@")),
          {
            maxLength: 8
          }
        ),
        (parts) => {
          const host = validHost(parts.join(""))
          if (host === undefined) return
          const url = new URL(`http://${host}/api`)
          expect([url.pathname, url.search, url.hash, url.username]).toEqual(["/api", "", "", ""])
        }
      ),
      { numRuns: 2_000 }
    ))
})

describe("baseUrlFor", () => {
  const config = { publicBaseUrl: "", trustedProxies: proxy }
  const base = (headers: Record<string, string>, peer = "192.0.2.1") =>
    baseUrlFor({ headers, peer, encrypted: false }, config, "localhost:8080")

  it("PUBLIC_BASE_URL wins over every header", () =>
    expect(
      baseUrlFor(
        { headers: { host: "evil.example" }, peer: "10.0.0.1", encrypted: false },
        { publicBaseUrl: "https://audit.example.net/api", trustedProxies: proxy },
        "x"
      )
    ).toBe("https://audit.example.net/api"))

  it("uses a valid Host; an invalid one falls back; forwarded headers count only from a trusted proxy", () => {
    expect(base({ host: "audit.example.net:8443" })).toBe("http://audit.example.net:8443/api")
    expect(base({ host: 'a"><script>x</script>' })).toBe("http://localhost:8080/api")
    expect(base({ host: "a.example", "x-forwarded-proto": "https", "x-forwarded-host": "b.example" })).toBe(
      "http://a.example/api"
    )
    expect(
      base({ host: "a.example", "x-forwarded-proto": "https", "x-forwarded-host": "b.example" }, "10.1.2.3")
    ).toBe("https://b.example/api")
    expect(base({ host: "a.example", "x-forwarded-proto": "javascript" }, "10.1.2.3")).toBe(
      "http://a.example/api"
    )
    expect(base({ host: "a.example", "x-forwarded-host": "<x>" }, "::ffff:10.1.2.3")).toBe(
      "http://a.example/api"
    )
  })
})

describe("resolveClient", () => {
  it("is the socket peer unless that is a trusted proxy, then the rightmost untrusted hop", () => {
    expect(resolveClient("192.0.2.1", "203.0.113.5", proxy)).toBe("192.0.2.1")
    expect(resolveClient("10.0.0.1", "203.0.113.5", proxy)).toBe("203.0.113.5")
    expect(resolveClient("10.0.0.1", "1.1.1.1, 203.0.113.5, 10.0.0.9", proxy)).toBe("203.0.113.5")
    expect(resolveClient("::ffff:10.0.0.1", "203.0.113.5", proxy)).toBe("203.0.113.5")
    expect(resolveClient("10.0.0.1", "garbage", proxy)).toBe("10.0.0.1")
    expect(resolveClient("10.0.0.1", undefined, proxy)).toBe("10.0.0.1")
    expect(resolveClient("192.0.2.1", undefined, [])).toBe("192.0.2.1")
  })
})

describe("URLs the service returns", () => {
  it.scopedLive("apiUrl of /email/fcrdns never carries a hostile Host or X-Forwarded-Proto", () =>
    withTxtDns(
      {},
      Effect.gen(function* () {
        const script = yield* call("GET", "/api/email/fcrdns?domain=example.com", undefined, {
          host: 'a"><script>x</script>'
        })
        expect(script.status).toBe(200)
        expect(script.json.apiUrl).toMatch(
          /^http:\/\/localhost:\d+\/api\/email\/fcrdns\?domain=example\.com$/
        )
        const proto = yield* call("GET", "/api/email/fcrdns?domain=example.com", undefined, {
          "x-forwarded-proto": "javascript"
        })
        expect(proto.json.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\//)
      })
    )
  )
})
