/**
 * TLSA from a chain (RFC 7671 5): usages 1 and 3 use the leaf, 0 and 2 the trust
 * anchor (the last CA certificate, or the one named); the result says which, and warns when the
 * usage and the certificate disagree. Digests are checked against openssl's own.
 */
import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { generate } from "../../src/generate/TlsaGenerator.ts"
import { makePki } from "../net/pki.ts"

const pki = makePki({ names: ["mx.example.com"] })
const spkiSha256 = (file: string) => {
  const pub = execFileSync("openssl", ["x509", "-in", join(pki.dir, file), "-pubkey", "-noout"])
  const der = execFileSync("openssl", ["pkey", "-pubin", "-outform", "DER"], { input: pub })
  return execFileSync("openssl", ["dgst", "-sha256", "-r"], { input: der }).toString().split(" ")[0]!
}
const CHAIN = pki.leafPem + pki.caPem
const base = { selector: 1, matching: 1, host: "mx.example.com", port: 25 }
const ok = (r: ReturnType<typeof generate>) => {
  if (Either.isLeft(r)) throw new Error(r.left.message)
  return r.right
}

describe("TLSA from a chain", () => {
  it("usage 2 uses the trust anchor (the last CA), says so, and does not warn", () => {
    const r = ok(generate({ ...base, usage: 2, pem: CHAIN }))
    expect(r.certificateAssociationData).toBe(spkiSha256("ca.pem"))
    expect(r.certificate).toMatchObject({ index: 1, isCa: true })
    expect(r.certificate!.subject).toContain("CN=domain-audit test CA")
    expect(r.chainLength).toBe(2)
    expect(r.warnings.some((w) => w.includes("made from certificate 2 of 2"))).toBe(true)
    expect(r.warnings.some((w) => w.includes("not a CA"))).toBe(false)
  })
  it("usage 3 uses the leaf of the same chain", () => {
    const r = ok(generate({ ...base, usage: 3, pem: CHAIN }))
    expect(r.certificateAssociationData).toBe(spkiSha256("leaf.pem"))
    expect(r.certificate).toMatchObject({ index: 0, isCa: false })
  })
  it("usage 2 with the leaf alone warns that it is not a CA; usage 3 with a CA warns too", () => {
    const ta = ok(generate({ ...base, usage: 2, pem: pki.leafPem }))
    expect(ta.warnings.some((w) => w.includes("usage 2 (DANE-TA)") && w.includes("CA:FALSE"))).toBe(true)
    const ee = ok(generate({ ...base, usage: 3, pem: pki.caPem }))
    expect(ee.warnings.some((w) => w.includes("is a CA certificate"))).toBe(true)
  })
  it("a named anchor is used; an unknown name is refused on the anchor field", () => {
    const r = ok(generate({ ...base, usage: 0, pem: CHAIN, anchor: "domain-audit test CA" }))
    expect(r.certificate?.index).toBe(1)
    const bad = generate({ ...base, usage: 2, pem: CHAIN, anchor: "Nobody" })
    expect(Either.isLeft(bad) && bad.left.field).toBe("anchor")
  })
  it("refuses a mix of certificates and a public key", () => {
    const pub = execFileSync("openssl", ["x509", "-in", pki.leafFile, "-pubkey", "-noout"]).toString()
    expect(Either.isLeft(generate({ ...base, usage: 3, pem: CHAIN + pub }))).toBe(true)
    expect(ok(generate({ ...base, usage: 3, pem: pub })).certificate).toBeNull()
  })
})
