/**
 * The world tests itself, independent of the service: for each scenario, what it claims is
 * observably true on the wire (docs/world.md). Needs the world up (vitest globalSetup starts it).
 */
import { execFile } from "node:child_process"
import { X509Certificate, createHash, createPublicKey } from "node:crypto"
import dgram from "node:dgram"
import { readFileSync } from "node:fs"
import https from "node:https"
import http from "node:http"
import net from "node:net"
import { promisify } from "node:util"
import * as packet from "dns-packet"
import { beforeAll, describe, expect, it } from "vitest"
import { worldEnv } from "./env.ts"

interface MxInfo {
  host: string
  addr: string
  tls: string
  ptr: string
  listed: boolean
  tlsa: string | null
  server: string
  cert: string
}
interface ScenarioInfo {
  domain: string
  web: { addr: string; https: boolean; server: string } | null
  mx: Array<MxInfo>
}
interface Manifest {
  ca: string
  scenarios: Array<ScenarioInfo>
}

let env: Record<string, string> = {}
let manifest: Manifest = { ca: "", scenarios: [] }
let resolver = ""
beforeAll(() => {
  env = worldEnv()
  manifest = JSON.parse(readFileSync(env.WORLD_MANIFEST ?? "", "utf8")) as Manifest
  resolver = env.DNS_RESOLVERS ?? ""
})

const scenario = (domain: string): ScenarioInfo => {
  const found = manifest.scenarios.find((s) => s.domain === domain)
  if (!found) throw new Error(`scenario ${domain} missing from the manifest`)
  return found
}
const mx0 = (domain: string): MxInfo => {
  const m = scenario(domain).mx[0]
  if (!m) throw new Error(`${domain} has no MX`)
  return m
}

// ---- a tiny DNS client (UDP, EDNS0 with DO; CD on request) ---------------------------------
interface Reply {
  rcode: string
  ad: boolean
  answers: Array<packet.Answer>
}
const AD = 1 << 5
const CD = 1 << 4

const ask = (server: string, name: string, type: packet.RecordType, opts: { cd?: boolean } = {}) =>
  new Promise<Reply>((resolve, reject) => {
    const sock = dgram.createSocket("udp4")
    const timer = setTimeout(() => {
      sock.close()
      reject(new Error(`no answer from ${server} for ${name} ${type}`))
    }, 5000)
    sock.on("message", (msg) => {
      clearTimeout(timer)
      sock.close()
      const p = packet.decode(msg)
      resolve({
        rcode: (p as { rcode?: string }).rcode ?? "",
        ad: ((p.flags ?? 0) & AD) !== 0,
        answers: p.answers ?? []
      })
    })
    const query: packet.Packet = {
      type: "query",
      id: Math.floor(Math.random() * 65535),
      flags: packet.RECURSION_DESIRED | (opts.cd ? CD : 0),
      questions: [{ type, name, class: "IN" }],
      additionals: [
        { type: "OPT", name: ".", udpPayloadSize: 4096, flags: packet.DNSSEC_OK } as unknown as packet.Answer
      ]
    }
    sock.send(packet.encode(query), 53, server)
  })

const dataOf = (r: Reply, type: string) =>
  r.answers.filter((a) => a.type === type).map((a) => (a as { data: unknown }).data)
const txt = (r: Reply) => dataOf(r, "TXT").map((d) => (d as Array<Buffer>).map((b) => b.toString()).join(""))
const reverse = (ip: string) => `${ip.split(".").reverse().join(".")}.in-addr.arpa`

