/**
 * The world's REQUIRETLS MX (scripts/world/lib/esmtp.mjs, docs/world.md): which MX entries it
 * serves instead of Postfix (and that Postfix then leaves their address alone), and the server
 * itself, talked to on 127.0.0.1 under a throw-away certificate: REQUIRETLS in the EHLO reply only
 * after STARTTLS (RFC 8689 section 4), the mail dialogue, and its bounds. No world needed.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import net from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import tls from "node:tls"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makePki, type TestPki } from "../net/pki.ts"

interface Mx {
  host: string
  addr: string
  tls?: string
  server?: string
  requiretls?: boolean
  aaaa?: string
}
interface Planned {
  domain: string
  mx: Array<Mx>
}
interface EsmtpServer extends net.Server {
  destroyAll: () => void
}
interface Limits {
  idleMs?: number
  connections?: number
  errors?: number
}
const lib = (name: string) => fileURLToPath(new URL(`../../scripts/world/lib/${name}`, import.meta.url))
const load = async () => ({
  model: (await import(lib("model.mjs"))) as {
    loadScenarioFile: (path: string) => Array<unknown>
    plan: (s: Array<unknown>) => Array<Planned>
    mxComponent: (m: Partial<Mx>) => string
    mxProblem: (domain: string, m: Record<string, unknown>) => string | undefined
    manifestEntry: (s: Planned, hosts: Array<unknown>, keys: Record<string, string>) => { mx: Array<Mx> }
  },
  mail: (await import(lib("mail.mjs"))) as {
    postfixConfig: (root: string, hosts: Array<unknown>) => { main: string; master: string }
    listeners: (h: unknown) => string
    esmtpConfig: (
      hosts: Array<unknown>,
      domains: Array<string>
    ) => { domains: Array<string>; servers: Array<Mx & { key: string; cert: string }> }
  },
  edit: (await import(lib("edit.mjs"))) as {
    replaceEsmtpServers: (
      config: { domains: Array<string>; servers: Array<{ addr: string; host: string }> },
      addrs: Array<string>,
      added: Array<{ addr: string; host: string }>
    ) => unknown
  },
  loopback: (await import(lib("loopback.mjs"))) as {
    auditPostfix: (main: string, master: string) => Array<string>
    auditEsmtp: (json: string) => Array<string>
  },
  esmtp: (await import(lib("esmtp.mjs"))) as {
    createEsmtpServer: (
      options: {
        name: string
        context: tls.SecureContext | undefined
        requiretls: boolean
        domains: Set<string>
      },
      limits?: Limits
    ) => EsmtpServer
    secureContext: (pair: { key: string; cert: string }) => tls.SecureContext
  }
})

const scratch = mkdtempSync(join(tmpdir(), "world-esmtp-"))
const HOST = "mx.requiretls.test"
let pki: TestPki
beforeAll(() => {
  pki = makePki({ names: [HOST] })
})
afterAll(() => {
  pki.cleanup()
  rmSync(scratch, { recursive: true, force: true })
})

describe("which MX the world's ESMTP server serves", () => {
  it("an MX with requiretls, not Postfix; the node servers stay slow.mjs's", async () => {
    const { model } = await load()
    expect(model.mxComponent({ host: "mx", requiretls: true })).toBe("esmtp")
    expect(model.mxComponent({ host: "mx" })).toBe("postfix")
    expect(model.mxComponent({ host: "mx", requiretls: false })).toBe("postfix")
    expect(model.mxComponent({ host: "mx", server: "counting" })).toBe("slow")
    expect(model.mxProblem("a.com", { host: "mx", requiretls: true, tls: "valid" })).toBeUndefined()
    expect(model.mxProblem("a.com", { host: "mx", requiretls: true, server: "slow" })).toMatch(/esmtp/)
    expect(model.mxProblem("a.com", { host: "mx", requiretls: true, tlsPolicy: "legacy" })).toMatch(
      /tlsPolicy/
    )
    expect(model.mxProblem("a.com", { host: "mx", requiretls: "yes" })).toMatch(/true or absent/)
  })

  it("a scenario file with requiretls: esmtp.json serves that MX, Postfix does not bind its address", async () => {
    const { model, mail, loopback } = await load()
    const spec = join(scratch, "spec.json")
    writeFileSync(
      spec,
      JSON.stringify({
        scenarios: [
          { domain: "plain.com", mx: [{ host: "mx", tls: "valid", ptr: "match" }] },
          {
            domain: "requiretls.com",
            mx: [
              { host: "mx", tls: "valid", ptr: "match", requiretls: true },
              { host: "mx2", tls: "valid", ptr: "match" }
            ]
          }
        ]
      })
    )
    const planned = model.plan(model.loadScenarioFile(spec))
    const cert = { key: "/k.pem", cert: "/c.pem" }
    const hosts = planned.flatMap((s) =>
      s.mx.map((m) => ({ ...m, tls: m.tls ?? "valid", domain: s.domain, ...cert }))
    )
    const esmtpHost = hosts.find((h) => h.host === "mx.requiretls.com")!
    const postfix = mail.postfixConfig(
      scratch,
      hosts.filter((h) => model.mxComponent(h) === "postfix")
    )
    expect(postfix.master).not.toContain(`${esmtpHost.addr}:25`)
    expect(postfix.master).toContain(`-o myhostname=mx2.requiretls.com`)
    expect(loopback.auditPostfix(postfix.main, postfix.master)).toEqual([])
    expect(() => mail.listeners(esmtpHost)).toThrow(/not served by Postfix/)

    const config = mail.esmtpConfig(
      hosts,
      planned.map((s) => s.domain)
    )
    expect(config.servers).toEqual([
      {
        host: "mx.requiretls.com",
        addr: esmtpHost.addr,
        aaaa: null,
        tls: "valid",
        requiretls: true,
        key: "/k.pem",
        cert: "/c.pem"
      }
    ])
    expect(config.domains).toEqual(["plain.com", "requiretls.com"])
    expect(loopback.auditEsmtp(JSON.stringify(config))).toEqual([])
    expect(
      loopback.auditEsmtp(JSON.stringify({ servers: [{ host: "x", addr: "mx.example" }] }))
    ).toHaveLength(1)

    const s = planned.find((p) => p.domain === "requiretls.com")!
    const entry = model.manifestEntry(
      s,
      hosts.filter((h) => h.domain === s.domain),
      {}
    )
    expect(entry.mx.map((m) => [m.server, m.requiretls])).toEqual([
      ["esmtp", true],
      ["postfix", false]
    ])
  })

  it("mutate's edit of esmtp.json: the domain's old addresses out, its requiretls hosts in", async () => {
    const { edit } = await load()
    const config = {
      domains: ["a.com", "b.com"],
      servers: [
        { addr: "127.25.0.1", host: "mx.a.com" },
        { addr: "127.25.0.2", host: "mx.b.com" }
      ]
    }
    expect(
      edit.replaceEsmtpServers(
        config,
        ["127.25.0.2", "127.25.0.3"],
        [{ addr: "127.25.0.3", host: "mx.b.com" }]
      )
    ).toEqual({
      domains: ["a.com", "b.com"],
      servers: [
        { addr: "127.25.0.1", host: "mx.a.com" },
        { addr: "127.25.0.3", host: "mx.b.com" }
      ]
    })
    expect(edit.replaceEsmtpServers(config, ["127.25.0.9"], [])).toEqual(config)
  })

  it("a scenario file whose requiretls MX asks for another server is refused", async () => {
    const { model } = await load()
    const spec = join(scratch, "bad.json")
    writeFileSync(
      spec,
      JSON.stringify({
        scenarios: [{ domain: "bad.com", mx: [{ host: "mx", requiretls: true, server: "counting" }] }]
      })
    )
    expect(() => model.loadScenarioFile(spec)).toThrow(/requiretls is served by esmtp.mjs/)
  })
})

// ---- the server --------------------------------------------------------------------------------

/** An SMTP client over a socket (plain or TLS): `reply()` reads one whole reply's lines. */
const client = (sock: net.Socket | tls.TLSSocket) => {
  let buf = ""
  let closed = false
  const waiting: Array<() => void> = []
  const wake = () => waiting.splice(0).forEach((w) => w())
  sock.setEncoding("latin1")
  sock.on("data", (d: string) => ((buf += d), wake()))
  sock.on("close", () => ((closed = true), wake()))
  sock.on("error", () => {})
  const reply = async (): Promise<Array<string>> => {
    for (;;) {
      const lines = buf.split("\r\n")
      const end = lines.findIndex((l) => /^\d{3} /.test(l))
      if (end >= 0) {
        buf = lines.slice(end + 1).join("\r\n")
        return lines.slice(0, end + 1)
      }
      if (closed) return []
      await new Promise<void>((r) => waiting.push(r))
    }
  }
  const ask = async (line: string) => {
    sock.write(`${line}\r\n`)
    return reply()
  }
  return { reply, ask, sock, closed: () => closed }
}

