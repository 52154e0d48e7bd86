/**
 * The world tests itself, independent of the service: for each scenario, what it claims is
 * observably true on the wire (docs/world.md). Needs the world up (vitest globalSetup starts it).
 */
import { spawn } from "node:child_process"
import { X509Certificate, createHash, createPublicKey, sign, verify } from "node:crypto"
import dgram from "node:dgram"
import { readFileSync } from "node:fs"
import https from "node:https"
import http from "node:http"
import net from "node:net"
import { domainToASCII, fileURLToPath } from "node:url"
import * as packet from "dns-packet"
import * as fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { CspEvaluator } from "csp_evaluator/dist/evaluator.js"
import { CspParser } from "csp_evaluator/dist/parser.js"
import { Effect } from "effect"
import { settings } from "../../src/Config.ts"
import { WorldConfig, worldEnv } from "./env.ts"

interface MxInfo {
  host: string
  /** No MX record names this host: it is the domain itself (RFC 5321 5.1). */
  implicit: boolean
  addr: string
  aaaa: string | null
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
  dkim: Array<{ selector: string; key: string; privateKey: string | null }>
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
    expect(txt(await ask(resolver, "selector2._domainkey.dkim-revoked.com", "TXT"))).toEqual([
      "v=DKIM1; k=rsa; p="
    ])
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

  it("SPF lookup counts: spf-toomany.com needs 12, spf-flatten.com 6, perfect.com 1; spf-loop.net loops", async () => {
    // Terms that cost a DNS lookup (RFC 7208 4.6.4), following include/redirect.
    const count = async (domain: string, seen: Array<string> = []): Promise<number | "loop"> => {
      if (seen.includes(domain)) return "loop"
      const record = txt(await ask(resolver, domain, "TXT")).find((t) => t.startsWith("v=spf1 "))
      let n = 0
      for (const term of (record ?? "").split(" ").slice(1)) {
        const m = /^[+~?-]?(include:|redirect=|a(?=$|[:/])|mx(?=$|[:/])|ptr(?=$|:)|exists:)(.*)$/.exec(term)
        if (!m) continue
        n++
        if (m[1] === "include:" || m[1] === "redirect=") {
          const inner = await count(m[2] ?? "", [...seen, domain])
          if (inner === "loop") return "loop"
          n += inner
        }
      }
      return n
    }
    expect(await count("spf-toomany.com")).toBe(12)
    expect(await count("spf-flatten.com")).toBe(6)
    expect(await count("perfect.com")).toBe(1)
    expect(await count("spf-loop.net")).toBe("loop")
  })

  it("the weak DKIM key is RSA-1024 and the strong one RSA-2048", async () => {
    const bits = async (name: string) => {
      const p = (txt(await ask(resolver, name, "TXT"))[0] ?? "").split("p=")[1] ?? ""
      return createPublicKey({ key: Buffer.from(p, "base64"), format: "der", type: "spki" })
        .asymmetricKeyDetails?.modulusLength
    }
    expect(await bits("s1024._domainkey.dkim-weak.com")).toBe(1024)
    expect(await bits("selector1._domainkey.perfect.com")).toBe(2048)
  })
})

describe("DKIM keys for signing test mail", () => {
  it("each private key in the manifest matches the public key published in DNS", async () => {
    const keys = scenario("perfect.com").dkim
    expect(keys.map((k) => k.key).sort()).toEqual(["ed25519", "rsa2048"])
    for (const k of keys) {
      const record = txt(await ask(resolver, `${k.selector}._domainkey.perfect.com`, "TXT"))[0] ?? ""
      const p = Buffer.from(record.split("p=")[1] ?? "", "base64")
      // Ed25519 records carry the raw key (RFC 8463 4.2): wrap it in its SubjectPublicKeyInfo.
      const spkiDer =
        k.key === "ed25519" ? Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), p]) : p
      const pub = createPublicKey({ key: spkiDer, format: "der", type: "spki" })
      const message = Buffer.from("world")
      const algorithm = k.key === "ed25519" ? null : "sha256"
      const signature = sign(algorithm, message, readFileSync(k.privateKey ?? ""))
      expect(verify(algorithm, message, pub, signature)).toBe(true)
    }
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
      const soa = dataOf(await ask(addr, "propagation-lag.com", "SOA"), "SOA") as Array<{ serial: number }>
      expect(soa[0]?.serial).toBe(addr === lagging ? 2025120100 : 2026010100)
    }
  })
})

