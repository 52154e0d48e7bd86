import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Fiber, Layer } from "effect"
import * as net from "node:net"
import { SMTPServer } from "smtp-server"
import { type ProbeSettings, probeOnce, Smtp } from "../../src/net/Smtp.ts"
import { makePki, type TestPki } from "./pki.ts"

const HOST = "mx.test.example"
let pki: TestPki
const servers: Array<{ close: (cb: () => void) => void }> = []
let tlsPort = 0
let plainPort = 0
let silentPort = 0
let silentConnections = 0

const listen = (server: net.Server | SMTPServer) =>
  new Promise<number>((resolve) => {
    const s = server instanceof SMTPServer ? server.server : server
    s.listen(0, "127.0.0.1", () => resolve((s.address() as net.AddressInfo).port))
  })

beforeAll(async () => {
  // The CA name is pinned because the chain test below reads it back as the leaf's issuer.
  pki = makePki({ names: [HOST, "alt.test.example"], caSubject: "/CN=Test Mail CA/O=domain-audit tests" })
  const withTls = new SMTPServer({
    key: pki.leafKey,
    cert: pki.leafPem,
    authOptional: true,
    disabledCommands: ["AUTH"],
    banner: "test ESMTP",
    logger: false
  })
  const plain = new SMTPServer({
    hideSTARTTLS: true,
    authOptional: true,
    disabledCommands: ["AUTH"],
    logger: false
  })
  // Accepts the connection and never says a word: the banner stage must time out.
  const held = new Set<net.Socket>()
  const silent = net.createServer((socket) => {
    silentConnections++
    held.add(socket)
    socket.on("error", () => {})
    socket.on("close", () => held.delete(socket))
  })
  tlsPort = await listen(withTls)
  plainPort = await listen(plain)
  silentPort = await listen(silent)
  servers.push(withTls, plain, {
    close: (cb) => {
      for (const socket of held) socket.destroy()
      silent.close(() => cb())
    }
  })
})

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
  pki?.cleanup()
})

const settings = (port: number, ca: ReadonlyArray<string> = [pki.caPem]): ProbeSettings => ({
  port,
  heloName: "probe.test.invalid",
  connectTimeoutMs: 2_000,
  bannerTimeoutMs: 300,
  commandTimeoutMs: 2_000,
  tlsTimeoutMs: 2_000,
  ca
})

describe("probeOnce", () => {
  it.live("reads banner, EHLO, STARTTLS and the presented chain", () =>
    Effect.gen(function* () {
      const probe = yield* probeOnce(settings(tlsPort), HOST, "127.0.0.1")
      expect(probe.status).toBe("complete")
      expect(probe.failure).toBeNull()
      expect(probe.bannerCode).toBe(220)
      expect(probe.banner).toContain("test ESMTP")
      expect(probe.starttlsOffered).toBe(true)
      expect(probe.starttlsCode).toBe(220)
      const tls = probe.tls!
      expect(tls.protocol).toMatch(/^TLSv1\.[23]$/)
      expect(tls.cipher).toBeTruthy()
      expect(tls.trusted).toBe(true)
      expect(tls.hostnameMatch).toBe(true)
      expect(tls.chain[0]!.commonName).toBe(HOST)
      expect(tls.chain[0]!.subjectAltNames).toEqual([HOST, "alt.test.example"])
      expect(tls.chain[0]!.issuerCommonName).toBe("Test Mail CA")
      expect(tls.chain[0]!.keyType).toBe("ec")
      expect(tls.chain[0]!.keySize).toBe(256)
      expect(tls.daysUntilExpiry).toBeGreaterThanOrEqual(28)
      expect(tls.daysUntilExpiry).toBeLessThanOrEqual(30)
      // smtp-server keeps advertising after TLS minus STARTTLS itself
      expect(tls.extensions).not.toContain("STARTTLS")
    })
  )

  it.live("reports an untrusted chain and a name mismatch without failing the session", () =>
    Effect.gen(function* () {
      const probe = yield* probeOnce(settings(tlsPort, []), "other.test.example", "127.0.0.1")
      expect(probe.status).toBe("complete")
      expect(probe.tls!.trusted).toBe(false)
      expect(probe.tls!.trustError).toMatch(/UNABLE_TO_GET_ISSUER|unable to get|LEAF_SIGNATURE/i)
      expect(probe.tls!.hostnameMatch).toBe(false)
      expect(probe.tls!.hostnameError).toContain("other.test.example")
    })
  )

  it.live("a server without STARTTLS completes with no TLS facts", () =>
    Effect.gen(function* () {
      const probe = yield* probeOnce(settings(plainPort), HOST, "127.0.0.1")
      expect(probe.status).toBe("complete")
      expect(probe.ehloCode).toBe(250)
      expect(probe.starttlsOffered).toBe(false)
      expect(probe.tls).toBeNull()
      expect(probe.extensions.length).toBeGreaterThan(0)
    })
  )

  it.live("a server that never sends a banner is unknown, stalled at the banner", () =>
    Effect.gen(function* () {
      const before = silentConnections
      const probe = yield* probeOnce(settings(silentPort), HOST, "127.0.0.1")
      expect(probe.status).toBe("unknown")
      expect(probe.failure?.stage).toBe("banner")
      expect(probe.failure?.reason).toBe("timeout")
      expect(silentConnections).toBe(before + 1)
    })
  )

  it.live("a closed port is unknown at the connect stage", () =>
    Effect.gen(function* () {
      const closed = net.createServer()
      const port = yield* Effect.promise(() => listen(closed))
      yield* Effect.promise(() => new Promise<void>((resolve) => closed.close(() => resolve())))
      const probe = yield* probeOnce(settings(port), HOST, "127.0.0.1")
      expect(probe.status).toBe("unknown")
      expect(probe.failure?.stage).toBe("connect")
      expect(probe.failure?.reason).toBe("refused")
    })
  )
})