const servers: Array<EsmtpServer> = []
afterAll(() => {
  for (const s of servers) {
    s.destroyAll()
    s.close()
  }
})

/** A server on 127.0.0.1 (a free port): TLS under the test certificate unless `plain`. */
const serve = async (opts: { requiretls?: boolean; plain?: boolean; limits?: Limits } = {}) => {
  const { esmtp } = await load()
  const context = opts.plain ? undefined : esmtp.secureContext({ key: pki.leafKey, cert: pki.leafPem })
  const server = esmtp.createEsmtpServer(
    { name: HOST, context, requiretls: opts.requiretls ?? true, domains: new Set(["requiretls.test"]) },
    opts.limits
  )
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
  return (server.address() as net.AddressInfo).port
}

const connect = async (port: number) => {
  const sock = net.connect({ host: "127.0.0.1", port })
  await new Promise<void>((r, j) => sock.once("connect", r).once("error", j))
  return client(sock)
}

/** STARTTLS on `c` (220 expected), then a TLS session checked against the test CA. */
const starttls = async (c: ReturnType<typeof client>, extra: tls.ConnectionOptions = {}) => {
  expect((await c.ask("STARTTLS"))[0]).toMatch(/^220 /)
  c.sock.removeAllListeners("data")
  const secure = tls.connect({ socket: c.sock, ca: pki.caPem, servername: HOST, ...extra })
  await new Promise<void>((r, j) => secure.once("secureConnect", r).once("error", j))
  return { c: client(secure), secure }
}

