import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import * as https from "node:https"
import * as net from "node:net"
import type { AddressInfo } from "node:net"
import * as tls from "node:tls"
import * as zlib from "node:zlib"
import { AppConfig } from "../../src/Config.ts"
import { DnsError } from "../../src/net/DnsTypes.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { type AddressLookup, makeWeb, Web, webLayerWith, type WebSettings } from "../../src/net/Web.ts"
import { makePki, type TestPki } from "./pki.ts"
import { testWebSettings } from "./webSettings.ts"

let pki: TestPki
let serverA: https.Server
let serverB: https.Server
let portA = 0
let portB = 0
const connections = { a: 0, b: 0 }
let active = 0
let maxActive = 0

const zone: Record<string, ReadonlyArray<string>> = {
  "good.example.net": ["127.0.0.1"],
  "other.example.net": ["127.0.0.1"],
  "private.example.net": ["127.0.0.2"],
  "mixed.example.net": ["127.0.0.1", "10.0.0.5"],
  "v6.example.net": ["::1"],
  "empty.example.net": []
}

const lookup: AddressLookup = (host) =>
  host === "fail.example.net"
    ? Effect.fail(new DnsError({ name: host, type: "A", reason: "timeout", message: "no reply" }))
    : Effect.succeed({
        v4: (zone[host] ?? []).filter((a) => !a.includes(":")),
        v6: (zone[host] ?? []).filter((a) => a.includes(":"))
      })

const settings = (allow: ReadonlyArray<string>, extra: Partial<WebSettings> = {}): WebSettings =>
  testWebSettings(pki.caPem, allow, extra)

const listen = (server: https.Server, host: string) =>
  new Promise<number>((resolve) =>
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port))
  )

beforeAll(async () => {
  // other.example.net stays out of the names: the wrong-name test needs it to mismatch. The IP SAN is the
  // address both servers listen on, kept from the old fixture though no test here verifies by address.
  pki = makePki({
    names: ["good.example.net", "private.example.net", "mixed.example.net"],
    ips: ["127.0.0.1"]
  })
  serverA = https.createServer({ key: pki.leafKey, cert: pki.leafPem }, (req, res) => {
    const path = (req.url ?? "/").split("?")[0]
    if (path === "/") {
      res.writeHead(200, {
        "content-type": "text/html",
        "x-host": req.headers.host ?? "",
        "x-multi": ["a", "b"]
      })
      res.end("hello")
    } else if (path === "/big") res.end("x".repeat(10_000))
    else if (path === "/bigheader") {
      res.writeHead(200, { "x-big": "y".repeat(20_000) })
      res.end()
    } else if (path === "/hang") {
      // never answers
    } else if (path === "/concurrent") {
      active++
      maxActive = Math.max(maxActive, active)
      setTimeout(() => {
        active--
        res.end("ok")
      }, 30)
    } else if (path === "/gzip") {
      res.writeHead(200, { "content-encoding": "gzip" })
      res.end(zlib.gzipSync("compressed body"))
    } else if (path === "/redirect-ok") {
      res.writeHead(301, { location: "/?from=redirect", "set-cookie": ["lang=nl; Secure", "sid=1"] })
      res.end()
    } else if (path === "/redirect-loop") {
      res.writeHead(302, { location: "/redirect-loop" })
      res.end()
    } else if (path === "/redirect-private") {
      res.writeHead(302, { location: `https://private.example.net:${portB}/` })
      res.end()
    } else if (path === "/redirect-literal") {
      res.writeHead(302, { location: "https://169.254.169.254/latest/meta-data/" })
      res.end()
    } else if (path === "/redirect-ftp") {
      res.writeHead(302, { location: "ftp://good.example.net/" })
      res.end()
    } else {
      res.writeHead(404)
      res.end()
    }
  })
  serverA.on("connection", () => connections.a++)
  serverB = https.createServer({ key: pki.leafKey, cert: pki.leafPem }, (_req, res) => res.end("private"))
  serverB.on("connection", () => connections.b++)
  portA = await listen(serverA, "127.0.0.1")
  portB = await listen(serverB, "127.0.0.2")
})

afterAll(() => {
  serverA?.closeAllConnections()
  serverA?.close()
  serverB?.close()
  pki?.cleanup()
})

const allowed = () => makeWeb(settings(["127.0.0.1/32"]), lookup)
const strict = () => makeWeb(settings([]), lookup)
const text = (body: Uint8Array) => new TextDecoder().decode(body)