// ---- mail transport --------------------------------------------------------------------------
/** The certificate an MX presents after STARTTLS (openssl s_client, as an operator would check). */
const starttlsCert = async (m: MxInfo) => {
  const stdout = await new Promise<string>((resolve) => {
    const args = ["s_client", "-starttls", "smtp", "-connect", `${m.addr}:25`, "-servername", m.host]
    // stdin closed at once: s_client prints the handshake and quits.
    const child = spawn("openssl", args, { stdio: ["ignore", "pipe", "ignore"], timeout: 10_000 })
    let out = ""
    child.stdout.on("data", (d: Buffer) => (out += d.toString()))
    child.on("close", () => resolve(out))
  })
  const pem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(stdout)?.[0]
  if (!pem) throw new Error(`no certificate from ${m.host} (${m.addr})`)
  return new X509Certificate(pem)
}

/**
 * The EHLO reply after STARTTLS (RFC 3207 4.2): openssl s_client says EHLO and STARTTLS itself,
 * then sends ours over TLS; QUIT ends the session (-ign_eof: stdin's end does not).
 */
const ehloAfterStarttls = (m: MxInfo) =>
  new Promise<string>((resolve) => {
    const args = ["s_client", "-starttls", "smtp", "-connect", `${m.addr}:25`, "-crlf", "-ign_eof", "-quiet"]
    const child = spawn("openssl", args, { stdio: ["pipe", "pipe", "ignore"], timeout: 10_000 })
    let out = ""
    child.stdout.on("data", (d: Buffer) => (out += d.toString()))
    child.on("close", () => resolve(out))
    child.stdin.end("EHLO world-test.invalid\nQUIT\n")
  })

/** Read the SMTP banner and EHLO reply (RFC 5321 4.2). */
const ehlo = (addr: string, waitMs = 5000) =>
  new Promise<string>((resolve) => {
    const sock = net.connect({ host: addr, port: 25 })
    let text = ""
    let sent = false
    const done = () => (sock.destroy(), resolve(text))
    const timer = setTimeout(done, waitMs)
    sock.on("data", (d) => {
      text += d.toString()
      if (!sent && /^220 /m.test(text)) {
        sent = true
        sock.write("EHLO world-test.invalid\r\n")
      } else if (sent && /^250 /m.test(text)) {
        sock.write("QUIT\r\n")
        clearTimeout(timer)
        done()
      }
    })
    sock.on("error", () => (clearTimeout(timer), done()))
  })

const spki = (cert: X509Certificate) =>
  createHash("sha256")
    .update(cert.publicKey.export({ type: "spki", format: "der" }))
    .digest("hex")

const tlsa = async (host: string) => {
  const r = await ask(resolver, `_25._tcp.${host}`, "TLSA")
  const records = dataOf(r, "TLSA") as Array<{
    usage: number
    selector: number
    matchingType: number
    certificate: Buffer
  }>
  return { ad: r.ad, records: records.map((t) => ({ ...t, hex: t.certificate.toString("hex") })) }
}

