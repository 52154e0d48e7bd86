/**
 * The web TLS scan's sharing and politeness against a real TLS server on loopback: one scan per
 * (address, 443, SNI) however many ask at once, one enumeration of versions and suites per address
 * shared by its names (a name the server configures apart enumerated on its own), the HTTPS permits
 * per address held per handshake, and a silent address backed off (for the key-exchange probe too). The server listens on port 443
 * (the scan's only port) of an address of its own in 127.0.0.0/8, outside the world's address plan;
 * `odd.example` is served there as a virtual host of its own, TLS 1.2 only.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as net from "node:net"
import { Duplex } from "node:stream"
import * as tls from "node:tls"
import { makeWeb, webDestinations } from "../../src/net/WebClient.ts"
import type { TlsScanResult } from "../../src/net/TlsScan.ts"
import { makeWebTlsScan } from "../../src/net/WebTlsScan.ts"
import { makeWebKeyExchange } from "../../src/net/Web.ts"
import { serverOf } from "../../src/checks/pq-kex/PqKex.ts"
import type { WebSettings } from "../../src/net/WebTypes.ts"
import { makePki, type TestPki } from "./pki.ts"
import { testWebSettings } from "./webSettings.ts"

const octet = () => 1 + Math.floor(Math.random() * 250)
/** An address of this file's own (127.201-250.x.y): no other test or world server is there. */
const address = `127.${200 + Math.ceil(Math.random() * 50)}.${octet()}.${octet()}`
/** Beside it, where nothing listens. */
const silentAddress = address.replace(/\.\d+$/, (last) => `.${(Number(last.slice(1)) % 250) + 1}`)

let pki: TestPki
let server: net.Server
/**
 * Connections the server has accepted and not yet begun the handshake of: it holds each for
 * `acceptDelayMs` first, so a client's next connection cannot overlap the count of its last.
 */
const seen = { connections: 0, waiting: 0, maxWaiting: 0 }
let acceptDelayMs = 0

const settings = (extra: Partial<WebSettings> = {}): WebSettings =>
  testWebSettings(pki.caPem, ["127.0.0.0/8"], {
    connectTimeoutMs: 3_000,
    timeoutMs: 5_000,
    perDestination: 2,
    perPrefix: 16,
    backoffMs: 60_000,
    probeCacheTtlMs: 600_000,
    ...extra
  })

const makeScans = (extra: Partial<WebSettings> = {}) => {
  const s = settings(extra)
  return makeWebTlsScan(s, webDestinations(s))
}
const makeScan = (extra: Partial<WebSettings> = {}) => Effect.map(makeScans(extra), (scans) => scans.scan)

/** `socket` as a stream that reads `first` (already read from it) and then what it receives. */
const replaying = (socket: net.Socket, first: Buffer): Duplex => {
  const stream = new Duplex({
    read() {},
    write: (chunk: Buffer, _encoding, done) => void socket.write(chunk, done),
    final: (done) => {
      socket.end()
      done()
    },
    destroy: (error, done) => {
      socket.destroy()
      done(error)
    }
  })
  stream.push(first)
  socket.on("data", (data) => stream.push(data))
  socket.on("end", () => stream.push(null))
  socket.on("error", (error) => stream.destroy(error))
  return stream
}

beforeAll(async () => {
  pki = makePki({ names: ["a.example", "b.example", "c.example", "d.example", "odd.example"] })
  const tlsServer = tls.createServer({ cert: pki.leafPem, key: pki.leafKey, minVersion: "TLSv1.2" })
  tlsServer.on("tlsClientError", () => {})
  // A virtual host of its own, as a server that picks its configuration by SNI has.
  const oddServer = tls.createServer({
    cert: pki.leafPem,
    key: pki.leafKey,
    minVersion: "TLSv1.2",
    maxVersion: "TLSv1.2"
  })
  oddServer.on("tlsClientError", () => {})
  server = net.createServer((socket) => {
    seen.connections++
    seen.maxWaiting = Math.max(seen.maxWaiting, ++seen.waiting)
    setTimeout(() => {
      seen.waiting--
      // The ClientHello is in the clear: its server_name extension (RFC 6066 3) picks the host.
      // The TLS server reads through a stream that gives it back first (one on loopback arrives
      // whole).
      socket.once("data", (hello: Buffer) => {
        const host = hello.includes("odd.example") ? oddServer : tlsServer
        host.emit("connection", replaying(socket, hello))
      })
    }, acceptDelayMs)
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(443, address, () => resolve())
  })
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  pki.cleanup()
})

