/**
 * The hybrid-first ClientHello and the reading of a server's first message (RFC 8446 4.1.2-4.1.4):
 * the parser reads back every ServerHello and HelloRetryRequest it is given, whole or cut into
 * pieces, and the ClientHello carries a key share a server's ML-KEM input check accepts.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { outcomeOf } from "../../src/net/KeyExchangeProbe.ts"
import { tls12ExtensionsOf } from "../../src/net/ExtendedMasterSecret.ts"
import {
  clientHello,
  clientHello12,
  EXTENDED_MASTER_SECRET,
  HELLO_RETRY_RANDOM,
  OFFERED_GROUPS,
  readServerHello,
  serverHelloRecord,
  STATUS_REQUEST,
  X25519_MLKEM768
} from "../../src/net/TlsHello.ts"
import { HYBRID_SHARE_BYTES, hybridShare, wellFormedShare } from "../../src/net/HybridShare.ts"
import { runs } from "../support/runs.ts"
import { extensionsOf } from "./helloExtensions.ts"

const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n })
const entropy = fc.record({ random: bytes(32), sessionId: bytes(32), share: bytes(2 * HYBRID_SHARE_BYTES) })

const serverHello = fc.record({
  helloRetry: fc.boolean(),
  random: bytes(32).filter((r) => !r.every((b, i) => b === HELLO_RETRY_RANDOM[i])),
  sessionId: fc.uint8Array({ maxLength: 32 }),
  cipherSuite: fc.integer({ min: 0, max: 0xffff }),
  version: fc.option(fc.integer({ min: 0, max: 0xffff }), { nil: null }),
  group: fc.option(fc.integer({ min: 0, max: 0xffff }), { nil: null }),
  share: fc.uint8Array({ maxLength: 1200 }),
  more: fc.uniqueArray(fc.constantFrom(EXTENDED_MASTER_SECRET, STATUS_REQUEST, 0xff01, 16))
})

describe("the ClientHello", () => {
  it("is one handshake record whose lengths add up, with a hybrid share of 1184 + 32 bytes", () => {
    fc.assert(
      fc.property(
        entropy,
        fc.constantFrom("example.com", "mx.example.net.", "192.0.2.1", null),
        (e, name) => {
          const record = clientHello(name, e)
          expect(record[0]).toBe(22)
          expect((record[3]! << 8) | record[4]!).toBe(record.length - 5)
          expect(record[5]).toBe(1)
          const ext = extensionsOf(record)
          const share = ext.get(51)!
          expect((share[2]! << 8) | share[3]!).toBe(X25519_MLKEM768)
          expect((share[4]! << 8) | share[5]!).toBe(HYBRID_SHARE_BYTES)
          expect(wellFormedShare(share.subarray(6))).toBe(true)
          // supported_groups: the hybrids first, as listed.
          const groups = ext.get(10)!
          expect([...groups.subarray(2)].length).toBe(2 * OFFERED_GROUPS.length)
          expect((groups[2]! << 8) | groups[3]!).toBe(X25519_MLKEM768)
          // supported_versions: TLS 1.3 alone; SNI only for a host name (RFC 6066 3).
          expect([...ext.get(43)!]).toEqual([2, 3, 4])
          expect(ext.has(0)).toBe(name !== null && name !== "192.0.2.1")
        }
      ),
      { numRuns: runs(50) }
    )
  })

  it("keeps every ML-KEM coefficient below q, which purely random bytes would not", () => {
    fc.assert(
      fc.property(bytes(2 * HYBRID_SHARE_BYTES), (b) => wellFormedShare(hybridShare(b))),
      { numRuns: runs(100) }
    )
    expect(wellFormedShare(new Uint8Array(HYBRID_SHARE_BYTES).fill(0xff))).toBe(false)
  })
})

describe("the TLS 1.2 ClientHello", () => {
  it("offers TLS 1.2 at most, Extended Master Secret and status_request, and no supported_versions", () => {
    fc.assert(
      fc.property(bytes(32), fc.constantFrom("example.com", "192.0.2.1", null), (random, name) => {
        const record = clientHello12(name, random)
        expect(record[0]).toBe(22)
        expect((record[3]! << 8) | record[4]!).toBe(record.length - 5)
        expect([record[9], record[10]]).toEqual([3, 3])
        const ext = extensionsOf(record)
        expect([...ext.get(EXTENDED_MASTER_SECRET)!]).toEqual([])
        expect([...ext.get(STATUS_REQUEST)!]).toEqual([1, 0, 0, 0, 0])
        expect(ext.has(43)).toBe(false)
        expect(ext.has(0)).toBe(name === "example.com")
      }),
      { numRuns: runs(50) }
    )
  })

  it("reads Extended Master Secret and status_request from a TLS 1.2 ServerHello (RFC 7627 5.2)", () => {
    fc.assert(
      fc.property(serverHello, (f) => {
        const read = readServerHello(serverHelloRecord({ ...f, helloRetry: false, version: null }))
        expect(read.done).toBe(true)
        if (!read.done) return
        expect(tls12ExtensionsOf(read.reading)).toEqual({
          kind: "answered",
          extendedMasterSecret: f.more.includes(EXTENDED_MASTER_SECRET),
          statusRequest: f.more.includes(STATUS_REQUEST)
        })
      }),
      { numRuns: runs(100) }
    )
    expect(tls12ExtensionsOf({ kind: "alert", level: 2, description: 70 }).kind).toBe("refused")
    expect(
      tls12ExtensionsOf({
        kind: "server-hello",
        version: 0x0304,
        cipherSuite: 0x1301,
        group: 0x1d,
        shareLength: 32,
        extensions: [43, 51]
      }).kind
    ).toBe("unknown")
  })
})

describe("reading the server's first message", () => {
  it("reads back every ServerHello and HelloRetryRequest, however the bytes arrive", () => {
    fc.assert(
      fc.property(serverHello, fc.array(fc.nat(), { maxLength: 4 }), (f, cuts) => {
        const record = serverHelloRecord(f)
        // Nothing before the last byte decides, so a slow server is waited for.
        for (const cut of cuts) {
          const at = cut % record.length
          expect(readServerHello(record.subarray(0, at))).toEqual({ done: false })
        }
        // A change_cipher_spec record after it (RFC 8446 D.4) is not read.
        const read = readServerHello(Uint8Array.from([...record, 20, 3, 3, 0, 1, 1]))
        expect(read.done).toBe(true)
        if (!read.done) return
        if (f.helloRetry) {
          expect(read.reading).toEqual({ kind: "hello-retry", cipherSuite: f.cipherSuite, group: f.group })
        } else
          expect(read.reading).toEqual({
            kind: "server-hello",
            version: f.version ?? 0x0303,
            cipherSuite: f.cipherSuite,
            group: f.group,
            shareLength: f.group === null ? null : f.share.length,
            extensions: [...(f.version === null ? [] : [43]), ...(f.group === null ? [] : [51]), ...f.more]
          })
      }),
      { numRuns: runs(100) }
    )
  })

  it("recognises a HelloRetryRequest by its special Random alone (RFC 8446 4.1.3)", () => {
    const hrr = serverHelloRecord({
      helloRetry: true,
      random: new Uint8Array(32),
      sessionId: new Uint8Array(32),
      cipherSuite: 0x1301,
      version: 0x0304,
      group: 0x001d,
      share: new Uint8Array()
    })
    const read = readServerHello(hrr)
    expect(read).toEqual({ done: true, reading: { kind: "hello-retry", cipherSuite: 0x1301, group: 0x001d } })
    if (read.done)
      expect(outcomeOf(read.reading)).toEqual({
        kind: "selected",
        group: 0x001d,
        groupName: "x25519",
        hybrid: false,
        helloRetry: true
      })
  })

  it("tells a hybrid, TLS 1.2, an alert and bytes that are not TLS apart", () => {
    const hello = (version: number | null, group: number | null) =>
      readServerHello(
        serverHelloRecord({
          helloRetry: false,
          random: new Uint8Array(32).fill(7),
          sessionId: new Uint8Array(),
          cipherSuite: 0x1301,
          version,
          group,
          share: new Uint8Array(1120)
        })
      )
    const outcome = (r: ReturnType<typeof readServerHello>) => (r.done ? outcomeOf(r.reading).kind : "more")
    const hybrid = hello(0x0304, X25519_MLKEM768)
    expect(hybrid.done && outcomeOf(hybrid.reading)).toMatchObject({
      groupName: "X25519MLKEM768",
      hybrid: true
    })
    expect(outcome(hello(null, null))).toBe("no-tls13")
    expect(outcome(readServerHello(Uint8Array.from([21, 3, 3, 0, 2, 2, 40])))).toBe("refused")
    expect(outcome(readServerHello(Uint8Array.from([21, 3, 3, 0, 2, 2, 70])))).toBe("no-tls13")
    expect(outcome(readServerHello(new TextEncoder().encode("HTTP/1.1 400 Bad Request\r\n")))).toBe("unknown")
  })

  it("never throws on arbitrary bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        const r = readServerHello(b)
        if (r.done) outcomeOf(r.reading)
      }),
      { numRuns: runs(200) }
    )
  })
})