describe("the world's ESMTP server", () => {
  it("advertises REQUIRETLS only after STARTTLS, under the MX's certificate", async () => {
    const c = await connect(await serve())
    expect(await c.reply()).toEqual([`220 ${HOST} ESMTP`])
    expect(await c.ask("EHLO client.test")).toEqual([
      `250-${HOST}`,
      "250-PIPELINING",
      "250-SIZE 10485760",
      "250-8BITMIME",
      "250 STARTTLS"
    ])
    const { c: t, secure } = await starttls(c)
    expect(secure.authorized).toBe(true)
    expect(secure.getPeerCertificate().subject.CN).toBe(HOST)
    expect(["TLSv1.2", "TLSv1.3"]).toContain(secure.getProtocol())
    expect(await t.ask("EHLO client.test")).toEqual([
      `250-${HOST}`,
      "250-PIPELINING",
      "250-SIZE 10485760",
      "250-8BITMIME",
      "250 REQUIRETLS"
    ])
    expect(await t.ask("STARTTLS")).toEqual(["503 Error: TLS already active"])
    // RFC 8689 4.1: the MAIL FROM parameter, now that the keyword was offered.
    expect(await t.ask("MAIL FROM:<a@sender.test> REQUIRETLS")).toEqual(["250 Ok"])
    expect(await t.ask("RCPT TO:<someone@requiretls.test>")).toEqual(["250 Ok"])
    expect(await t.ask("DATA")).toEqual(["354 End data with <CR><LF>.<CR><LF>"])
    // A dot-stuffed line ("..") is no end; a line longer than a command line is counted all the same.
    const reply = await t.ask(`Subject: hi\r\n\r\n..\r\n${"y".repeat(9000)}\r\n.`)
    expect(reply).toHaveLength(1)
    expect(reply[0]).toMatch(/^250 Ok: queued as \w+, discarded$/)
    expect(await t.ask("QUIT")).toEqual(["221 Bye"])
  })

  it("refuses REQUIRETLS on MAIL FROM in the clear (it was not offered), and mail for other domains", async () => {
    const c = await connect(await serve())
    await c.reply()
    expect(await c.ask("MAIL FROM:<a@sender.test>")).toEqual(["503 Error: send HELO/EHLO first"])
    await c.ask("EHLO client.test")
    expect(await c.ask("MAIL FROM:<a@sender.test> REQUIRETLS")).toEqual([
      "555 Unsupported option: REQUIRETLS"
    ])
    expect(await c.ask("MAIL FROM:<a@sender.test> SIZE=99999999 BODY=8BITMIME")).toEqual([
      "552 Message size exceeds fixed limit"
    ])
    expect(await c.ask("MAIL FROM:<> BODY=8BITMIME")).toEqual(["250 Ok"])
    expect(await c.ask("RCPT TO:<x@elsewhere.example>")).toEqual([
      "554 <x@elsewhere.example>: Relay access denied"
    ])
    expect(await c.ask("RCPT TO:<Postmaster>")).toEqual(["250 Ok"])
    expect(await c.ask("RSET")).toEqual(["250 Ok"])
    expect(await c.ask("DATA")).toEqual(["503 Error: need RCPT command"])
    expect(await c.ask("NOOP")).toEqual(["250 Ok"])
    expect(await c.ask("VRFY x")).toEqual(["502 Error: command not recognized"])
    expect(await c.ask("BDAT 10 LAST")).toEqual(["502 Error: command not recognized"])
    expect(await c.ask("x".repeat(5000))).toEqual(["500 Error: line too long"])
    expect(await c.ask("NOOP")).toEqual(["250 Ok"])
    await c.ask("QUIT")
  })

  it("drops what a client pipelined after STARTTLS in the clear (RFC 3207 4.2, CVE-2011-0411)", async () => {
    const c = await connect(await serve())
    await c.reply()
    await c.ask("EHLO client.test")
    c.sock.write("STARTTLS\r\nMAIL FROM:<injected@evil.test>\r\n")
    expect(await c.reply()).toEqual(["220 Ready to start TLS"])
    c.sock.removeAllListeners("data")
    const secure = tls.connect({ socket: c.sock, ca: pki.caPem, servername: HOST })
    await new Promise<void>((r, j) => secure.once("secureConnect", r).once("error", j))
    const t = client(secure)
    // Had the injected MAIL been run, this would be a nested MAIL (503); the session starts afresh.
    expect(await t.ask("MAIL FROM:<a@sender.test>")).toEqual(["503 Error: send HELO/EHLO first"])
    expect((await t.ask("EHLO client.test")).at(-1)).toBe("250 REQUIRETLS")
    await t.ask("QUIT")
  })

  it("refuses a handshake below TLS 1.2 and keeps serving", async () => {
    const port = await serve()
    const c = await connect(port)
    await c.reply()
    await c.ask("EHLO client.test")
    await expect(
      starttls(c, { minVersion: "TLSv1", maxVersion: "TLSv1.1", ciphers: "DEFAULT:@SECLEVEL=0" })
    ).rejects.toThrow()
    const again = await connect(port)
    expect(await again.reply()).toEqual([`220 ${HOST} ESMTP`])
    const { c: t } = await starttls((await again.ask("EHLO client.test"), again))
    expect((await t.ask("EHLO client.test")).at(-1)).toBe("250 REQUIRETLS")
    await t.ask("QUIT")
  })

  it("without TLS (tls none) offers no STARTTLS, so never REQUIRETLS", async () => {
    const c = await connect(await serve({ plain: true }))
    await c.reply()
    expect(await c.ask("EHLO client.test")).toEqual([
      `250-${HOST}`,
      "250-PIPELINING",
      "250-SIZE 10485760",
      "250 8BITMIME"
    ])
    expect(await c.ask("STARTTLS")).toEqual(["502 Error: command not recognized"])
    await c.ask("QUIT")
  })

  it("is bounded: connections at once and errors per session", async () => {
    const port = await serve({ limits: { connections: 2, errors: 3 } })
    const [a, b] = [await connect(port), await connect(port)]
    await a.reply()
    await b.reply()
    const third = await connect(port)
    expect(await third.reply()).toEqual([`421 ${HOST} Service not available: too many connections`])
    expect(await b.ask("FOO")).toEqual(["502 Error: command not recognized"])
    expect(await b.ask("BAR")).toEqual(["502 Error: command not recognized"])
    expect(await b.ask("BAZ")).toEqual(["502 Error: command not recognized"])
    expect(await b.reply()).toEqual([`421 ${HOST} Error: too many errors`])
    expect(await b.reply()).toEqual([])
    expect(b.closed()).toBe(true)
    await a.ask("QUIT")
  })

  it("is bounded: a silent client is told so, then the session ends", async () => {
    const c = await connect(await serve({ limits: { idleMs: 300 } }))
    expect(await c.reply()).toEqual([`220 ${HOST} ESMTP`])
    expect(await c.reply()).toEqual([`421 ${HOST} Error: timeout exceeded`])
    expect(await c.reply()).toEqual([])
  })
})
