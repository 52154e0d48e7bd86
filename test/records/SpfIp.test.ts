import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { formatIp, makeCidr, mergeCidrs, parseIp4, parseIp6, type Cidr } from "../../src/records/SpfIp.ts"

describe("SpfIp", () => {
  it("parses IPv6 text forms (RFC 4291 2.2)", () => {
    expect(parseIp6("::")).toBe(0n)
    expect(parseIp6("::1")).toBe(1n)
    expect(parseIp6("2001:db8::")).toBe(0x20010db8n << 96n)
    expect(parseIp6("::ffff:192.0.2.1")).toBe(0xffffc0000201n)
    expect(parseIp6("1:2:3:4:5:6:1.2.3.4")).toBe(parseIp6("1:2:3:4:5:6:102:304"))
    for (const bad of ["", ":", "1::2::3", "12345::", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "::1.2.3", "g::"])
      expect(parseIp6(bad)).toBeUndefined()
  })

  it("formats and re-parses any address (RFC 5952)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }), (v) => {
        expect(parseIp6(formatIp(6, v))).toBe(v)
      })
    )
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(formatIp(4, parseIp4(ip)!)).toBe(ip)
      })
    )
    expect(formatIp(6, parseIp6("2001:db8:0:0:1:0:0:1")!)).toBe("2001:db8::1:0:0:1")
  })

  it("merges prefixes without changing the covered addresses", () => {
    const covers = (list: ReadonlyArray<Cidr>, ip: bigint) =>
      list.some((c) => makeCidr(4, ip, c.prefix).network === c.network)
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ ip: fc.integer({ min: 0, max: 4095 }), prefix: fc.integer({ min: 20, max: 32 }) }),
          { maxLength: 30 }
        ),
        (items) => {
          const input = items.map(({ ip, prefix }) => makeCidr(4, BigInt(ip), prefix))
          const merged = mergeCidrs(input)
          expect(merged.length).toBeLessThanOrEqual(input.length)
          for (let ip = 0n; ip < 4096n; ip += 7n) expect(covers(merged, ip)).toBe(covers(input, ip))
        }
      )
    )
    expect(mergeCidrs([makeCidr(4, 0n, 25), makeCidr(4, 128n, 25)])).toEqual([makeCidr(4, 0n, 24)])
  })
})
