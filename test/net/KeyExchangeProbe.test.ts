/**
 * The key-exchange probe against node's own TLS servers on loopback: the group the server takes is
 * read from its first message, whatever the runtime's OpenSSL. Under Node.js 20 (OpenSSL 3.0) a
 * server cannot take the hybrid and asks for its group with a HelloRetryRequest; under Node.js 24
 * (OpenSSL 3.5, the test command's last step) a server offering X25519MLKEM768 takes our share.
 */
import * as net from "node:net"
import * as tls from "node:tls"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { probeKeyExchange } from "../../src/net/KeyExchangeProbe.ts"
import { tcpOpener } from "../../src/net/TlsHandshake.ts"
import { makePki, type TestPki } from "./pki.ts"

const [major = 0, minor = 0] = process.versions.openssl.split(".").map(Number)
/** OpenSSL 3.5 and later know X25519MLKEM768. */
const hybridRuntime = major > 3 || (major === 3 && minor >= 5)

let pki: TestPki
const servers: Array<net.Server> = []

/** A TLS server on a free loopback port taking `groups` (OpenSSL's list), or plain bytes. */
const serve = async (server: net.Server): Promise<number> => {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  return (server.address() as net.AddressInfo).port
}
const tlsServer = (groups?: string) => {
  const s = tls.createServer({
    cert: pki.leafPem,
    key: pki.leafKey,
    minVersion: "TLSv1.2",
    ...(groups ? { ecdhCurve: groups } : {})
  })
  s.on("tlsClientError", () => {})
  return s
}
const probe = (port: number) => probeKeyExchange(tcpOpener("127.0.0.1", port, 2_000), "a.example", 5_000)

beforeAll(() => {
  pki = makePki({ names: ["a.example"] })
})
afterAll(() => {
  for (const s of servers) s.close()
  pki.cleanup()
})

describe("the key-exchange probe", () => {
  it.live("reads the classical group a server asks for with a HelloRetryRequest", () =>
    Effect.gen(function* () {
      const port = yield* Effect.promise(() => serve(tlsServer("P-256")))
      expect(yield* probe(port)).toEqual({
        kind: "selected",
        group: 0x0017,
        groupName: "secp256r1",
        hybrid: false,
        helloRetry: true
      })
    })
  )

  it.live.skipIf(!hybridRuntime)("under OpenSSL 3.5, a server offering X25519MLKEM768 takes our share", () =>
    Effect.gen(function* () {
      const port = yield* Effect.promise(() => serve(tlsServer("X25519MLKEM768:X25519")))
      expect(yield* probe(port)).toMatchObject({
        groupName: "X25519MLKEM768",
        hybrid: true,
        helloRetry: false
      })
    })
  )

  it.live("a server that is no TLS, or closes, is unknown or refused, never a group", () =>
    Effect.gen(function* () {
      const smtp = yield* Effect.promise(() =>
        serve(net.createServer((s) => s.end("220 mx.example ESMTP\r\n")))
      )
      const outcome = yield* probe(smtp)
      expect(["unknown", "refused"]).toContain(outcome.kind)
      const closed = yield* Effect.promise(() =>
        serve(net.createServer((s) => s.once("data", () => s.end())))
      )
      expect((yield* probe(closed)).kind).toBe("refused")
    })
  )
})
