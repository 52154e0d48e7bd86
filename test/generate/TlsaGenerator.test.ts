import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { Either } from "effect"
import * as fc from "fast-check"
import { generate, pemBlocks } from "../../src/generate/TlsaGenerator.ts"
import { matchesCertificate } from "../../src/records/TlsaRecord.ts"
import { makePki } from "../net/pki.ts"

// A fresh key and certificate from openssl, and the digests openssl computes for them.
const { dir } = makePki({ names: ["mx.example.com"] })
const openssl = (...args: Array<string>) =>
  execFileSync("openssl", args, { cwd: dir, stdio: ["pipe", "pipe", "pipe"] })
openssl("x509", "-in", "leaf.pem", "-pubkey", "-noout", "-out", "pub.pem")
openssl("pkey", "-pubin", "-in", "pub.pem", "-outform", "DER", "-out", "spki.der")
openssl("x509", "-in", "leaf.pem", "-outform", "DER", "-out", "cert.der")
const digest = (alg: string, file: string) => openssl("dgst", `-${alg}`, "-r", file).toString().split(" ")[0]!
const CERT = readFileSync(join(dir, "leaf.pem"), "utf8")
const PUB = readFileSync(join(dir, "pub.pem"), "utf8")
const KEY = readFileSync(join(dir, "leaf.key"), "utf8")

const req = { usage: 3, selector: 1, matching: 1, host: "mx.example.com", port: 25 }
const ok = (r: ReturnType<typeof generate>) => {
  if (Either.isLeft(r)) throw new Error(r.left.message)
  return r.right
}

describe("TLSA generator", () => {
  it("3 1 1 from a certificate and from its public key equals openssl's SPKI SHA-256", () => {
    const fromCert = ok(generate({ ...req, pem: CERT }))
    const fromKey = ok(generate({ ...req, pem: PUB }))
    expect(fromCert.certificateAssociationData).toBe(digest("sha256", "spki.der"))
    expect(fromKey.value).toBe(fromCert.value)
    expect(fromCert.name).toBe("_25._tcp.mx.example.com")
    expect(fromCert.zoneFileLine).toBe(
      `_25._tcp.mx.example.com. 3600 IN TLSA 3 1 1 ${digest("sha256", "spki.der")}`
    )
    expect(fromCert.recommendation).toBeNull()
    expect(fromCert.warnings.some((w) => w.includes("DNSSEC"))).toBe(true)
  })

  it("selectors and matching types match openssl for the certificate and SPKI", () => {
    expect(ok(generate({ ...req, selector: 0, matching: 1, pem: CERT })).certificateAssociationData).toBe(
      digest("sha256", "cert.der")
    )
    expect(ok(generate({ ...req, selector: 0, matching: 2, pem: CERT })).certificateAssociationData).toBe(
      digest("sha512", "cert.der")
    )
    expect(ok(generate({ ...req, selector: 1, matching: 2, pem: CERT })).certificateAssociationData).toBe(
      digest("sha512", "spki.der")
    )
    expect(ok(generate({ ...req, selector: 1, matching: 0, pem: CERT })).certificateAssociationData).toBe(
      readFileSync(join(dir, "spki.der")).toString("hex")
    )
  })

  it("recommends 3 1 1 for other profiles", () => {
    const r = ok(generate({ ...req, usage: 2, selector: 0, matching: 1, pem: CERT }))
    expect(r.recommendation).toContain("3 1 1")
  })

  it("rejects private keys, other labels and impossible parameters", () => {
    const msg = (r: ReturnType<typeof generate>) => (Either.isLeft(r) ? r.left.message : "accepted")
    expect(msg(generate({ ...req, pem: KEY }))).toContain("private key")
    expect(msg(generate({ ...req, pem: `${CERT}\n${KEY}` }))).toContain("private key")
    expect(
      msg(
        generate({
          ...req,
          pem: "-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----"
        })
      )
    ).toContain("unsupported PEM label")
    expect(msg(generate({ ...req, pem: "hello" }))).toContain("no PEM block")
    expect(msg(generate({ ...req, selector: 0, pem: PUB }))).toContain("selector 0")
    expect(msg(generate({ ...req, usage: 4, pem: CERT }))).toContain("usage")
    expect(msg(generate({ ...req, port: 0, pem: CERT }))).toContain("port")
    expect(msg(generate({ ...req, host: "bad host", pem: CERT }))).toContain("host")
  })

  it("matchesCertificate agrees with the generator", () => {
    const der = pemBlocks(CERT)[0]!.der
    const r = ok(generate({ ...req, pem: CERT }))
    expect(
      matchesCertificate({ selector: 1, matchingType: 1, certificate: r.certificateAssociationData }, der)
    ).toBe(true)
    expect(matchesCertificate({ selector: 1, matchingType: 1, certificate: "00".repeat(32) }, der)).toBe(
      false
    )
  })

  it("never throws on arbitrary input (property)", () =>
    fc.assert(
      fc.property(
        fc.string(),
        fc.integer(),
        fc.integer(),
        fc.integer(),
        fc.string(),
        fc.integer(),
        (pem, usage, selector, matching, host, port) => {
          const r = generate({ pem, usage, selector, matching, host, port })
          return Either.isLeft(r) || Either.isRight(r)
        }
      )
    ))
})