describe("Web.get against a local HTTPS server", () => {
  it.live("connects to the vetted address with the original host for SNI, Host and the certificate", () =>
    Effect.gen(function* () {
      const res = yield* allowed().get(`https://good.example.net:${portA}/`)
      expect(res.status).toBe(200)
      expect(text(res.body)).toBe("hello")
      expect(res.address).toBe("127.0.0.1")
      expect(res.headers["x-host"]).toBe(`good.example.net:${portA}`)
      expect(res.headers["x-multi"]).toBe("a, b")
      expect(res.tls?.authorized).toBe(true)
      expect(res.tls?.peerCertificate?.subjectAltName).toContain("DNS:good.example.net")
      expect(res.tls?.peerCertificate?.chain.length).toBeGreaterThan(0)
    })
  )

  it.live("follows redirects and records them, with the cookies each sets", () =>
    Effect.gen(function* () {
      const res = yield* allowed().get(`https://good.example.net:${portA}/redirect-ok`)
      expect(res.status).toBe(200)
      expect(res.finalUrl).toBe(`https://good.example.net:${portA}/?from=redirect`)
      expect(res.redirects).toEqual([
        {
          url: `https://good.example.net:${portA}/redirect-ok`,
          status: 301,
          location: res.finalUrl,
          setCookies: ["lang=nl; Secure", "sid=1"]
        }
      ])
      const raw = yield* allowed().get(`https://good.example.net:${portA}/redirect-ok`, {
        followRedirects: false
      })
      expect(raw.status).toBe(301)
    })
  )

  it.live("stops after 5 redirects", () =>
    Effect.gen(function* () {
      const err = yield* Effect.flip(allowed().get(`https://good.example.net:${portA}/redirect-loop`))
      expect(err.reason).toBe("redirect")
    })
  )

  it.live("refuses a redirect to a non-http scheme", () =>
    Effect.gen(function* () {
      const err = yield* Effect.flip(allowed().get(`https://good.example.net:${portA}/redirect-ftp`))
      expect(err.reason).toBe("redirect")
    })
  )

  it.live("bounds concurrent requests per destination address", () =>
    Effect.gen(function* () {
      // generous total timeout: the permits are waited for inside it, and CI machines are slow
      const web = makeWeb(settings(["127.0.0.1/32"], { timeoutMs: 30_000 }), lookup)
      yield* Effect.forEach(
        Array.from({ length: 10 }, () => `https://good.example.net:${portA}/concurrent`),
        (url) => web.get(url),
        { concurrency: "unbounded" }
      )
      expect(maxActive).toBeGreaterThan(1)
      expect(maxActive).toBeLessThanOrEqual(4)
    })
  )

  it.live("decodes gzip bodies", () =>
    Effect.gen(function* () {
      const res = yield* allowed().get(`https://good.example.net:${portA}/gzip`)
      expect(text(res.body)).toBe("compressed body")
    })
  )

  it.live("caps the body and the headers", () =>
    Effect.gen(function* () {
      const big = yield* Effect.flip(allowed().get(`https://good.example.net:${portA}/big`))
      expect(big.reason).toBe("too-large")
      const small = yield* Effect.flip(allowed().get(`https://good.example.net:${portA}/`, { maxBytes: 3 }))
      expect(small.reason).toBe("too-large")
      const cut = yield* allowed().get(`https://good.example.net:${portA}/big`, { truncateBody: true })
      expect(cut.truncated).toBe(true)
      expect(cut.body.length).toBe(4_096)
      const whole = yield* allowed().get(`https://good.example.net:${portA}/`, { truncateBody: true })
      expect(whole.truncated).toBe(false)
      const header = yield* Effect.flip(allowed().get(`https://good.example.net:${portA}/bigheader`))
      expect(header.reason).toBe("too-large")
    })
  )

  it.live("times out a server that never answers", () =>
    Effect.gen(function* () {
      const err = yield* Effect.flip(
        allowed().get(`https://good.example.net:${portA}/hang`, { timeoutMs: 300 })
      )
      expect(err.reason).toBe("timeout")
    })
  )

  it.live("verifies certificates: a wrong name or an unknown CA is a tls error", () =>
    Effect.gen(function* () {
      const wrongName = yield* Effect.flip(allowed().get(`https://other.example.net:${portA}/`))
      expect(wrongName.reason).toBe("tls")
      const noCa = makeWeb({ ...settings(["127.0.0.1/32"]), ca: tls.rootCertificates }, lookup)
      const unknownCa = yield* Effect.flip(noCa.get(`https://good.example.net:${portA}/`))
      expect(unknownCa.reason).toBe("tls")
      const lenient = yield* noCa.get(`https://other.example.net:${portA}/`, { verifyTls: false })
      expect(lenient.status).toBe(200)
      expect(lenient.tls?.authorized).toBe(false)
      expect(lenient.tls?.authorizationError).not.toBeNull()
    })
  )

  it.live("reports DNS failures apart from missing addresses", () =>
    Effect.gen(function* () {
      expect((yield* Effect.flip(allowed().get("https://fail.example.net/"))).reason).toBe("dns")
      expect((yield* Effect.flip(allowed().get("https://empty.example.net/"))).reason).toBe("no-address")
      expect((yield* Effect.flip(allowed().get("file:///etc/passwd"))).reason).toBe("invalid-url")
    })
  )
})