describe("makeWebTlsScan", () => {
  it.live(
    "six concurrent scans of one name at one address make one scan; another name is scanned apart",
    () =>
      Effect.gen(function* () {
        const scan = yield* makeScan()
        const before = seen.connections
        const results = yield* Effect.forEach(
          ["a.example", "A.example", "a.example.", "a.example", "a.example", "a.example"],
          (host) => scan(host, address),
          { concurrency: "unbounded" }
        )
        const first = results[0]!
        expect(first.status).toBe("complete")
        expect(first.versions["TLSv1.2"]).toBe("accepted")
        expect(first.versions["TLSv1.3"]).toBe("accepted")
        expect(first.certificate?.trusted).toBe(true)
        expect(first.handshakes).toBeGreaterThan(4)
        // One scan's handshakes reached the server, and every caller got that scan.
        expect(seen.connections - before).toBe(first.handshakes)
        for (const r of results) expect(r).toBe(first)
        // Asked again later: remembered for PROBE_CACHE_TTL.
        expect(yield* scan("a.example", address)).toBe(first)
        expect(seen.connections - before).toBe(first.handshakes)
        // Another name at the same address: its own ordinary handshake (its certificate, RFC 6066
        // 3) and the versions and suites found under the first name.
        const other = yield* scan("b.example", address)
        expect(other.host).toBe("b.example")
        expect(other.handshakes).toBe(1)
        expect(seen.connections - before).toBe(first.handshakes + 1)
        expect(other.enumeratedAs).toBe("a.example")
        expect(other.certificate?.hostnameMatch).toBe(true)
        // The rest is the first name's scan.
        const apart = (r: TlsScanResult) => ({ ...r, host: "", checkedAt: "", elapsedMs: 0, handshakes: 0 })
        expect({ ...apart(other), enumeratedAs: undefined }).toEqual(apart(first))
      }),
    30_000
  )

  it.live(
    "names at one address asked at once share one enumeration, and each finds what its own scan finds",
    () =>
      Effect.gen(function* () {
        const names = ["a.example", "b.example", "c.example", "d.example"]
        const alone = yield* Effect.forEach(names, (host) =>
          Effect.flatMap(makeScan(), (scan) => scan(host, address))
        )
        const before = seen.connections
        const scan = yield* makeScan()
        const together = yield* Effect.forEach(names, (host) => scan(host, address), {
          concurrency: "unbounded"
        })
        const enumerated = together.filter((r) => r.enumeratedAs === undefined)
        expect(enumerated).toHaveLength(1)
        expect(seen.connections - before).toBe(enumerated[0]!.handshakes + names.length - 1)
        // What the check reads is what each name's scan on its own finds.
        const read = (r: TlsScanResult) => ({
          host: r.host,
          status: r.status,
          versions: r.versions,
          suites: r.suites.map((s) => [s.cipher, s.version]),
          serverOrder: r.serverOrder,
          suitesComplete: r.suitesComplete,
          negotiated: r.negotiated,
          names: r.certificate?.chain[0]?.subjectAltNames,
          hostnameMatch: r.certificate?.hostnameMatch,
          ocspStapled: r.ocspStapled,
          extendedMasterSecret: r.extendedMasterSecret
        })
        expect(together.map(read)).toEqual(alone.map(read))
      }),
    60_000
  )

  it.live(
    "a name whose own handshake disagrees with the shared enumeration is enumerated on its own",
    () =>
      Effect.gen(function* () {
        const scan = yield* makeScan()
        const first = yield* scan("a.example", address)
        expect(first.versions["TLSv1.3"]).toBe("accepted")
        const before = seen.connections
        const odd = yield* scan("odd.example", address)
        // Its ordinary handshake got TLS 1.2 where the first name's got 1.3: its own versions.
        expect(odd.enumeratedAs).toBeUndefined()
        expect(odd.host).toBe("odd.example")
        expect(odd.negotiated?.protocol).toBe("TLSv1.2")
        expect(odd.versions["TLSv1.3"]).toBe("refused")
        expect(odd.versions["TLSv1.2"]).toBe("accepted")
        expect(odd.suites.every((s) => s.version === "TLSv1.2")).toBe(true)
        // One handshake to find out, then its own scan.
        expect(seen.connections - before).toBe(1 + odd.handshakes)
        // Asked again, it is remembered, and the others still share the first name's.
        expect(yield* scan("odd.example", address)).toBe(odd)
        expect((yield* scan("b.example", address)).enumeratedAs).toBe("a.example")
        expect(seen.connections - before).toBe(2 + odd.handshakes)
      }),
    30_000
  )

  it.live(
    "a certificate-only scan makes one handshake, asks no version or suite, and never answers for a full scan",
    () =>
      Effect.gen(function* () {
        const scans = yield* makeScans()
        const before = seen.connections
        const certificate = yield* scans.certificate("c.example", address)
        expect(certificate.status).toBe("complete")
        expect(certificate.enumerated).toBe(false)
        expect(certificate.handshakes).toBe(1)
        expect(seen.connections - before).toBe(1)
        expect(certificate.certificate?.trusted).toBe(true)
        expect(certificate.certificate?.hostnameMatch).toBe(true)
        expect(certificate.negotiated?.protocol).toBe("TLSv1.3")
        expect(certificate.suites).toEqual([])
        expect(Object.values(certificate.versions)).toEqual(["unknown", "unknown", "unknown", "unknown"])
        // Remembered apart: the same name's full scan is made in full, and asked again it is shared.
        expect(yield* scans.certificate("c.example", address)).toBe(certificate)
        const full = yield* scans.scan("c.example", address)
        expect(full.enumerated).toBeUndefined()
        expect(full.handshakes).toBeGreaterThan(4)
      }),
    30_000
  )

  it.live(
    "scans of several names at one address hold at most PER_DESTINATION_HTTP connections at once",
    () =>
      Effect.gen(function* () {
        const scan = yield* makeScan({ probeCacheTtlMs: 0 })
        acceptDelayMs = 100
        seen.maxWaiting = 0
        const results = yield* Effect.forEach(
          ["a.example", "b.example", "c.example", "d.example"],
          (host) => scan(host, address),
          { concurrency: "unbounded" }
        )
        acceptDelayMs = 0
        for (const r of results) expect(r.status).toBe("complete")
        // Unbounded, the four scans' version handshakes alone would be 12 at once.
        expect(seen.maxWaiting).toBe(2)
      }),
    30_000
  )

  it.live(
    "past HTTP_TIMEOUT_MS the suites found so far are the answer, marked incomplete",
    () =>
      Effect.gen(function* () {
        const full = yield* (yield* makeScan({ probeCacheTtlMs: 0 }))("a.example", address)
        expect(full.suitesComplete).toBe(true)
        acceptDelayMs = 100
        const partial = yield* (yield* makeScan({ probeCacheTtlMs: 0, timeoutMs: 400 }))("a.example", address)
        acceptDelayMs = 0
        expect(partial.status).toBe("complete")
        expect(partial.versions).toEqual(full.versions)
        expect(partial.suitesComplete).toBe(false)
        expect(partial.suites.length).toBeGreaterThanOrEqual(1)
        expect(partial.suites.length).toBeLessThan(full.suites.length)
        expect(partial.handshakes).toBeLessThan(full.handshakes)
      }),
    30_000
  )

  it.live(
    "an address that refuses connections is closed, and its other names are not knocked on again",
    () =>
      Effect.gen(function* () {
        const scan = yield* makeScan()
        const first = yield* scan("a.example", silentAddress)
        expect(first.status).toBe("closed")
        expect(first.failure).toMatch(/ECONNREFUSED/)
        const second = yield* scan("b.example", silentAddress)
        expect(second.status).toBe("closed")
        expect(second.failure).toMatch(/not contacted.*ECONNREFUSED/)
      }),
    30_000
  )

  it.live("a refusal a page fetch met first is still a refusal to the scan, never a silence", () =>
    Effect.gen(function* () {
      const s = settings()
      const destinations = webDestinations(s)
      const web = makeWeb(s, () => Effect.succeed({ v4: [silentAddress], v6: [] }), destinations)
      const fetched = yield* Effect.flip(web.get("https://c.example/"))
      expect(fetched.reason).toBe("connect")
      // The page's error does not tell refused from silent; the backoff remembers which it was.
      expect(fetched.message).not.toMatch(/refused/i)
      expect(destinations.backedOff(silentAddress, 443)?.connectionRefused).toBe(true)
      const scan = yield* (yield* makeWebTlsScan(s, destinations)).scan("c.example", silentAddress)
      expect(scan.status).toBe("closed")
      expect(scan.failure).toMatch(/not contacted.*ECONNREFUSED/)
    })
  )

  it.live(
    "a refusal a page fetch met first is still a refusal to the key-exchange probe: no TLS, never unknown",
    () =>
      Effect.gen(function* () {
        const s = settings()
        const destinations = webDestinations(s)
        const web = makeWeb(s, () => Effect.succeed({ v4: [silentAddress], v6: [] }), destinations)
        expect((yield* Effect.flip(web.get("https://d.example/"))).message).not.toMatch(/refused/i)
        const answer = yield* (yield* makeWebKeyExchange(s, destinations))("e.example", silentAddress)
        expect(answer.kind === "unknown" && answer.message).toMatch(/not contacted.*ECONNREFUSED/)
        const asked = { service: "web", host: "e.example", address: silentAddress, answer } as const
        expect(serverOf(asked).verdict).toBe("no-tls")
      })
  )

  it.live("an address the policy forbids is not contacted", () =>
    Effect.gen(function* () {
      const s = settings()
      const scans = yield* makeWebTlsScan({ ...s, allow: [] }, webDestinations(s))
      const before = seen.connections
      expect((yield* scans.scan("a.example", address)).status).toBe("refused")
      expect((yield* scans.certificate("a.example", address)).status).toBe("refused")
      expect(seen.connections).toBe(before)
    })
  )
})
