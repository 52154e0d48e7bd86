/**
 * The name-server verdicts (checks/nameservers/Analyse.ts) over made-up answers: each verdict on
 * its own, timeouts as unknown (never a failure), and a property test that `analyse` is total.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  type AddressProbe,
  analyse,
  type Asked,
  type NsInput,
  v4Prefix,
  v6Prefix
} from "../../../src/checks/nameservers/Analyse.ts"
import { NameServersReport } from "../../../src/checks/nameservers/Result.ts"
import type { DirectReply } from "../../../src/net/NameServers.ts"
import type { DnsRecord } from "../../../src/net/DnsTypes.ts"
import { Schema } from "effect"
import { runs } from "../../support/runs.ts"

const NOW = new Date("2026-11-26T00:00:00Z")
const DOMAIN = "example.com"

const soa = (serial: number): DnsRecord => ({
  name: DOMAIN,
  type: "SOA",
  ttl: 300,
  data: {
    mname: "ns1.example.net",
    rname: "h.example.com",
    serial,
    refresh: 1,
    retry: 1,
    expire: 1,
    minimum: 1
  },
  text: ""
})
const ns = (hosts: ReadonlyArray<string>): Array<DnsRecord> =>
  hosts.map((h) => ({ name: DOMAIN, type: "NS", ttl: 300, data: h, text: `${h}.` }))

const reply = (answers: ReadonlyArray<DnsRecord>, over: Partial<DirectReply> = {}): Asked => ({
  reply: {
    server: "x:53",
    rcode: "NOERROR",
    aa: true,
    ra: false,
    tc: false,
    answers,
    authority: [],
    elapsedMs: 1,
    ...over
  }
})
const TIMEOUT: Asked = { failed: "timeout: no reply from 192.0.2.1:53 within 2000 ms" }

const good = (address: string, serial = 1, set = ["ns1.example.net", "ns2.example.org"]): AddressProbe => ({
  address,
  soa: reply([soa(serial)]),
  ns: reply(ns(set)),
  soaTcp: reply([soa(serial)]),
  recursion: reply([], { rcode: "REFUSED", aa: false })
})

const input = (
  probes: Record<string, ReadonlyArray<AddressProbe>>,
  over: Partial<NsInput> = {}
): NsInput => ({
  domain: DOMAIN,
  zone: { value: Object.keys(probes) },
  parentZone: "com",
  delegation: { value: Object.keys(probes) },
  servers: Object.entries(probes).map(([host, list]) => ({
    host,
    inDelegation: true,
    inZone: true,
    addresses: {
      value: {
        v4: list.map((p) => p.address).filter((a) => !a.includes(":")),
        v6: list.map((p) => p.address).filter((a) => a.includes(":"))
      }
    },
    probes: list
  })),
  unasked: 0,
  ...over
})

const healthy = () =>
  input({
    "ns1.example.net": [good("192.0.2.1"), good("2001:db8:1::1")],
    "ns2.example.org": [good("198.51.100.1"), good("2001:db8:2::1")]
  })

describe("the name-server verdicts", () => {
  it("two servers in two networks, authoritative and agreeing, pass everything", () => {
    const r = analyse(healthy(), NOW)
    for (const v of Object.values(r.verdicts)) expect(v.status, v.message).toBe("pass")
    expect(r.status).toBe("pass")
    expect(r.servers[0]!.results[0]).toMatchObject({
      authoritative: true,
      serial: 1,
      tcp: true,
      openRecursion: false
    })
  })

  it("prefixes: IPv4 /24 and IPv6 /48", () => {
    expect(v4Prefix("192.0.2.77")).toBe("192.0.2.0/24")
    expect(v6Prefix("2001:db8:1:2::53")).toBe("2001:db8:1::/48")
    expect(v6Prefix("2001:0db8:0001::1")).toBe("2001:db8:1::/48")
  })

  it("one server is too few, and one /24 is one network", () => {
    const r = analyse(input({ "ns1.example.net": [good("192.0.2.1")] }), NOW)
    expect(r.verdicts.count.status).toBe("fail")
    expect(r.verdicts.networks).toMatchObject({ status: "fail" })
    expect(r.verdicts.networks.message).toContain("192.0.2.0/24")
  })

  it("two IPv6 addresses in one /48 are one network, whatever the IPv4 side says", () => {
    const r = analyse(
      input({
        "ns1.example.net": [good("192.0.2.1"), good("2001:db8:1::1")],
        "ns2.example.org": [good("198.51.100.1"), good("2001:db8:1:ff::1")]
      }),
      NOW
    )
    expect(r.verdicts.networks.status).toBe("fail")
    expect(r.verdicts.networks.message).toContain("2001:db8:1::/48")
  })

  it("a server that answers REFUSED, or without AA, is lame", () => {
    const refused = { ...good("198.51.100.9"), soa: reply([], { rcode: "REFUSED", aa: false }) }
    const noAa = { ...good("203.0.113.9"), soa: reply([soa(1)], { aa: false }) }
    const r = analyse(
      input({
        "ns1.example.net": [good("192.0.2.1")],
        "ns2.example.org": [good("198.51.100.1")],
        "old.example.net": [refused],
        "odd.example.net": [noAa]
      }),
      NOW
    )
    expect(r.verdicts.authoritative.status).toBe("fail")
    expect(r.verdicts.authoritative.message).toContain("old.example.net (198.51.100.9): answered REFUSED")
    expect(r.verdicts.authoritative.message).toContain("AA clear")
    // REFUSED over TCP is still TCP answered
    expect(r.verdicts.tcp.status).toBe("pass")
  })

  it("a timeout is unknown, never lame", () => {
    const silent: AddressProbe = {
      address: "192.0.2.9",
      soa: TIMEOUT,
      ns: TIMEOUT,
      soaTcp: TIMEOUT,
      recursion: TIMEOUT
    }
    const r = analyse(input({ "ns1.example.net": [good("198.51.100.1")], "ns2.example.org": [silent] }), NOW)
    expect(r.verdicts.authoritative.status).toBe("unknown")
    expect(r.verdicts.tcp.status).toBe("unknown")
    expect(r.verdicts.recursion.status).toBe("unknown")
    expect(r.servers[1]!.results[0]).toMatchObject({
      authoritative: null,
      tcp: null,
      openRecursion: null,
      status: "unknown"
    })
  })

  it("different serials, different NS sets, or an NS set other than the delegation are inconsistent", () => {
    const serials = analyse(
      input({ "ns1.example.net": [good("192.0.2.1", 1)], "ns2.example.org": [good("198.51.100.1", 2)] }),
      NOW
    )
    expect(serials.verdicts.consistent.status).toBe("fail")
    expect(serials.verdicts.consistent.message).toContain("different SOA serials (1, 2)")
    const delegation = analyse(
      {
        ...healthy(),
        delegation: { value: ["ns1.example.net", "ns2.example.org", "ns3.example.net"] }
      },
      NOW
    )
    expect(delegation.verdicts.consistent.message).toContain("the parent delegates to")
  })

  it("RA in reply to a recursive question is open recursion; a refused TCP connection is no TCP", () => {
    const open = { ...good("198.51.100.1"), recursion: reply([], { rcode: "NXDOMAIN", aa: false, ra: true }) }
    const noTcp = {
      ...good("192.0.2.1"),
      soaTcp: { failed: "network: TCP 192.0.2.1:53: connect ECONNREFUSED" }
    }
    const r = analyse(input({ "ns1.example.net": [noTcp], "ns2.example.org": [open] }), NOW)
    expect(r.verdicts.recursion.status).toBe("fail")
    expect(r.verdicts.tcp.status).toBe("fail")
    expect(r.status).toBe("fail")
  })

  it("no AAAA on any server fails IPv6, as a warning of the check", () => {
    const r = analyse(
      input({ "ns1.example.net": [good("192.0.2.1")], "ns2.example.org": [good("198.51.100.1")] }),
      NOW
    )
    expect(r.verdicts.ipv6).toMatchObject({ status: "fail" })
    expect(r.status).toBe("warning")
  })

  it("a domain without NS (not a zone apex, or NXDOMAIN) is not applicable; a failed NS look-up unknown", () => {
    expect(analyse({ ...healthy(), zone: { absent: "nodata" } }, NOW).status).toBe("not-applicable")
    expect(analyse({ ...healthy(), zone: { absent: "nxdomain" } }, NOW).verdicts.count.message).toContain(
      "NXDOMAIN"
    )
    expect(analyse({ ...healthy(), zone: { failed: "timeout" } }, NOW).status).toBe("unknown")
  })
})

const arbAsked: fc.Arbitrary<Asked> = fc.oneof(
  fc.string().map((failed) => ({ failed })),
  fc
    .record({
      rcode: fc.constantFrom("NOERROR", "NXDOMAIN", "REFUSED", "SERVFAIL"),
      aa: fc.boolean(),
      ra: fc.boolean(),
      serial: fc.nat(),
      hosts: fc.array(fc.domain(), { maxLength: 3 }),
      withSoa: fc.boolean()
    })
    .map(({ rcode, aa, ra, serial, hosts, withSoa }) =>
      reply([...(withSoa ? [soa(serial)] : []), ...ns(hosts)], { rcode, aa, ra })
    )
)
const arbProbe: fc.Arbitrary<AddressProbe> = fc.record({
  address: fc.oneof(fc.ipV4(), fc.ipV6()),
  soa: arbAsked,
  ns: arbAsked,
  soaTcp: arbAsked,
  recursion: arbAsked
})
const arbInput: fc.Arbitrary<NsInput> = fc
  .record({
    hosts: fc.dictionary(fc.domain(), fc.array(arbProbe, { maxLength: 3 }), { maxKeys: 4 }),
    delegation: fc.option(fc.array(fc.domain(), { maxLength: 4 })),
    zone: fc.constantFrom("value", "nodata", "nxdomain", "failed"),
    unasked: fc.nat(5)
  })
  .map(({ hosts, delegation, zone, unasked }) => {
    const base = input(hosts)
    return {
      ...base,
      unasked,
      delegation: delegation === null ? { failed: "timeout" } : { value: delegation },
      zone:
        zone === "value"
          ? base.zone
          : zone === "failed"
            ? { failed: "servfail" }
            : { absent: zone as "nodata" | "nxdomain" }
    }
  })

describe("analyse (property)", () => {
  it("is total, and its result is a NameServersReport", () => {
    const valid = Schema.is(NameServersReport)
    fc.assert(
      fc.property(arbInput, (i) => {
        const r = analyse(i, NOW)
        expect(valid(r)).toBe(true)
        // a timeout never makes an address lame
        for (const s of r.servers)
          for (const x of s.results) if (x.authoritative === false) expect(x.status).toBe("fail")
      }),
      { numRuns: runs(200) }
    )
  })
})