describe("the address policy, with the allowance switched off", () => {
  const refusedBeforeConnecting = (url: () => string, server: "a" | "b" = "a") =>
    Effect.gen(function* () {
      const before = connections[server]
      const err = yield* Effect.flip(strict().get(url()))
      expect(err.reason, err.message).toBe("refused-address")
      expect(connections[server]).toBe(before)
      return err
    })

  it.live.each([
    ["loopback", (): string => `https://127.0.0.1:${portA}/`],
    ["10/8", (): string => "https://10.1.2.3/"],
    ["metadata", (): string => "https://169.254.169.254/latest/meta-data/"],
    ["[::1]", (): string => `https://[::1]:${portA}/`],
    ["0x7f.1", (): string => `https://0x7f.1:${portA}/`],
    ["decimal", (): string => `https://2130706433:${portA}/`],
    ["octal", (): string => `https://0177.0.0.1:${portA}/`],
    ["IPv4-mapped", (): string => `https://[::ffff:127.0.0.1]:${portA}/`],
    ["localhost", (): string => `https://localhost:${portA}/`],
    ["a name resolving to loopback", (): string => `https://good.example.net:${portA}/`],
    ["a name with one private answer among public ones", (): string => `https://mixed.example.net:${portA}/`],
    ["a name resolving to ::1", (): string => `https://v6.example.net:${portA}/`]
  ] as const)("refuses %s", ([, url]) => refusedBeforeConnecting(url))

  it.live("refuses a redirect to a private address before connecting to it", () =>
    Effect.gen(function* () {
      const web = allowed() // 127.0.0.1 allowed, 127.0.0.2 not
      const before = connections.b
      const err = yield* Effect.flip(web.get(`https://good.example.net:${portA}/redirect-private`))
      expect(err.reason).toBe("refused-address")
      expect(err.address).toBe("127.0.0.2")
      expect(connections.b).toBe(before)
      const literal = yield* Effect.flip(web.get(`https://good.example.net:${portA}/redirect-literal`))
      expect(literal.reason).toBe("refused-address")
      expect(literal.refusal).toBe("link-local")
    })
  )
})

describe("the Web layer", () => {
  it.live("reads ALLOW_TARGETS and EXTRA_CA_FILE from AppConfig", () =>
    Effect.gen(function* () {
      const web = yield* Web
      const res = yield* web.get(`https://good.example.net:${portA}/`)
      expect(res.status).toBe(200)
    }).pipe(
      Effect.provide(
        webLayerWith(lookup).pipe(
          Layer.provide(AppConfig.Default),
          Layer.provide(
            Layer.setConfigProvider(
              ConfigProvider.fromMap(
                new Map([
                  ["ALLOW_TARGETS", "127.0.0.0/8"],
                  ["EXTRA_CA_FILE", pki.caFile],
                  ["HTTP_ALLOWED_PORTS", "443,1024-65535"]
                ])
              )
            )
          )
        )
      )
    )
  )

  it.live("Web.Default resolves through the Resolver and vets what it returns", () =>
    Effect.gen(function* () {
      const web = yield* Web
      const res = yield* web.get(`https://good.example.net:${portA}/`)
      expect(res.address).toBe("127.0.0.1")
      const err = yield* Effect.flip(web.get(`https://rebind.example.net:${portA}/`))
      expect(err.reason).toBe("refused-address")
      expect(err.refusal).toBe("private")
      const timeout = yield* Effect.flip(web.get(`https://slow.example.net:${portA}/`))
      expect(timeout.reason).toBe("dns")
    }).pipe(
      Effect.provide(
        Web.Default.pipe(
          Layer.provide(
            Resolver.Test({
              "good.example.net A": ["127.0.0.1"],
              "rebind.example.net A": ["192.168.1.10"],
              "slow.example.net A": "TIMEOUT"
            })
          ),
          Layer.provide(AppConfig.Default),
          Layer.provide(
            Layer.setConfigProvider(
              ConfigProvider.fromMap(
                new Map([
                  ["ALLOW_TARGETS", "127.0.0.1"],
                  ["EXTRA_CA_FILE", pki.caFile],
                  ["HTTP_ALLOWED_PORTS", "443,1024-65535"]
                ])
              )
            )
          )
        )
      )
    )
  )
})

