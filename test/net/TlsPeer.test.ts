import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as net from "node:net"
import type { AddressInfo } from "node:net"
import * as tls from "node:tls"
import {
  KeptPeer,
  peerCertificates,
  peerJudged,
  probeSecureContext,
  sharedSecureContext
} from "../../src/net/TlsPeer.ts"
import { extensionsOf } from "./helloExtensions.ts"
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

/**
 * The supported groups and key shares of the ClientHello that `secureContext` sends (RFC 8446 4.1.2,
 * 4.2.7, 4.2.8), read by a TCP server that answers nothing.
 */
const offeredGroups = (secureContext: tls.SecureContext) =>
  new Promise<{ groups: Array<number>; keyShares: Array<number> }>((resolve, reject) => {
    const listener = net.createServer((socket) =>
      socket.once("data", (record: Buffer) => {
        socket.destroy()
        listener.close()
        const ext = extensionsOf(record)
        const groups = Buffer.from(ext.get(10) ?? [0, 0])
        const shares = Buffer.from(ext.get(51) ?? [0, 0])
        const found = { groups: [] as Array<number>, keyShares: [] as Array<number> }
        for (let i = 2; i < groups.length; i += 2) found.groups.push(groups.readUInt16BE(i))
        for (let i = 2; i < shares.length; i += 4 + shares.readUInt16BE(i + 2))
          found.keyShares.push(shares.readUInt16BE(i))
        resolve(found)
      })
    )
    listener.listen(0, "127.0.0.1", () => {
      const socket = tls.connect({
        host: "127.0.0.1",
        port: (listener.address() as AddressInfo).port,
        servername: "good.example.net",
        secureContext,
        rejectUnauthorized: false
      })
      socket.on("error", () => {})
    })
    listener.on("error", reject)
  })

describe("the groups our handshakes offer", () => {
  // X25519, P-256, X448, P-521, P-384, then the finite-field groups (RFC 7919): OpenSSL 3.0's default
  const CLASSIC = [0x1d, 0x17, 0x1e, 0x19, 0x18, 0x100, 0x101, 0x102, 0x103, 0x104]

  it(`are OpenSSL 3.0's, with one key share for X25519, on node ${process.version} too`, async () => {
    const offer = { minVersion: "TLSv1.2", maxVersion: "TLSv1.3", ciphers: "DEFAULT" } as const
    for (const context of [probeSecureContext(offer), sharedSecureContext([pki.caPem], offer)])
      expect(await offeredGroups(context)).toEqual({ groups: CLASSIC, keyShares: [0x1d] })
  })
})
