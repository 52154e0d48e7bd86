import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { classify, isInternalHostname, vet, vetText } from "../../src/net/Targets.ts"
import {
  contains,
  formatCidr,
  formatIp,
  hostLiteral,
  parseAllowList,
  parseCidr,
  parseIp,
  parseIPv4Loose,
  parseIPv6
} from "../../src/records/IpAddress.ts"
import { runs } from "../support/runs.ts"

const v4 = fc.integer({ min: 0, max: 0xffffffff }).map((n) => ({ family: 4 as const, value: BigInt(n) }))
const v6 = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }).map((value) => ({ family: 6 as const, value }))

const refusalOf = (text: string) => {
  const ip = parseIp(text)
  expect(ip, text).toBeDefined()
  return classify(ip!)
}

describe("address parsing", () => {
  it("formats and parses back every IPv4 and IPv6 address", () => {
    fc.assert(
      fc.property(v4, (ip) => {
        expect(parseIp(formatIp(ip))).toEqual(ip)
      })
    )
    fc.assert(
      fc.property(v6, (ip) => {
        expect(parseIp(formatIp(ip))).toEqual(ip)
      })
    )
  })

  it("agrees with the WHATWG URL parser on odd IPv4 host forms", () => {
    for (const host of [
      "0x7f.1",
      "2130706433",
      "0177.0.0.1",
      "127.1",
      "0x7f000001",
      "10.1",
      "0xA9.0xFE.0xA9.0xFE"
    ]) {
      const ip = parseIPv4Loose(host)
      expect(ip, host).toBeDefined()
      expect(formatIp(ip!)).toBe(new URL(`https://${host}/`).hostname)
    }
    fc.assert(
      fc.property(v4, fc.constantFrom("hex", "dec", "oct"), (ip, style) => {
        const octets = formatIp(ip).split(".").map(Number)
        const text =
          style === "hex"
            ? octets.map((o) => "0x" + o.toString(16)).join(".")
            : style === "oct"
              ? octets.map((o) => "0" + o.toString(8)).join(".")
              : String(ip.value)
        expect(parseIPv4Loose(text)).toEqual(ip)
        expect(new URL(`https://${text}/`).hostname).toBe(formatIp(ip))
      })
    )
  })

  it("agrees with the WHATWG URL parser on arbitrary numeric-looking hosts", () => {
    const hostText = fc.string({
      unit: fc.constantFrom(..."0123456789xXaAfF.".split("")),
      minLength: 1,
      maxLength: 20
    })
    fc.assert(
      fc.property(hostText, (host) => {
        let whatwg: string | "invalid"
        try {
          whatwg = new URL(`https://${host}/`).hostname
        } catch {
          whatwg = "invalid"
        }
        const ours = hostLiteral(host)
        if (ours === undefined) expect(/^\d+\.\d+\.\d+\.\d+$/.test(whatwg)).toBe(false)
        else if (ours === "invalid") expect(whatwg).toBe("invalid")
        else expect(formatIp(ours)).toBe(whatwg)
      }),
      { numRuns: runs(2000) }
    )
  })

  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        parseIp(s)
        parseIPv4Loose(s)
        parseIPv6(s)
        parseCidr(s)
        hostLiteral(s)
        isInternalHostname(s)
        vetText(s, [])
      })
    )
  })

  it("parses IPv6 with embedded IPv4 and refuses malformed forms", () => {
    expect(formatIp(parseIPv6("::ffff:127.0.0.1")!)).toBe("::ffff:7f00:1")
    expect(formatIp(parseIPv6("[::1]")!)).toBe("::1")
    expect(formatIp(parseIPv6("1:2:3:4:5:6:1.2.3.4")!)).toBe("1:2:3:4:5:6:102:304")
    for (const bad of [":::", "1::2::3", "1:2:3:4:5:6:7:8:9", "12345::", "fe80::1%eth0", "1:2:3:4:5:6:7"])
      expect(parseIPv6(bad), bad).toBeUndefined()
  })

  it("recognises URL host literals", () => {
    expect(hostLiteral("example.com")).toBeUndefined()
    expect(hostLiteral("0x7f.1")).toEqual({ family: 4, value: 0x7f000001n })
    expect(hostLiteral("[::1]")).toEqual({ family: 6, value: 1n })
    expect(hostLiteral("1.2.3.4.5")).toBe("invalid")
    expect(hostLiteral("99999999999")).toBe("invalid")
  })
})

