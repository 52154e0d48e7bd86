import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import {
  decodeEchConfigList,
  ECH_VERSION,
  type EchConfigContents,
  type EchConfigEntry,
  encodeEchConfigList,
  readEchConfigList
} from "../../src/records/EchConfig.ts"
import { runs } from "../support/runs.ts"

/** tls-ech.dev's published ECHConfigList (one X25519 config, public name public.tls-ech.dev). */
const TLS_ECH_DEV =
  "AEn+DQBFKwAgACABWIHUGj4u+PIggYXcR5JF0gYk3dCRioBW8uJq9H4mKAAIAAEAAQABAANAEnB1YmxpYy50bHMtZWNoLmRldgAA"

const good: EchConfigContents = {
  configId: 7,
  kemId: 0x0020,
  publicKey: "11".repeat(32),
  cipherSuites: [{ kdfId: 1, aeadId: 1 }],
  maximumNameLength: 0,
  publicName: "ech.example.com",
  extensions: []
}
const config = (c: Partial<EchConfigContents>): EchConfigEntry => ({
  version: ECH_VERSION,
  contents: { ...good, ...c }
})
const read = (entries: ReadonlyArray<EchConfigEntry>) => readEchConfigList(encodeEchConfigList(entries))

describe("ECHConfigList (RFC 9849 §4, RFC 9848)", () => {
  it("reads a real list: version, KEM, suites, public name", () => {
    const r = readEchConfigList(Buffer.from(TLS_ECH_DEV, "base64"))
    expect(r).toEqual({
      configs: [
        {
          version: "0xfe0d",
          configId: 43,
          kem: "DHKEM(X25519, HKDF-SHA256)",
          publicKeyLength: 32,
          cipherSuites: ["HKDF-SHA256/AES-128-GCM", "HKDF-SHA256/ChaCha20Poly1305"],
          maximumNameLength: 64,
          publicName: "public.tls-ech.dev",
          extensions: [],
          usable: true,
          problems: []
        }
      ],
      problems: [],
      usable: true
    })
  })

  it("skips a version it does not know and keeps the list usable when another config is", () => {
    const r = read([{ version: 0xfe0a, contents: null, raw: "0102" }, config({})])
    expect(r.configs.map((c) => [c.version, c.usable])).toEqual([
      ["0xfe0a", false],
      ["0xfe0d", true]
    ])
    expect(r.configs[0]!.problems[0]).toMatch(/clients support: they skip it/)
    expect(r).toMatchObject({ usable: true, problems: [] })
  })

  it("says what makes a config unusable", () => {
    const problem = (c: Partial<EchConfigContents>) => read([config(c)]).configs[0]!.problems.join(" | ")
    expect(problem({ kemId: 0x0010 })).toMatch(/P-256.*32 bytes, not 65/)
    expect(problem({ kemId: 0x0099 })).toMatch(/KEM 0x0099 is not an HPKE KEM/)
    expect(problem({ cipherSuites: [] })).toMatch(/no cipher suite is listed/)
    expect(problem({ cipherSuites: [{ kdfId: 1, aeadId: 0xffff }] })).toMatch(/AEAD that seals/)
    expect(problem({ publicName: "192.0.2.1" })).toMatch(/IPv4 address/)
    expect(problem({ publicName: "bad_name.example" })).toMatch(/LDH labels/)
    expect(problem({ extensions: [{ type: 0xfe01, data: "" }] })).toMatch(/mandatory extension 0xfe01/)
    expect(problem({ extensions: [{ type: 1, data: "" }] })).toBe("")
    const none = read([config({ publicName: "192.0.2.1" })])
    expect(none.usable).toBe(false)
    expect(none.problems).toEqual([
      "no configuration in the list is one a client can use, so ECH is not offered"
    ])
  })

  it("a list whose lengths do not add up is a problem, not a crash", () => {
    const bytes = encodeEchConfigList([config({})])
    expect(readEchConfigList(bytes.subarray(0, bytes.length - 3)).problems[0]).toMatch(/length/)
    expect(readEchConfigList(new Uint8Array([0, 0])).problems).toEqual([
      "the list is shorter than one configuration (RFC 9849 §4)"
    ])
  })

  const hex = (min: number, max: number) =>
    fc.uint8Array({ minLength: min, maxLength: max }).map((b) => Buffer.from(b).toString("hex"))
  const contents: fc.Arbitrary<EchConfigContents> = fc.record({
    configId: fc.integer({ min: 0, max: 255 }),
    kemId: fc.oneof(fc.constantFrom(0x10, 0x11, 0x12, 0x20, 0x21), fc.integer({ min: 0, max: 0xffff })),
    publicKey: hex(1, 140),
    cipherSuites: fc.array(
      fc.record({ kdfId: fc.integer({ min: 0, max: 0xffff }), aeadId: fc.integer({ min: 0, max: 0xffff }) }),
      { minLength: 1, maxLength: 4 }
    ),
    maximumNameLength: fc.integer({ min: 0, max: 255 }),
    publicName: fc.stringMatching(/^[a-z0-9.-]{1,40}$/),
    extensions: fc.array(fc.record({ type: fc.integer({ min: 0, max: 0xffff }), data: hex(0, 8) }), {
      maxLength: 3
    })
  })
  const entry: fc.Arbitrary<EchConfigEntry> = fc.oneof(
    contents.map((c): EchConfigEntry => ({ version: ECH_VERSION, contents: c })),
    fc
      .record({
        version: fc.integer({ min: 0, max: 0xffff }).filter((v) => v !== ECH_VERSION),
        raw: hex(0, 20)
      })
      .map((e): EchConfigEntry => ({ ...e, contents: null }))
  )

  it("decodes what it encodes: generated lists -> bytes -> decode (property)", () =>
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 4 }), (entries) => {
        const decoded = decodeEchConfigList(encodeEchConfigList(entries))
        expect(decoded.problems).toEqual([])
        expect(decoded.entries).toEqual(entries)
      }),
      { numRuns: runs(200) }
    ))

  it("is total over any bytes (property)", () =>
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const r = readEchConfigList(bytes)
        expect(r.usable).toBe(r.problems.length === 0 && r.configs.some((c) => c.usable))
      }),
      { numRuns: runs(300) }
    ))
})
