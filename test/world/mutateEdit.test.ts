/**
 * The pure edits scripts/world/mutate makes to the files all domains share (scripts/world/lib/edit.mjs),
 * on configs the generator's own functions write: one domain's entries out and in again, every other
 * entry left as it was, in its place.
 */
import { describe, expect, it } from "vitest"
import * as fc from "fast-check"
import { fileURLToPath } from "node:url"

interface Host {
  host: string
  addr: string
  tls: string
  key: string
  cert: string
  domain: string
}
type Lines = (line: string) => boolean
const lib = (name: string) => fileURLToPath(new URL(`../../scripts/world/lib/${name}`, import.meta.url))
const load = async () => ({
  edit: (await import(lib("edit.mjs"))) as {
    replaceZoneLines: (text: string, isOld: Lines, added: Array<string>) => string
    isDsOf: (domain: string) => Lines
    replaceKnotZone: (text: string, name: string, entry: Array<string>) => string
    replaceListeners: (text: string, addrs: Array<string>, added: Array<string>) => string
    setRelayDomain: (text: string, domain: string, present: boolean) => string
    replaceServerBlocks: (text: string, addrs: Array<string>, added: Array<string>) => string
    soaSerial: (text: string) => number
  },
  mail: (await import(lib("mail.mjs"))) as {
    postfixConfig: (root: string, hosts: Array<Host>) => { main: string; master: string }
    listeners: (h: Host) => string
  },
  dns: (await import(lib("dns.mjs"))) as {
    knotConf: (dir: string, zones: Array<unknown>, listen: Array<string>, policies: boolean) => string
    knotZoneEntry: (z: { name: string; file: string; policy?: string }) => Array<string>
  }
})

const TLS = ["valid", "expired", "selfsigned", "wrongname", "none"]
/** Distinct domains, each with one MX host on its own address. */
const hostsArb = fc
  .uniqueArray(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 2, maxLength: 12 })
  .chain((names) =>
    fc.tuple(
      fc.constant(names),
      fc.array(fc.constantFrom(...TLS), { minLength: names.length, maxLength: names.length })
    )
  )
  .map(([names, tls]) =>
    names.map((n, i): Host => ({
      host: `mx.${n}.com`,
      addr: `127.25.0.${i + 1}`,
      tls: tls[i]!,
      key: `/k/${n}.key`,
      cert: `/k/${n}.pem`,
      domain: `${n}.com`
    }))
  )

describe("mutate's edits of shared files", () => {
  it("master.cf: one host's listener replaced, every other entry unchanged and in order (property)", async () => {
    const { edit, mail } = await load()
    fc.assert(
      fc.property(hostsArb, fc.nat(), fc.constantFrom(...TLS), (hosts, pick, tls) => {
        const h = hosts[pick % hosts.length]!
        const { master } = mail.postfixConfig("/w", hosts)
        const changed = edit.replaceListeners(master, [h.addr], [mail.listeners({ ...h, tls })])
        const expected = mail.postfixConfig("/w", [...hosts.filter((x) => x !== h), { ...h, tls }]).master
        expect(changed).toBe(expected)
        // Out and back in: the file as the generator writes it with the host last.
        const gone = edit.replaceListeners(master, [h.addr], [])
        expect(gone).toBe(
          mail.postfixConfig(
            "/w",
            hosts.filter((x) => x !== h)
          ).master
        )
        expect(edit.replaceListeners(gone, [h.addr], [mail.listeners(h)])).toBe(
          mail.postfixConfig("/w", [...hosts.filter((x) => x !== h), h]).master
        )
      })
    )
  })

  it("main.cf: relay_domains gains or loses the domain, the others keep their order (property)", async () => {
    const { edit, mail } = await load()
    fc.assert(
      fc.property(hostsArb, fc.nat(), (hosts, pick) => {
        const h = hosts[pick % hosts.length]!
        const { main } = mail.postfixConfig("/w", hosts)
        const without = edit.setRelayDomain(main, h.domain, false)
        expect(without).toBe(
          mail.postfixConfig(
            "/w",
            hosts.filter((x) => x !== h)
          ).main
        )
        expect(edit.setRelayDomain(main, h.domain, true)).toBe(main)
        expect(edit.setRelayDomain(without, h.domain, true)).toBe(
          mail.postfixConfig("/w", [...hosts.filter((x) => x !== h), h]).main
        )
      })
    )
  })

  it("knot.conf: one zone's entry replaced in place (signed, unsigned, absent)", async () => {
    const { edit, dns } = await load()
    const zones = ["a.com", "b.net", "c.org"].map((name) => ({ name, file: `${name}.zone`, policy: "ecdsa" }))
    const conf = dns.knotConf("/w/dns", zones, ["127.53.0.1"], true)
    const unsigned = { name: "b.net", file: "b.net.zone" }
    expect(edit.replaceKnotZone(conf, "b.net", dns.knotZoneEntry(unsigned))).toBe(
      dns.knotConf("/w/dns", [zones[0], unsigned, zones[2]], ["127.53.0.1"], true)
    )
    expect(edit.replaceKnotZone(conf, "b.net", dns.knotZoneEntry(zones[1]!))).toBe(conf)
    const d = { name: "d.io", file: "d.io.zone", policy: "rsasha1" }
    expect(edit.replaceKnotZone(conf, "d.io", dns.knotZoneEntry(d))).toBe(
      dns.knotConf("/w/dns", [...zones, d], ["127.53.0.1"], true)
    )
  })

  it("zone files: the DS of one name only, in keymgr's and ldns's formats", async () => {
    const { edit } = await load()
    const tld = [
      "$ORIGIN com.",
      "@ SOA ns1.dns-host.net. hostmaster.com. 2026010100 86400 7200 3600000 3600",
      "x.com. NS ns1.dns-host.net.",
      "x.com. DS 1 13 2 aa",
      "sub.x.com. DS 2 13 2 bb",
      "y.com. DS 3 13 2 cc",
      "x.com.\t3600\tIN\tDS\t4 13 2 dd",
      'x.com. TXT "DS"'
    ].join("\n")
    const out = edit.replaceZoneLines(tld, edit.isDsOf("X.com"), ["x.com. DS 9 8 2 ee"])
    expect(out.split("\n").filter((l) => l.includes(" DS ") || l.includes("\tDS\t"))).toEqual([
      "sub.x.com. DS 2 13 2 bb",
      "y.com. DS 3 13 2 cc",
      "x.com. DS 9 8 2 ee"
    ])
    expect(out).toContain('x.com. TXT "DS"')
    expect(edit.soaSerial(out)).toBe(2026010100)
  })

  it("nginx.conf: the server blocks on the domain's address out, the new ones in, inside http", async () => {
    const { edit } = await load()
    const block = (addr: string, name: string) =>
      `server {\n    listen ${addr}:443 ssl;\n    server_name ${name};\n    \n}`
    const conf = (blocks: Array<string>) =>
      `user root;\nhttp {\n    access_log off;\n${blocks.join("\n").replace(/^/gm, "    ")}\n}\n`
    const a = block("127.80.0.1", "a.com")
    const b = block("127.80.0.2", "b.com")
    const c = block("127.80.0.3", "c.com")
    const b2 = block("127.80.0.2", "b.com www.b.com")
    expect(edit.replaceServerBlocks(conf([a, b, c]), ["127.80.0.2"], [b2])).toBe(conf([a, c, b2]))
    expect(edit.replaceServerBlocks(conf([a, b, c]), ["127.80.0.2", "127.80.250.1"], [])).toBe(conf([a, c]))
  })
})
