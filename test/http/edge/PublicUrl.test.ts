/**
 * Honest URLs and client addresses: a Host or X-Forwarded-* header reaches a URL the service
 * answers with only when valid, named by ALLOWED_HOSTS (or the listener's own address) and (for
 * forwarded headers) from a trusted proxy; never a URL it stores; and a rate-limit key only when
 * valid and from a trusted proxy.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import { resolveClient } from "../../../src/http/edge/ClientAddress.ts"
import { baseUrlFor, listenerHost, storedBaseFor, validHost } from "../../../src/http/edge/PublicUrl.ts"
import { parseAllowList } from "../../../src/records/IpAddress.ts"
import { FORGED_HOSTS } from "../forgedHosts.ts"
import { call, withTxtDns } from "../harness.ts"
import { runs } from "../../support/runs.ts"

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
      { numRuns: runs(2_000) }
    ))
})

describe("baseUrlFor", () => {
  const config = {
    publicBaseUrl: "",
    trustedProxies: proxy,
    allowedHosts: ["audit.example.net", "a.example", "b.example"]
  }
  const base = (headers: Record<string, string>, peer = "192.0.2.1") =>
    baseUrlFor({ headers, peer, encrypted: false }, config, "localhost:8080")

  it("PUBLIC_BASE_URL wins over every header", () =>
    expect(
      baseUrlFor(
        { headers: { host: "evil.example" }, peer: "10.0.0.1", encrypted: false },
        { publicBaseUrl: "https://audit.example.net/api", trustedProxies: proxy, allowedHosts: [] },
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
    // a trusted proxy's forwarded host is a client's Host too: held to the same list
    expect(base({ host: "a.example", "x-forwarded-host": "evil.example" }, "10.1.2.3")).toBe(
      "http://a.example/api"
    )
  })

  it("echoes a Host only when ALLOWED_HOSTS names it or it is the listener's own address", () => {
    const listener = listenerHost("::ffff:127.0.0.1", 8080)
    expect(listener).toBe("127.0.0.1:8080")
    expect(listenerHost("::1", 8080)).toBe("[::1]:8080")
    const answer = (host: string, allowedHosts: ReadonlyArray<string> = []) =>
      baseUrlFor(
        { headers: { host }, peer: "192.0.2.1", encrypted: false, listener },
        { publicBaseUrl: "", trustedProxies: [], allowedHosts },
        "localhost:8080"
      )
    for (const forged of FORGED_HOSTS) expect(answer(forged), forged).toBe("http://127.0.0.1:8080/api")
    expect(answer("127.0.0.1:8080")).toBe("http://127.0.0.1:8080/api")
    expect(answer("Audit.Example.NET:8443", ["audit.example.net"])).toBe("http://audit.example.net:8443/api")
    expect(answer("audit.example.net:8443", ["audit.example.net:443"])).toBe("http://127.0.0.1:8080/api")
    expect(answer("audit.example.net.", ["audit.example.net"])).toBe("http://audit.example.net./api")
  })

  it("stored documents take PUBLIC_BASE_URL or a relative base, whatever the request", () => {
    expect(storedBaseFor({ publicBaseUrl: "" })).toBe("/api")
    expect(storedBaseFor({ publicBaseUrl: "https://audit.example.net/api" })).toBe(
      "https://audit.example.net/api"
    )
  })
})

describe("resolveClient", () => {
  it("is the socket peer unless that is a trusted proxy, then the rightmost untrusted hop", () => {
    expect(resolveClient("192.0.2.1", "203.0.113.5", proxy)).toBe("192.0.2.1")
    expect(resolveClient("10.0.0.1", "203.0.113.5", proxy)).toBe("203.0.113.5")
    expect(resolveClient("10.0.0.1", "1.1.1.1, 203.0.113.5, 10.0.0.9", proxy)).toBe("203.0.113.5")
    expect(resolveClient("::ffff:10.0.0.1", "203.0.113.5", proxy)).toBe("203.0.113.5")
    expect(resolveClient("10.0.0.1", "garbage", proxy)).toBe("unreadable-forwarded-for@10.0.0.1")
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
          /^http:\/\/127\.0\.0\.1:\d+\/api\/email\/fcrdns\?domain=example\.com$/
        )
        const proto = yield* call("GET", "/api/email/fcrdns?domain=example.com", undefined, {
          "x-forwarded-proto": "javascript"
        })
        expect(proto.json.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\//)
      })
    )
  )
})