describe("DNS and DNSSEC", () => {
  it("perfect.com validates: AD set, ECDSA P-256, NSEC3 with 0 iterations and no salt", async () => {
    const a = await ask(resolver, "perfect.com", "A")
    expect(a.rcode).toBe("NOERROR")
    expect(a.ad).toBe(true)
    expect(dataOf(a, "A")).toEqual([scenario("perfect.com").web?.addr])
    expect(dataOf(await ask(resolver, "perfect.com", "AAAA"), "AAAA")).toEqual(["::1"])
    const keys = dataOf(await ask(resolver, "perfect.com", "DNSKEY"), "DNSKEY") as Array<{
      algorithm: number
    }>
    expect(keys.length).toBeGreaterThanOrEqual(2)
    expect(keys.every((k) => k.algorithm === 13)).toBe(true)
    const param = await ask(env.WORLD_AUTH_DNS ?? "", "perfect.com", "NSEC3PARAM")
    const raw = param.answers.find((x) => x.type === "NSEC3PARAM") as unknown as { data: Buffer } | undefined
    // NSEC3PARAM rdata: hash alg, flags, iterations (2 octets), salt length (RFC 5155 4.2).
    expect(raw?.data.readUInt16BE(2)).toBe(0)
    expect(raw?.data[4]).toBe(0)
    const caa = await ask(resolver, "perfect.com", "CAA")
    expect(caa.answers.some((x) => x.type === "CAA")).toBe(true)
  })

  it("the chain of trust is real: DS for perfect.com in com, DS for com in the root", async () => {
    const ds = await ask(resolver, "perfect.com", "DS")
    expect(ds.ad).toBe(true)
    expect(dataOf(ds, "DS").length).toBeGreaterThan(0)
    const comDs = await ask(resolver, "com", "DS")
    expect(comDs.ad).toBe(true)
  })

  it("unsigned.net resolves without AD", async () => {
    const r = await ask(resolver, "unsigned.net", "A")
    expect(r.rcode).toBe("NOERROR")
    expect(r.ad).toBe(false)
    expect(dataOf(await ask(resolver, "unsigned.net", "DS"), "DS")).toEqual([])
  })

  it("bogus-ds.org: SERVFAIL, but the data is there with checking disabled", async () => {
    expect((await ask(resolver, "bogus-ds.org", "A")).rcode).toBe("SERVFAIL")
    const cd = await ask(resolver, "bogus-ds.org", "A", { cd: true })
    expect(cd.rcode).toBe("NOERROR")
    expect(dataOf(cd, "A")).toEqual(["127.88.0.10"])
  })

  it("expired-sig.com: SERVFAIL; its RRSIGs expired in the past", async () => {
    expect((await ask(resolver, "expired-sig.com", "A")).rcode).toBe("SERVFAIL")
    const cd = await ask(resolver, "expired-sig.com", "A", { cd: true })
    const sigs = dataOf(cd, "RRSIG") as Array<{ expiration: number }>
    expect(sigs.length).toBeGreaterThan(0)
    for (const s of sigs) expect(s.expiration * 1000).toBeLessThan(Date.now())
  })

  it("rsasha1.net is signed with algorithm 5", async () => {
    const keys = dataOf(await ask(resolver, "rsasha1.net", "DNSKEY"), "DNSKEY") as Array<{
      algorithm: number
    }>
    expect(keys.map((k) => k.algorithm)).toContain(5)
  })

  it("nsec3-legacy.org uses NSEC3 with extra iterations and a salt", async () => {
    const param = await ask(env.WORLD_AUTH_DNS ?? "", "nsec3-legacy.org", "NSEC3PARAM")
    const raw = param.answers.find((x) => x.type === "NSEC3PARAM") as unknown as { data: Buffer } | undefined
    expect(raw?.data.readUInt16BE(2)).toBeGreaterThan(0)
    expect(raw?.data[4]).toBeGreaterThan(0)
    expect((await ask(resolver, "nsec3-legacy.org", "A")).ad).toBe(true)
  })

  it("cname-chain.com: www is a chain of three CNAMEs to an A record", async () => {
    const r = await ask(resolver, "www.cname-chain.com", "A")
    expect(dataOf(r, "CNAME")).toHaveLength(3)
    expect(dataOf(r, "A")).toEqual(["127.88.0.14"])
  })

  it("the IDN bücher.de is served as xn--bcher-kva.de, signed", async () => {
    const r = await ask(resolver, "xn--bcher-kva.de", "A")
    expect(r.rcode).toBe("NOERROR")
    expect(r.ad).toBe(true)
  })
})

