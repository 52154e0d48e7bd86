/**
 * The NCSC-NL 2025 facts of a TLS scan (TlsScan.ts) against node's own TLS servers on loopback:
 * Extended Master Secret on TLS 1.2 read by the scan's own TLS 1.2 ClientHello (on, off, not asked
 * where TLS 1.2 is refused), and OCSP stapling with the certificate's responder, then rated
 * (kernel/TlsServerRating.ts) as the web and mail checks rate them.
 */
import * as net from "node:net"
import * as tls from "node:tls"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { rateTlsServer } from "../../src/kernel/TlsServerRating.ts"
import { tcpOpener } from "../../src/net/TlsHandshake.ts"
import { scanTls } from "../../src/net/TlsScan.ts"
import { makePki, type TestPki } from "./pki.ts"

/** SSL_OP_NO_EXTENDED_MASTER_SECRET (OpenSSL 3.0 ssl.h: bit 0); node does not name it. */
const NO_EXTENDED_MASTER_SECRET = 1

let plain: TestPki
let withOcsp: TestPki
const servers: Array<net.Server> = []

const serve = async (server: tls.Server): Promise<number> => {
  server.on("tlsClientError", () => {})
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  return (server.address() as net.AddressInfo).port
}

const scan = (pki: TestPki, port: number) =>
  scanTls(
    { ca: [pki.caPem], handshakeTimeoutMs: 3_000, maxHandshakes: 48, concurrency: 3 },
    "a.example",
    "127.0.0.1",
    port,
    tcpOpener("127.0.0.1", port, 3_000)
  )

beforeAll(() => {
  plain = makePki({ names: ["a.example"] })
  withOcsp = makePki({ names: ["a.example"], ocspUrl: "http://ocsp.a.example/" })
})
afterAll(() => {
  for (const s of servers) s.close()
  plain.cleanup()
  withOcsp.cleanup()
})

describe("a TLS scan under the NCSC-NL 2025 guidelines", () => {
  it.live("reads Extended Master Secret on TLS 1.2, on and off, and counts its handshake", () =>
    Effect.gen(function* () {
      const on = yield* Effect.promise(() =>
        serve(tls.createServer({ cert: plain.leafPem, key: plain.leafKey }))
      )
      const off = yield* Effect.promise(() =>
        serve(
          tls.createServer({
            cert: plain.leafPem,
            key: plain.leafKey,
            secureOptions: NO_EXTENDED_MASTER_SECRET
          })
        )
      )
      const good = yield* scan(plain, on)
      expect(good.extendedMasterSecret).toBe(true)
      expect(rateTlsServer(good, new Date()).extendedMasterSecretRating).toBe("good")
      const bad = yield* scan(plain, off)
      expect(bad.extendedMasterSecret).toBe(false)
      const rated = rateTlsServer(bad, new Date())
      expect([rated.extendedMasterSecretRating, rated.rating, rated.status]).toEqual([
        "insufficient",
        "insufficient",
        "fail"
      ])
    })
  )

  it.live("does not ask where TLS 1.2 is refused", () =>
    Effect.gen(function* () {
      const modern = yield* Effect.promise(() =>
        serve(tls.createServer({ cert: plain.leafPem, key: plain.leafKey, minVersion: "TLSv1.3" }))
      )
      const r = yield* scan(plain, modern)
      expect(r.versions["TLSv1.2"]).toBe("refused")
      expect(r.extendedMasterSecret).toBeNull()
      expect(rateTlsServer(r, new Date())).toMatchObject({ extendedMasterSecretRating: null, rating: "good" })
    })
  )

  it.live("rates OCSP stapling only where the certificate names a responder", () =>
    Effect.gen(function* () {
      const stapling = tls.createServer({ cert: withOcsp.leafPem, key: withOcsp.leafKey })
      // Any bytes will do: the scan records that a response was stapled, not what it says.
      stapling.on("OCSPRequest", (_cert, _issuer, done) =>
        done(null, Buffer.from([0x30, 0x03, 0x0a, 0x01, 0x00]))
      )
      const stapled = yield* scan(withOcsp, yield* Effect.promise(() => serve(stapling)))
      expect([stapled.ocspStapled, stapled.certificate?.ocspResponder]).toEqual([true, true])
      expect(rateTlsServer(stapled, new Date()).ocspStaplingRating).toBe("good")
      const silent = yield* scan(
        withOcsp,
        yield* Effect.promise(() =>
          serve(tls.createServer({ cert: withOcsp.leafPem, key: withOcsp.leafKey }))
        )
      )
      expect([silent.ocspStapled, rateTlsServer(silent, new Date()).ocspStaplingRating]).toEqual([
        false,
        "sufficient"
      ])
      const none = yield* scan(
        plain,
        yield* Effect.promise(() => serve(tls.createServer({ cert: plain.leafPem, key: plain.leafKey })))
      )
      expect([none.certificate?.ocspResponder, rateTlsServer(none, new Date()).ocspStaplingRating]).toEqual([
        false,
        null
      ])
    })
  )
})
