/**
 * The TLS 1.2 extension probe against node's own TLS servers on loopback: one that negotiates
 * Extended Master Secret (OpenSSL's default) and one with it turned off, and servers that do not
 * speak TLS 1.2 or TLS at all.
 */
import * as net from "node:net"
import * as tls from "node:tls"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { probeTls12Extensions } from "../../src/net/ExtendedMasterSecret.ts"
import { tcpOpener } from "../../src/net/TlsHandshake.ts"
import { makePki, type TestPki } from "./pki.ts"

/** SSL_OP_NO_EXTENDED_MASTER_SECRET (OpenSSL 3.0 ssl.h: bit 0); node does not name it. */
const NO_EXTENDED_MASTER_SECRET = 1

let pki: TestPki
const servers: Array<net.Server> = []

const serve = async (server: net.Server): Promise<number> => {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  return (server.address() as net.AddressInfo).port
}
const tlsServer = (options: tls.TlsOptions) => {
  const s = tls.createServer({ cert: pki.leafPem, key: pki.leafKey, ...options })
  s.on("tlsClientError", () => {})
  return s
}
const probe = (port: number) => probeTls12Extensions(tcpOpener("127.0.0.1", port, 2_000), "a.example", 5_000)

beforeAll(() => {
  pki = makePki({ names: ["a.example"] })
})
afterAll(() => {
  for (const s of servers) s.close()
  pki.cleanup()
})

describe("the TLS 1.2 extension probe", () => {
  it.live("reads Extended Master Secret from a server that negotiates it, and its absence", () =>
    Effect.gen(function* () {
      const on = yield* Effect.promise(() => serve(tlsServer({})))
      expect(yield* probe(on)).toEqual({ kind: "answered", extendedMasterSecret: true, statusRequest: false })
      const off = yield* Effect.promise(() => serve(tlsServer({ secureOptions: NO_EXTENDED_MASTER_SECRET })))
      expect(yield* probe(off)).toMatchObject({ kind: "answered", extendedMasterSecret: false })
    })
  )

  it.live("a TLS 1.3-only server refuses; a server that is no TLS is never an answer", () =>
    Effect.gen(function* () {
      const modern = yield* Effect.promise(() => serve(tlsServer({ minVersion: "TLSv1.3" })))
      expect((yield* probe(modern)).kind).toBe("refused")
      const smtp = yield* Effect.promise(() =>
        serve(net.createServer((s) => s.end("220 mx.example ESMTP\r\n")))
      )
      expect(["unknown", "refused"]).toContain((yield* probe(smtp)).kind)
    })
  )
})