describe("records of the email scenarios", () => {
  it("SPF, DMARC, DKIM and null-MX records are as described", async () => {
    const spf = async (d: string) => txt(await ask(resolver, d, "TXT")).filter((t) => t.startsWith("v=spf1"))
    expect(await spf("spf-multiple.org")).toHaveLength(2)
    expect((await spf("spf-softfail.com"))[0]).toMatch(/~all$/)
    expect((await spf("spf-passall.com"))[0]).toMatch(/\+all$/)
    expect((await spf("perfect.com"))[0]).toMatch(/-all$/)
    expect(txt(await ask(resolver, "_dmarc.dmarc-none.com", "TXT"))).toEqual(["v=DMARC1; p=none"])
    expect((await ask(resolver, "_dmarc.sub.dmarc-org.com", "TXT")).rcode).toBe("NXDOMAIN")
    expect(txt(await ask(resolver, "_dmarc.dmarc-org.com", "TXT"))[0]).toMatch(/^v=DMARC1; p=quarantine/)
    expect(txt(await ask(resolver, "old._domainkey.dkim-revoked.com", "TXT"))).toEqual(["v=DKIM1; k=rsa; p="])
    const ed = txt(await ask(resolver, "ed25519._domainkey.perfect.com", "TXT"))[0] ?? ""
    expect(Buffer.from(ed.split("p=")[1] ?? "", "base64")).toHaveLength(32)
    expect(dataOf(await ask(resolver, "nomail.org", "MX"), "MX")).toEqual([{ preference: 0, exchange: "." }])
    expect(dataOf(await ask(resolver, "nomx.net", "MX"), "MX")).toEqual([])
    for (const void_ of ["nothing1", "nothing2", "nothing3"])
      expect((await ask(resolver, `${void_}.spf-void.com`, "A")).rcode).toBe("NXDOMAIN")
    expect(
      txt(await ask(resolver, "dmarc-external-rua.org._report._dmarc.dmarc-collector.net", "TXT"))
    ).toEqual([])
  })

  it("the weak DKIM key is RSA-1024 and the strong one RSA-2048", async () => {
    const bits = async (name: string) => {
      const p = (txt(await ask(resolver, name, "TXT"))[0] ?? "").split("p=")[1] ?? ""
      return createPublicKey({ key: Buffer.from(p, "base64"), format: "der", type: "spki" })
        .asymmetricKeyDetails?.modulusLength
    }
    expect(await bits("weak._domainkey.dkim-weak.com")).toBe(1024)
    expect(await bits("rsa2048._domainkey.perfect.com")).toBe(2048)
  })
})

describe("reverse DNS and blocklists", () => {
  it("PTR: perfect.com's MX has FCrDNS, mx-noptr has none, mx-ptrmismatch points elsewhere", async () => {
    const ptr = async (ip: string) => dataOf(await ask(resolver, reverse(ip), "PTR"), "PTR")
    expect(await ptr(mx0("perfect.com").addr)).toEqual(["mx.perfect.com"])
    expect(dataOf(await ask(resolver, "mx.perfect.com", "A"), "A")).toEqual([mx0("perfect.com").addr])
    expect((await ask(resolver, reverse(mx0("mx-noptr.com").addr), "PTR")).rcode).toBe("NXDOMAIN")
    const [name] = await ptr(mx0("mx-ptrmismatch.com").addr)
    expect(name).toBe("host-unrelated.isp-generic.net")
    const back = dataOf(await ask(resolver, String(name), "A"), "A")
    expect(back).not.toContain(mx0("mx-ptrmismatch.com").addr)
  })

  it("mx-listed.com's MX address is on all three blocklists with real return codes; others are not", async () => {
    const listed = mx0("mx-listed.com").addr.split(".").reverse().join(".")
    const clean = mx0("perfect.com").addr.split(".").reverse().join(".")
    const zones = (env.DNSBL_ZONES ?? "").split(",")
    expect(zones).toHaveLength(3)
    for (const zone of zones) {
      const hit = await ask(resolver, `${listed}.${zone}`, "A")
      expect(dataOf(hit, "A")).toContain("127.0.0.2")
      expect(txt(await ask(resolver, `${listed}.${zone}`, "TXT")).length).toBe(1)
      expect(dataOf(await ask(resolver, `2.0.0.127.${zone}`, "A"), "A")).toContain("127.0.0.2")
      expect((await ask(resolver, `${clean}.${zone}`, "A")).rcode).toBe("NXDOMAIN")
    }
    expect(dataOf(await ask(resolver, `${listed}.zen.spamhaus.org`, "A"), "A")).toContain("127.0.0.4")
  })
})

describe("propagation", () => {
  it("four resolvers see the current propagation-lag.com, the lagging one the previous version", async () => {
    const entries = (env.PROPAGATION_RESOLVERS ?? "").split(",").map((e) => e.split("|")[0] ?? "")
    expect(entries.length).toBeGreaterThanOrEqual(5)
    const lagging = env.WORLD_LAGGING_RESOLVER ?? ""
    expect(entries).toContain(lagging)
    for (const addr of entries) {
      const a = dataOf(await ask(addr, "propagation-lag.com", "A"), "A")
      expect(a).toEqual([addr === lagging ? "127.88.1.1" : "127.88.1.2"])
      expect((await ask(addr, "perfect.com", "A")).ad).toBe(true)
    }
  })
})