describe("mail transport", () => {
  const ca = () => new X509Certificate(readFileSync(manifest.ca))

  it("perfect.com: Postfix offers STARTTLS with a CA-issued certificate for its name and a matching, signed TLSA 3 1 1", async () => {
    const m = mx0("perfect.com")
    const reply = await ehlo(m.addr)
    expect(reply).toMatch(/^220 mx\.perfect\.com ESMTP/m)
    expect(reply).toMatch(/^250[- ]STARTTLS/m)
    const cert = await starttlsCert(m)
    expect(cert.verify(ca().publicKey)).toBe(true)
    expect(cert.checkHost("mx.perfect.com")).toBe("mx.perfect.com")
    expect(new Date(cert.validTo).getTime()).toBeGreaterThan(Date.now())
    const t = await tlsa("mx.perfect.com")
    expect(t.ad).toBe(true)
    expect(t.records).toEqual([
      expect.objectContaining({ usage: 3, selector: 1, matchingType: 1, hex: spki(cert) })
    ])
  })

  it("perfect.com's MX is reachable over IPv6 too (::1), with FCrDNS and the same certificate", async () => {
    const m = mx0("perfect.com")
    expect(dataOf(await ask(resolver, "mx.perfect.com", "AAAA"), "AAAA")).toEqual(["::1"])
    const ptr = await ask(resolver, `1.${"0.".repeat(31)}ip6.arpa`, "PTR")
    expect(dataOf(ptr, "PTR")).toEqual(["mx.perfect.com"])
    const v6 = await starttlsCert({ ...m, addr: "[::1]" })
    expect(spki(v6)).toBe(spki(await starttlsCert(m)))
    expect(dataOf(await ask(resolver, "ns1.dns-host.net", "AAAA"), "AAAA")).toEqual(["::1"])
  })

  it("implicit-mx.com: no MX record; its own A record leads to Postfix with a certificate for the domain, a signed TLSA at _25._tcp.implicit-mx.com and FCrDNS", async () => {
    const m = mx0("implicit-mx.com")
    expect(m.implicit).toBe(true)
    const answer = await ask(resolver, "implicit-mx.com", "MX")
    expect(answer.rcode).toBe("NOERROR")
    expect(dataOf(answer, "MX")).toEqual([])
    expect(dataOf(await ask(resolver, "implicit-mx.com", "A"), "A")).toEqual([m.addr])
    expect(dataOf(await ask(resolver, "alias.implicit-mx.com", "CNAME"), "CNAME")).toEqual([
      "implicit-mx.com"
    ])
    expect(dataOf(await ask(resolver, reverse(m.addr), "PTR"), "PTR")).toEqual(["implicit-mx.com"])
    expect(await ehlo(m.addr)).toMatch(/^220 implicit-mx\.com ESMTP/m)
    const cert = await starttlsCert(m)
    expect(cert.verify(ca().publicKey)).toBe(true)
    expect(cert.checkHost("implicit-mx.com")).toBe("implicit-mx.com")
    const t = await tlsa("implicit-mx.com")
    expect(t.ad).toBe(true)
    expect(t.records[0]?.hex).toBe(spki(cert))
  })

  it("mx-nostarttls.com: no STARTTLS in the EHLO reply", async () => {
    const reply = await ehlo(mx0("mx-nostarttls.com").addr)
    expect(reply).toMatch(/^250 /m)
    expect(reply).not.toMatch(/STARTTLS/)
  })

  it("mx-expired.com: the certificate expired", async () => {
    const cert = await starttlsCert(mx0("mx-expired.com"))
    expect(cert.verify(ca().publicKey)).toBe(true)
    expect(new Date(cert.validTo).getTime()).toBeLessThan(Date.now())
  })

  it("mx-selfsigned.com: the certificate is self-signed", async () => {
    const cert = await starttlsCert(mx0("mx-selfsigned.com"))
    expect(cert.issuer).toBe(cert.subject)
    expect(cert.verify(cert.publicKey)).toBe(true)
    expect(cert.verify(ca().publicKey)).toBe(false)
  })

  it("mx-wrongname.com: CA-issued, but not for the MX name", async () => {
    const cert = await starttlsCert(mx0("mx-wrongname.com"))
    expect(cert.verify(ca().publicKey)).toBe(true)
    expect(cert.checkHost("mx.mx-wrongname.com")).toBeUndefined()
  })

  it("dane-mismatch.com: signed TLSA that does not match the certificate", async () => {
    const cert = await starttlsCert(mx0("dane-mismatch.com"))
    const t = await tlsa("mx.dane-mismatch.com")
    expect(t.ad).toBe(true)
    expect(t.records.length).toBe(1)
    expect(t.records[0]?.hex).not.toBe(spki(cert))
  })

  it("dane-unsigned.com: matching TLSA, but unsigned (no AD)", async () => {
    const cert = await starttlsCert(mx0("dane-unsigned.com"))
    const t = await tlsa("mx.dane-unsigned.com")
    expect(t.ad).toBe(false)
    expect(t.records[0]?.hex).toBe(spki(cert))
  })

  it("mx-slow.com: accepts the connection, but no banner comes", async () => {
    const m = mx0("mx-slow.com")
    expect(m.server).toBe("slow")
    expect(await ehlo(m.addr, 2000)).toBe("")
  })

  it("every other Postfix MX greets with its own name", async () => {
    for (const s of manifest.scenarios) {
      for (const m of s.mx.filter((x) => x.server === "postfix")) {
        expect(await ehlo(m.addr)).toMatch(new RegExp(`^220 ${m.host.replace(/\./g, "\\.")} `, "m"))
      }
    }
  })

  // esmtp.mjs (docs/world.md, "An MX that advertises REQUIRETLS"): RFC 8689 section 4.
  it("every requiretls MX greets with its name and offers REQUIRETLS only after STARTTLS", async () => {
    for (const s of manifest.scenarios) {
      for (const m of s.mx.filter((x) => x.server === "esmtp")) {
        const plain = await ehlo(m.addr)
        expect(plain).toMatch(new RegExp(`^220 ${m.host.replace(/\./g, "\\.")} ESMTP`, "m"))
        expect(plain).not.toMatch(/REQUIRETLS/)
        if (m.tls === "none") continue
        expect(plain).toMatch(/^250 STARTTLS\r?$/m)
        const secure = await ehloAfterStarttls(m)
        expect(secure).toMatch(/^250 REQUIRETLS\r?$/m)
        expect(secure).not.toMatch(/STARTTLS/)
      }
    }
  })
})

