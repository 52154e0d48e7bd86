/**
 * Forwarded client addresses: every form proxies write is read (`ip`, `ip:port`, `[v6]`,
 * `[v6]:port`, RFC 7239 `for=`), and a value that cannot be read fails closed: the client is a
 * stranger behind the proxy, never the proxy's own (often loopback) address.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import {
  forwardedForValues,
  forwardingHeader,
  parseForwardedHop,
  resolveForwarded,
  unparsedKey
} from "../../../src/http/edge/ClientAddress.ts"
import { formatIp, parseAllowList } from "../../../src/records/IpAddress.ts"

const cidrs = (...items: Array<string>) => {
  const parsed = parseAllowList(items)
  if (!parsed.ok) throw new Error(parsed.bad)
  return parsed.cidrs
}
const loopbackProxy = cidrs("127.0.0.1/32", "::1/128")
const text = (hop: string) => {
  const ip = parseForwardedHop(hop)
  return ip === undefined ? undefined : formatIp(ip)
}

const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join("."))
const v6 = fc.ipV6()
const port = fc.integer({ min: 1, max: 65535 })

describe("parseForwardedHop", () => {
  it("reads the forms proxies write", () => {
    expect(text("203.0.113.9")).toBe("203.0.113.9")
    expect(text(" 203.0.113.9:51234 ")).toBe("203.0.113.9")
    expect(text("2001:db8::7")).toBe("2001:db8::7")
    expect(text("[2001:db8::7]")).toBe("2001:db8::7")
    expect(text("[2001:db8::7]:51234")).toBe("2001:db8::7")
    expect(text("for=192.0.2.60")).toBe("192.0.2.60")
    expect(text('For="[2001:db8:cafe::17]:4711"')).toBe("2001:db8:cafe::17")
    expect(text('for="192.0.2.43:47011"')).toBe("192.0.2.43")
    expect(text("::ffff:192.0.2.1")).toBe("192.0.2.1")
  })

  it("reads nothing from what names no address", () => {
    for (const bad of [
      "",
      " ",
      "unknown",
      "for=unknown",
      'for="_hidden"',
      "_gazonk",
      "garbage",
      "1.2.3",
      "[::1",
      "::1]:80",
      "203.0.113.9:",
      "203.0.113.9:port",
      "for=",
      "localhost"
    ])
      expect(parseForwardedHop(bad), JSON.stringify(bad)).toBeUndefined()
  })

  it("reads back every address it is given, in every form (property)", () => {
    fc.assert(
      fc.property(fc.oneof(v4, v6), port, fc.boolean(), fc.boolean(), (address, p, withPort, asParam) => {
        const expected = text(address)
        expect(expected).toBeDefined()
        const isV6 = address.includes(":")
        const node = withPort ? (isV6 ? `[${address}]:${p}` : `${address}:${p}`) : address
        const hop = asParam ? `for="${node}"` : node
        expect(text(hop)).toBe(expected)
      })
    )
  })

  it("never throws, and any address it reads is one (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (junk) => {
        const ip = parseForwardedHop(junk)
        if (ip !== undefined) expect(ip.family === 4 || ip.family === 6).toBe(true)
      })
    )
  })
})

describe("resolveForwarded", () => {
  it("behind a trusted proxy is the rightmost untrusted hop, ports and for= forms read", () => {
    expect(resolveForwarded("127.0.0.1", "203.0.113.9:51234", loopbackProxy)).toMatchObject({
      key: "203.0.113.9"
    })
    expect(resolveForwarded("::1", "[2001:db8::9]:443", loopbackProxy)).toMatchObject({ key: "2001:db8::9" })
    expect(resolveForwarded("127.0.0.1", "198.51.100.1, for=203.0.113.9", loopbackProxy).key).toBe(
      "203.0.113.9"
    )
    // the client's own claim further left is never read past the first untrusted hop
    expect(resolveForwarded("127.0.0.1", "127.0.0.1, 203.0.113.9", loopbackProxy).key).toBe("203.0.113.9")
  })

  it("fails closed on what cannot be read: a stranger, never this machine", () => {
    for (const bad of [
      "unknown",
      "",
      " , ",
      "203.0.113.9, garbage",
      "garbage, 127.0.0.1",
      "[::1",
      "203.0.113.9:port"
    ]) {
      const client = resolveForwarded("127.0.0.1", bad, loopbackProxy)
      expect(client.ip, JSON.stringify(bad)).toBeUndefined()
      expect(client.key).toBe(unparsedKey(client.key.slice(client.key.indexOf("@") + 1)))
      expect(client.unparsed).toBe(bad)
    }
    expect(resolveForwarded("127.0.0.1", "garbage", loopbackProxy).key).toBe(unparsedKey("127.0.0.1"))
  })

  it("without a trusted proxy, the socket peer whatever the header says", () => {
    expect(resolveForwarded("192.0.2.1", "127.0.0.1", loopbackProxy)).toMatchObject({ key: "192.0.2.1" })
    expect(resolveForwarded("192.0.2.1", "garbage", []).key).toBe("192.0.2.1")
    expect(resolveForwarded("127.0.0.1", undefined, loopbackProxy).key).toBe("127.0.0.1")
  })

  it("behind a loopback proxy, no forwarded value makes a remote client loopback (property)", () => {
    const junk = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom("unknown", "", "_hidden", "for=unknown")
    )
    const hop = fc.oneof(
      v4,
      v6.map((a) => `[${a}]:443`),
      junk
    )
    fc.assert(
      fc.property(fc.array(hop, { minLength: 1, maxLength: 6 }), (hops) => {
        const header = hops.join(",")
        const client = resolveForwarded("127.0.0.1", header, loopbackProxy)
        const rightmost = parseForwardedHop(header.split(",").at(-1)!)
        // the client is loopback only when the proxy's own hop says so
        if (client.ip !== undefined && formatIp(client.ip) === "127.0.0.1")
          expect(rightmost && formatIp(rightmost)).toBe("127.0.0.1")
        if (rightmost === undefined) expect(client.ip).toBeUndefined()
      })
    )
  })
})

describe("forwardingHeader", () => {
  it("reads X-Forwarded-For, else the for= values of Forwarded", () => {
    expect(forwardingHeader({ "x-forwarded-for": "203.0.113.9", forwarded: "for=127.0.0.1" })).toBe(
      "203.0.113.9"
    )
    expect(forwardingHeader({ "x-forwarded-for": ["198.51.100.1", "203.0.113.9"] })).toBe(
      "198.51.100.1,203.0.113.9"
    )
    expect(forwardingHeader({ forwarded: 'for=192.0.2.43;proto=https, for="[2001:db8::1]:80";by=x' })).toBe(
      'for=192.0.2.43, for="[2001:db8::1]:80"'
    )
    expect(forwardingHeader({})).toBeUndefined()
    // an element without for= is an unreadable hop, not a skipped one
    expect(forwardedForValues("proto=https")).toBe("")
  })
})