describe("CIDR", () => {
  it("contains exactly the addresses sharing the prefix", () => {
    fc.assert(
      fc.property(v4, fc.integer({ min: 0, max: 32 }), v4, (base, prefix, other) => {
        const cidr = parseCidr(`${formatIp(base)}/${prefix}`)!
        expect(contains(cidr, base)).toBe(true)
        const shift = BigInt(32 - prefix)
        expect(contains(cidr, other)).toBe(base.value >> shift === other.value >> shift)
        expect(parseCidr(formatCidr(cidr))).toEqual(cidr)
      })
    )
  })

  it("parses allow lists and reports the bad entry", () => {
    expect(parseAllowList(["127.0.0.0/8", "::1", "fd00::/8"]).ok).toBe(true)
    expect(parseAllowList(["127.0.0.0/8", "nonsense"])).toEqual({ ok: false, bad: "nonsense" })
    expect(parseAllowList(["10.0.0.0/33"])).toEqual({ ok: false, bad: "10.0.0.0/33" })
  })
})

describe("classification", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.1.2", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["100.64.0.1", "cgnat"],
    ["100.127.255.255", "cgnat"],
    ["0.0.0.0", "this-network"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["192.0.2.1", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["::ffff:8.8.8.8", "ipv4-mapped"],
    ["::ffff:127.0.0.1", "ipv4-mapped"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["fe80::1", "link-local"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["64:ff9b::7f00:1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["2002:a00:1::1", "private"],
    ["::127.0.0.1", "reserved"],
    ["4000::1", "reserved"]
  ])("refuses %s as %s", (text, refusal) => {
    expect(refusalOf(text)).toBe(refusal)
  })

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700::1111",
    "2a00:1450::1",
    "64:ff9b::808:808"
  ])("allows public %s", (text) => {
    expect(refusalOf(text)).toBeUndefined()
  })

  it("lets ALLOW_TARGETS cover refused addresses, and nothing else", () => {
    const allow = parseAllowList(["127.0.0.0/8", "fd00::/8"])
    if (!allow.ok) throw new Error("allow list")
    expect(vetText("127.0.0.5", allow.cidrs).ok).toBe(true)
    expect(vetText("fd00::5", allow.cidrs).ok).toBe(true)
    expect(vetText("10.0.0.1", allow.cidrs)).toEqual({ ok: false, refusal: "private" })
    // the IPv4-mapped form of an allowed IPv4 address is still refused: it is another family
    expect(vetText("::ffff:127.0.0.5", allow.cidrs)).toEqual({ ok: false, refusal: "ipv4-mapped" })
  })

  it("every IPv4-mapped and every private or loopback address is refused without an allowance", () => {
    fc.assert(
      fc.property(v4, (ip) => {
        expect(vet({ family: 6, value: 0xffff00000000n | ip.value }, []).ok).toBe(false)
      })
    )
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffff }), (low) => {
        expect(vet({ family: 4, value: 0x0a000000n | BigInt(low) }, []).ok).toBe(false)
        expect(vet({ family: 4, value: 0x7f000000n | BigInt(low) }, []).ok).toBe(false)
      })
    )
  })

  it("only global unicast IPv6 can pass", () => {
    fc.assert(
      fc.property(v6, (ip) => {
        if (vet(ip, []).ok) expect(ip.value >> 125n).toBe(1n)
      })
    )
  })
})

describe("internal host names", () => {
  it.each([
    "localhost",
    "foo.localhost",
    "printer.local",
    "db.internal",
    "router.home.arpa",
    "intranet",
    "x.lan."
  ])("refuses %s", (h) => expect(isInternalHostname(h)).toBe(true))
  it.each(["example.org", "perfect.com", "csp-weak.com", "a.b.co.uk"])("accepts %s", (h) =>
    expect(isInternalHostname(h)).toBe(false)
  )
})