// ---- web -------------------------------------------------------------------------------------
interface WebReply {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

/** GET over HTTPS (trusting only the world CA) or HTTP, connecting to the scenario's web address. */
const get = (
  domain: string,
  path: string,
  opts: { http?: boolean; host?: string; timeoutMs?: number } = {}
) =>
  new Promise<WebReply>((resolve, reject) => {
    const web = scenario(domain).web
    if (!web) return reject(new Error(`${domain} has no web host`))
    const host = opts.host ?? domain
    const options = { host: web.addr, path, headers: { host }, timeout: opts.timeoutMs ?? 5000 }
    const onResponse = (res: http.IncomingMessage) => {
      let body = ""
      res.on("data", (d: Buffer) => (body += d.toString()))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    }
    const req = opts.http
      ? http.get({ ...options, port: 80 }, onResponse)
      : https.get({ ...options, port: 443, servername: host, ca: readFileSync(manifest.ca) }, onResponse)
    req.on("timeout", () => req.destroy(new Error("timeout")))
    req.on("error", reject)
  })

const SIX = [
  "strict-transport-security",
  "content-security-policy",
  "x-frame-options",
  "x-content-type-options",
  "referrer-policy",
  "permissions-policy"
]

describe("web", () => {
  it("perfect.com sends all six security headers and a strict CSP; HTTP redirects to HTTPS", async () => {
    const r = await get("perfect.com", "/")
    expect(r.status).toBe(200)
    for (const h of SIX) expect(r.headers[h]).toBeDefined()
    const csp = String(r.headers["content-security-policy"])
    expect(csp).toContain("default-src 'none'")
    expect(new CspEvaluator(new CspParser(csp).csp).evaluate()).toEqual([])
    expect(r.body).not.toMatch(/<script>|onclick=|style="/)
    const plain = await get("perfect.com", "/", { http: true })
    expect(plain.status).toBe(301)
    expect(plain.headers.location).toBe("https://perfect.com/")
  })

  it("perfect.com: MTA-STS enforce covering the MX, BIMI logo in SVG Tiny PS", async () => {
    const policy = await get("perfect.com", "/.well-known/mta-sts.txt", { host: "mta-sts.perfect.com" })
    expect(policy.headers["content-type"]).toMatch(/^text\/plain/)
    expect(policy.body).toMatch(
      /^version: STSv1\r\nmode: enforce\r\nmx: mx\.perfect\.com\r\nmax_age: \d+\r\n$/
    )
    expect(txt(await ask(resolver, "_mta-sts.perfect.com", "TXT"))[0]).toMatch(/^v=STSv1; id=/)
    expect(txt(await ask(resolver, "_smtp._tls.perfect.com", "TXT"))[0]).toMatch(/^v=TLSRPTv1; rua=mailto:/)
    const logo = await get("perfect.com", "/bimi/logo.svg")
    expect(logo.headers["content-type"]).toBe("image/svg+xml")
    expect(logo.body).toContain('baseProfile="tiny-ps"')
    expect(logo.body).toContain("<title>")
  })

  it("perfect.com: the BIMI a= URL serves a VMC (BIMI EKU, logotype extension) issued by the world CA", async () => {
    expect(txt(await ask(resolver, "default._bimi.perfect.com", "TXT"))[0]).toContain(
      "a=https://perfect.com/bimi/vmc.pem"
    )
    const r = await get("perfect.com", "/bimi/vmc.pem")
    const pems = r.body.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
    expect(pems.length).toBe(2)
    const vmc = new X509Certificate(pems[0] ?? "")
    expect(vmc.verify(new X509Certificate(readFileSync(manifest.ca)).publicKey)).toBe(true)
    expect(vmc.checkHost("perfect.com")).toBe("perfect.com")
    // OIDs as DER: id-kp-BrandIndicatorforMessageIdentification 1.3.6.1.5.5.7.3.31, id-pe-logotype 1.3.6.1.5.5.7.1.12
    expect(vmc.raw.includes(Buffer.from("06082b0601050507031f", "hex"))).toBe(true)
    expect(vmc.raw.includes(Buffer.from("06082b0601050507010c", "hex"))).toBe(true)
  })

  it("MTA-STS variants: mismatch, no policy, testing", async () => {
    const mismatch = await get("mtasts-mismatch.com", "/.well-known/mta-sts.txt", {
      host: "mta-sts.mtasts-mismatch.com"
    })
    expect(mismatch.body).toContain("mode: enforce")
    expect(mismatch.body).not.toContain("mx.mtasts-mismatch.com")
    const none = await get("mtasts-nopolicy.com", "/.well-known/mta-sts.txt", {
      host: "mta-sts.mtasts-nopolicy.com"
    })
    expect(none.status).toBe(404)
    expect(txt(await ask(resolver, "_mta-sts.mtasts-nopolicy.com", "TXT"))).toHaveLength(1)
    const testing = await get("mtasts-testing.com", "/.well-known/mta-sts.txt", {
      host: "mta-sts.mtasts-testing.com"
    })
    expect(testing.body).toContain("mode: testing")
  })

  it("BIMI variants: a logo that is not SVG Tiny PS, and a logo URL that is 404", async () => {
    const bad = await get("bimi-badsvg.com", "/logo.svg")
    expect(bad.status).toBe(200)
    expect(bad.body).not.toContain("tiny-ps")
    expect(bad.body).toContain("<script>")
    expect((await get("bimi-nologo.com", "/missing-logo.svg")).status).toBe(404)
  })

  it("web-noheaders.com sends none of the six headers", async () => {
    const r = await get("web-noheaders.com", "/")
    expect(r.status).toBe(200)
    for (const h of SIX) expect(r.headers[h]).toBeUndefined()
  })

  it("web-httponly.com answers on HTTP and has no HTTPS at all", async () => {
    const r = await get("web-httponly.com", "/", { http: true })
    expect(r.status).toBe(200)
    await expect(get("web-httponly.com", "/")).rejects.toThrow(/ECONNREFUSED/)
  })

  it("web-slow.com: TLS connects, but the response headers do not come in time", async () => {
    await expect(get("web-slow.com", "/", { timeoutMs: 2000 })).rejects.toThrow(/timeout|socket hang up/)
  })

  it("csp-weak.com: unsafe-inline and a wildcard; over 20 pages with inline code and third-party origins", async () => {
    const r = await get("csp-weak.com", "/")
    const csp = String(r.headers["content-security-policy"])
    expect(csp).toContain("'unsafe-inline'")
    expect(csp).toMatch(/ \*( |;|$)/)
    expect(new CspEvaluator(new CspParser(csp).csp).evaluate().length).toBeGreaterThan(0)
    const pages = [...r.body.matchAll(/href="(\/page-\d+\.html)"/g)].map((m) => m[1] ?? "")
    expect(pages.length).toBeGreaterThan(20)
    const page = await get("csp-weak.com", pages[pages.length - 1] ?? "/")
    expect(page.status).toBe(200)
    expect(page.body).toMatch(/<script>[^<]+<\/script>/)
    expect(page.body).toMatch(/<style>/)
    expect(page.body).toMatch(/ onclick="/)
    expect(page.body).toMatch(/<script src="https:\/\/[^"]+"/)
    expect(page.body).toMatch(/<link rel="stylesheet" href="https:\/\/[^"]+"/)
  })

  it("csp-meta.com: CSP only in a meta tag; csp-reportonly.com: only the report-only header", async () => {
    const meta = await get("csp-meta.com", "/")
    expect(meta.headers["content-security-policy"]).toBeUndefined()
    expect(meta.body).toMatch(/<meta http-equiv="Content-Security-Policy" content="[^"]+">/)
    const ro = await get("csp-reportonly.com", "/")
    expect(ro.headers["content-security-policy"]).toBeUndefined()
    expect(ro.headers["content-security-policy-report-only"]).toBeDefined()
  })

  it("every HTTPS host presents a certificate from the world CA for its name", async () => {
    for (const s of manifest.scenarios.filter((x) => x.web?.https && x.web.server === "nginx")) {
      const r = await get(s.domain, "/")
      expect(r.status).toBeLessThan(500)
    }
  })
})

describe("world.env", () => {
  it("parses with src/Config.ts through WorldConfig", async () => {
    const s = await Effect.runPromise(settings.pipe(Effect.provide(WorldConfig)))
    expect(s.dnsResolvers).toEqual([{ address: "127.53.1.1", port: 53 }])
    expect(s.propagationResolvers.length).toBeGreaterThanOrEqual(5)
    expect(s.propagationResolvers.map((r) => r.country)).toContain("AU")
    expect(s.dnsblZones.map((z) => z.zone)).toEqual([
      "zen.spamhaus.org",
      "bl.spamcop.net",
      "b.barracudacentral.org"
    ])
    expect(s.allowTargets).toEqual(["127.0.0.0/8", "::1/128"])
    expect(s.smtpPort).toBe(25)
    expect(readFileSync(s.extraCaFile, "utf8")).toContain("BEGIN CERTIFICATE")
  })
})

// ---- the generator's pure parts (scenario list, synthetic domains, address plan) --------------
interface Planned {
  domain: string
  tld: string
  mx: Array<{ addr: string; host: string }>
  web?: { addr: string }
}
interface Model {
  loadScenarioFile: (path: string) => Array<{ domain: string; about?: string }>
  synthetic: (n: number, scenarios: Array<unknown>) => Array<{ domain: string }>
  plan: (scenarios: Array<unknown>) => Array<Planned>
  BASE_TLDS: Array<string>
}
const modelPath = fileURLToPath(new URL("../../scripts/world/lib/model.mjs", import.meta.url))
const scenariosPath = fileURLToPath(new URL("../../scripts/world/scenarios.json", import.meta.url))

describe("scenario model", () => {
  it("every issue scenario is in scenarios.json, described", async () => {
    const model = (await import(modelPath)) as Model
    const list = model.loadScenarioFile(scenariosPath)
    const names = list.map((s) => s.domain)
    for (const required of [
      "perfect.com",
      "unsigned.net",
      "bogus-ds.org",
      "expired-sig.com",
      "rsasha1.net",
      "nsec3-legacy.org",
      "cname-chain.com",
      "spf-toomany.com",
      "spf-void.com",
      "spf-loop.net",
      "spf-multiple.org",
      "spf-softfail.com",
      "spf-passall.com",
      "spf-flatten.com",
      "dmarc-none.com",
      "dmarc-invalid.net",
      "dmarc-external-rua.org",
      "dmarc-org.com",
      "dmarc-space.com",
      "bimi-decline.com",
      "dkim-weak.com",
      "dkim-revoked.com",
      "bimi-badsvg.com",
      "bimi-nologo.com",
      "mtasts-mismatch.com",
      "mtasts-nopolicy.com",
      "mtasts-testing.com",
      "nomail.org",
      "nomx.net",
      "mx-nostarttls.com",
      "mx-expired.com",
      "mx-selfsigned.com",
      "mx-wrongname.com",
      "mx-noptr.com",
      "mx-ptrmismatch.com",
      "mx-listed.com",
      "dane-mismatch.com",
      "dane-unsigned.com",
      "mx-slow.com",
      "web-noheaders.com",
      "web-slow.com",
      "web-httponly.com",
      "csp-weak.com",
      "csp-meta.com",
      "csp-reportonly.com",
      "propagation-lag.com",
      "implicit-mx.com"
    ])
      // prettier-ignore
      expect(names).toContain(required)
    expect(names.some((n) => n.endsWith(".de") && domainToASCII(n) !== n)).toBe(true)
    for (const s of list) expect(s.about?.length ?? 0).toBeGreaterThan(10)
  })

  it("synthetic domains are distinct, and every host gets its own loopback address (property)", async () => {
    const model = (await import(modelPath)) as Model
    const base = model.loadScenarioFile(scenariosPath)
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 800 }), async (n) => {
        const extra = model.synthetic(n, base)
        expect(extra).toHaveLength(n)
        const planned = model.plan([...base, ...extra])
        const domains = planned.map((s) => s.domain)
        expect(new Set(domains).size).toBe(domains.length)
        const addrs = planned.flatMap((s) => [...s.mx.map((m) => m.addr), ...(s.web ? [s.web.addr] : [])])
        expect(new Set(addrs).size).toBe(addrs.length)
        for (const a of addrs) {
          const octets = a.split(".").map(Number)
          expect(octets[0]).toBe(127)
          expect([25, 80]).toContain(octets[1])
          for (const o of octets) expect(o >= 0 && o <= 255).toBe(true)
          expect(octets[3]).toBeGreaterThan(0)
        }
        for (const s of planned) expect(model.BASE_TLDS).toContain(s.tld)
        // One MTA listens on [::1]:25: a second MX there would present the wrong certificate.
        const v6 = planned.flatMap((s) => s.mx).filter((m) => (m as { aaaa?: string | null }).aaaa === "::1")
        expect(v6.length).toBeLessThanOrEqual(1)
      }),
      { numRuns: 6 }
    )
  })
})