describe("the port policy and what failures say", () => {
  const only443 = () => makeWeb(settings(["127.0.0.0/8"], { allowedPort: (port) => port === 443 }), lookup)

  it.live("refuses any port but the allowed ones before connecting, naming no address", () =>
    Effect.gen(function* () {
      const before = connections.a
      for (const url of [`https://good.example.net:${portA}/`, "https://good.example.net:22/"]) {
        const err = yield* Effect.flip(only443().get(url))
        expect(err.reason).toBe("refused-address")
        expect(err.refusal).toBe("port")
        expect(err.message).not.toMatch(/127\.0\.0\.1/)
      }
      expect(connections.a).toBe(before)
      // plain http keeps its own port 80 (the headers check's probe)
      const http80 = yield* Effect.flip(only443().get("http://empty.example.net/"))
      expect(http80.reason).toBe("no-address")
    })
  )

  it.live("a closed port, a non-TLS service and a refused name are reported in generic words", () =>
    Effect.gen(function* () {
      // a port nothing listens on, and a plain-TCP service that answers TLS with garbage
      const closed = yield* Effect.flip(allowed().get("https://good.example.net:9/"))
      expect(closed.reason).toBe("connect")
      expect(closed.message).toBe("the site could not be reached over HTTPS")
      const plain = yield* Effect.async<number>((resume) => {
        const server = net.createServer((socket) => socket.end("SSH-2.0-OpenSSH_9.6\r\n"))
        server.listen(0, "127.0.0.1", () => resume(Effect.succeed((server.address() as AddressInfo).port)))
        setTimeout(() => server.close(), 3_000).unref()
      })
      const garbage = yield* Effect.flip(allowed().get(`https://good.example.net:${plain}/`))
      expect(garbage.message).not.toMatch(/ssl|openssl|routines|ECONN|127\.0\.0\.1|:\d+/i)
      expect(garbage.message).toMatch(/^the (site could not be reached|TLS handshake with the site failed)/)
      const refused = yield* Effect.flip(strict().get(`https://good.example.net:${portA}/`))
      expect(refused.message).toBe(
        "refusing to connect to good.example.net: it is or resolves to a loopback address, which the address policy does not allow"
      )
      const dns = yield* Effect.flip(allowed().get("https://fail.example.net/"))
      expect(dns.message).toBe("the name fail.example.net could not be resolved (timeout)")
    })
  )
})

describe("Web.get backs off a destination that does not answer", () => {
  it.live("an address that accepted but never spoke TLS is not knocked on again", () =>
    Effect.gen(function* () {
      let knocks = 0
      const held = new Set<net.Socket>()
      const silent = net.createServer((socket) => {
        knocks++
        held.add(socket)
        socket.on("error", () => {})
      })
      const port = yield* Effect.async<number>((resume) => {
        silent.listen(0, "127.0.0.1", () => resume(Effect.succeed((silent.address() as AddressInfo).port)))
      })
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          for (const socket of held) socket.destroy()
          silent.close()
        })
      )
      const web = makeWeb(settings(["127.0.0.1/32"], { connectTimeoutMs: 200, backoffMs: 60_000 }), lookup)
      const first = yield* Effect.flip(web.get(`https://good.example.net:${port}/`))
      expect(first.reason).toBe("timeout")
      expect(knocks).toBe(1)
      // Another name on the same address and port, and several at once: answered without a knock.
      const again = yield* Effect.forEach(
        ["good.example.net", "other.example.net", "good.example.net"],
        (host) => Effect.flip(web.get(`https://${host}:${port}/page`)),
        { concurrency: "unbounded" }
      )
      expect(again.map((e) => [e.reason, e.message])).toEqual(
        Array.from({ length: 3 }, () => [first.reason, first.message])
      )
      expect(knocks).toBe(1)
      // The site itself is still asked where it answers: the backoff is per address and port.
      expect((yield* web.get(`https://good.example.net:${portA}/`)).status).toBe(200)
    }).pipe(Effect.scoped)
  )

  it.live("a slow response is not a silent destination", () =>
    Effect.gen(function* () {
      const web = makeWeb(settings(["127.0.0.1/32"], { backoffMs: 60_000 }), lookup)
      const slow = yield* Effect.flip(web.get(`https://good.example.net:${portA}/hang`, { timeoutMs: 300 }))
      expect(slow.reason).toBe("timeout")
      expect((yield* web.get(`https://good.example.net:${portA}/`)).status).toBe(200)
    })
  )
})
