import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AddressInfo } from "node:net"
import * as tls from "node:tls"
import { KeptPeer, peerCertificates, peerJudged, probeSecureContext } from "../../src/net/TlsPeer.ts"
import { makePki, type TestPki } from "./pki.ts"

let pki: TestPki
let server: tls.Server
let port = 0

beforeAll(async () => {
  pki = makePki({ names: ["good.example.net"] })
  server = tls.createServer({ key: pki.leafKey, cert: pki.leafPem }, (socket) => socket.end())
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(() => {
  server?.close()
  pki?.cleanup()
})

/** A connection to the test server for `servername`, trusting `ca`, with `kept` as its name check. */
const connect = (servername: string, ca: ReadonlyArray<string>, kept: KeptPeer) =>
  new Promise<tls.TLSSocket>((resolve, reject) => {
    const socket = tls.connect({
      host: "127.0.0.1",
      port,
      servername,
      ca: [...ca],
      rejectUnauthorized: false,
      checkServerIdentity: kept.checkServerIdentity
    })
    socket.once("secureConnect", () => resolve(socket))
    socket.once("error", reject)
  })

describe("KeptPeer", () => {
  it("keeps node's reading of a verified chain: the same chain and the same judgement as a reading of its own", async () => {
    for (const name of ["good.example.net", "other.example.net"]) {
      const kept = new KeptPeer()
      const socket = await connect(name, [pki.caPem], kept)
      expect(kept.leaf?.raw).toBeDefined()
      expect(peerCertificates(socket, kept).chain).toEqual(peerCertificates(socket).chain)
      expect(peerJudged(socket, name, kept).judged).toEqual(peerJudged(socket, name).judged)
      // node's own name check, unchanged: a name the certificate lacks is its authorisation error.
      expect(socket.authorized).toBe(name === "good.example.net")
      socket.destroy()
    }
  })

  it("keeps nothing when the chain did not verify (node reads no certificate then): the socket is read", async () => {
    const kept = new KeptPeer()
    const socket = await connect("good.example.net", [], kept)
    expect(kept.leaf).toBeUndefined()
    expect(peerCertificates(socket, kept).chain.length).toBeGreaterThan(0)
    socket.destroy()
  })
})

describe("probeSecureContext", () => {
  const offer = { minVersion: "TLSv1.2", maxVersion: "TLSv1.3", ciphers: "DEFAULT" } as const
  const over = (secureContext: tls.SecureContext, kept: KeptPeer) =>
    new Promise<tls.TLSSocket>((resolve, reject) => {
      const socket = tls.connect({
        host: "127.0.0.1",
        port,
        servername: "good.example.net",
        secureContext,
        rejectUnauthorized: false,
        checkServerIdentity: kept.checkServerIdentity
      })
      socket.once("secureConnect", () => resolve(socket))
      socket.once("error", reject)
    })

  it("trusts nothing: a probe's handshake completes and node reads none of a chain another store verifies", async () => {
    const trusting = new KeptPeer()
    const verified = await over(tls.createSecureContext({ ...offer, ca: [pki.caPem] }), trusting)
    expect(verified.authorized).toBe(true)
    expect(trusting.leaf).toBeDefined()
    verified.destroy()
    const kept = new KeptPeer()
    const probe = await over(probeSecureContext(offer), kept)
    expect(probe.authorized).toBe(false)
    expect(probe.getProtocol()).toBe("TLSv1.3")
    expect(kept.leaf).toBeUndefined()
    probe.destroy()
  })

  it("is built once per offer", () => {
    expect(probeSecureContext({ ...offer })).toBe(probeSecureContext({ ...offer }))
    expect(probeSecureContext({ ...offer, maxVersion: "TLSv1.2" })).not.toBe(probeSecureContext(offer))
  })
})