describe("Smtp service", () => {
  const layer = (port: number, allow = "127.0.0.0/8", extra: ReadonlyArray<[string, string]> = []) => {
    return Smtp.Default.pipe(
      Layer.provide(
        Layer.setConfigProvider(
          ConfigProvider.fromMap(
            new Map([
              ["SMTP_PORT", String(port)],
              ["EXTRA_CA_FILE", pki.caFile],
              ["SMTP_BANNER_TIMEOUT_MS", "300"],
              ["ALLOW_TARGETS", allow],
              ...extra
            ])
          )
        )
      )
    )
  }

  it.live("trusts EXTRA_CA_FILE and caches per address", () =>
    Effect.gen(function* () {
      const smtp = yield* Smtp
      const first = yield* smtp.probe(HOST, "127.0.0.1")
      const second = yield* smtp.probe(HOST, "127.0.0.1")
      expect(first.tls?.trusted).toBe(true)
      // the cached result is the same session, not a second connection
      expect(second.checkedAt).toBe(first.checkedAt)
      expect(second).toBe(first)
    }).pipe(Effect.provide(Layer.fresh(layer(tlsPort))))
  )

  it.live("concurrent probes of one address share one session", () =>
    Effect.gen(function* () {
      const smtp = yield* Smtp
      const before = silentConnections
      const fibers = yield* Effect.forEach([1, 2, 3, 4], () => Effect.fork(smtp.probe(HOST, "127.0.0.1")))
      const results = yield* Fiber.joinAll(fibers)
      expect(results.every((r) => r.failure?.stage === "banner")).toBe(true)
      expect(silentConnections).toBe(before + 1)
    }).pipe(Effect.provide(Layer.fresh(layer(silentPort))))
  )

  it.live("a waiter survives the interruption of the caller whose session it shared", () =>
    Effect.gen(function* () {
      const smtp = yield* Smtp
      const first = yield* Effect.fork(smtp.probe(HOST, "127.0.0.1"))
      yield* Effect.sleep("50 millis")
      const second = yield* Effect.fork(smtp.probe(HOST, "127.0.0.1"))
      yield* Effect.sleep("50 millis")
      yield* Fiber.interrupt(first)
      const result = yield* Fiber.join(second)
      expect(result.failure?.stage).toBe("banner")
    }).pipe(Effect.provide(Layer.fresh(layer(silentPort))))
  )

  it.live("a silent server is backed off: other names on its address are not probed again", () =>
    Effect.gen(function* () {
      const smtp = yield* Smtp
      const before = silentConnections
      const first = yield* smtp.probe(HOST, "127.0.0.1")
      expect(first).toMatchObject({ status: "unknown", failure: { stage: "banner", reason: "timeout" } })
      const others = yield* Effect.forEach(
        ["alt.test.example", "mx2.test.example", "MX3.test.example."],
        (host) => smtp.probe(host, "127.0.0.1"),
        { concurrency: "unbounded" }
      )
      expect(silentConnections).toBe(before + 1)
      for (const probe of others) {
        // Unknown with the first probe's stage and reason, never a verdict of its own.
        expect(probe).toMatchObject({ status: "unknown", failure: { stage: "banner", reason: "timeout" } })
        expect(probe.failure?.message).toMatch(/backed off/)
      }
      expect(others.map((p) => p.host)).toEqual(["alt.test.example", "mx2.test.example", "mx3.test.example"])
    }).pipe(Effect.provide(Layer.fresh(layer(silentPort))))
  )

  it.live("with DESTINATION_BACKOFF=0 every name is probed", () =>
    Effect.gen(function* () {
      const smtp = yield* Smtp
      const before = silentConnections
      yield* smtp.probe(HOST, "127.0.0.1")
      yield* smtp.probe("alt.test.example", "127.0.0.1")
      expect(silentConnections).toBe(before + 2)
    }).pipe(Effect.provide(Layer.fresh(layer(silentPort, "127.0.0.0/8", [["DESTINATION_BACKOFF", "0"]]))))
  )

  it.live("refuses addresses outside the address policy without connecting", () =>
    Effect.gen(function* () {
      const smtp = yield* Smtp
      const before = silentConnections
      const probe = yield* smtp.probe(HOST, "127.0.0.1")
      expect(probe.status).toBe("error")
      expect(probe.failure).toMatchObject({ stage: "connect", reason: "policy" })
      expect(probe.failure?.message).toContain("loopback")
      expect(silentConnections).toBe(before)
      const private10 = yield* smtp.probe(HOST, "10.1.2.3")
      expect(private10.failure?.message).toContain("private")
    }).pipe(Effect.provide(Layer.fresh(layer(silentPort, ""))))
  )

  it.effect("reads its settings from AppConfig", () =>
    Effect.gen(function* () {
      const smtp = yield* Smtp
      expect(smtp.settings.port).toBe(tlsPort)
      expect(smtp.settings.bannerTimeoutMs).toBe(300)
      expect(smtp.settings.ca).toContain(pki.caPem.trim())
    }).pipe(Effect.provide(layer(tlsPort)))
  )
})
