import { afterAll, beforeAll, describe, expect, it } from "vitest"
import fc from "fast-check"
import { execSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { X509Certificate } from "node:crypto"
import {
  certificateFacts,
  commonNameOf,
  daysUntil,
  namesOcspResponder,
  parseSubjectAltName
} from "../../src/net/Certificate.ts"
import { type Chain, makeChain } from "../checks/fixtures.ts"
import { makePki } from "./pki.ts"

let chain: Chain
beforeAll(() => {
  chain = makeChain(["mx.example.com", "mail.example.com"], 30)
})
afterAll(() => chain?.pki.cleanup())

describe("certificateFacts", () => {
  it("agrees with openssl on names, dates and fingerprints", () => {
    const out = (cmd: string) => execSync(cmd, { cwd: chain.pki.dir, encoding: "utf8" }).trim()
    const fp = out("openssl x509 -in leaf.pem -noout -fingerprint -sha256").split("=")[1]!.replace(/:/g, "")
    const end = out("openssl x509 -in leaf.pem -noout -enddate").split("=")[1]!
    expect(chain.leaf.sha256).toBe(fp.toLowerCase())
    expect(chain.leaf.validTo).toBe(new Date(end).toISOString())
    expect(chain.leaf.subjectAltNames).toEqual(["mx.example.com", "mail.example.com"])
    expect(chain.leaf.issuerCommonName).toBe("Test Mail CA")
    expect(chain.leaf.isCa).toBe(false)
    expect(chain.ca.selfIssued).toBe(true)
    expect(daysUntil(chain.leaf.validTo, new Date())).toBeGreaterThanOrEqual(28)
  })
  it("tells a leaf that names an OCSP responder from one that names none (RFC 5280 4.2.2.1)", () => {
    const der = (file: string) => new X509Certificate(readFileSync(file)).raw
    const withOcsp = makePki({ names: ["a.example"], ocspUrl: "http://ocsp.a.example/" })
    try {
      expect(namesOcspResponder(der(withOcsp.leafFile))).toBe(true)
      expect(namesOcspResponder(der(chain.pki.leafFile))).toBe(false)
      expect(namesOcspResponder(Buffer.from("not a certificate"))).toBe(false)
    } finally {
      withOcsp.cleanup()
    }
  })
  it("reads the same bytes to the same facts, whichever is asked first, and never keeps a failure", () => {
    const der = (file: string) => new X509Certificate(readFileSync(file)).raw
    const withOcsp = makePki({ names: ["b.example"], ocspUrl: "http://ocsp.b.example/" })
    try {
      // the OCSP question first, then the facts, from another buffer of the same bytes
      expect(namesOcspResponder(der(withOcsp.leafFile))).toBe(true)
      const first = certificateFacts(Buffer.from(der(withOcsp.leafFile)))
      expect(certificateFacts(der(withOcsp.leafFile))).toEqual(first)
      expect(first.sha256).toBe(
        new X509Certificate(readFileSync(withOcsp.leafFile)).fingerprint256.replace(/:/g, "").toLowerCase()
      )
      expect(namesOcspResponder(der(withOcsp.leafFile))).toBe(true)
      const bad = Buffer.from("not a certificate")
      expect(() => certificateFacts(bad)).toThrow()
      expect(() => certificateFacts(bad)).toThrow()
    } finally {
      withOcsp.cleanup()
    }
  })
  it("parsers never throw (property)", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        parseSubjectAltName(s)
        commonNameOf(s)
      })
    )
    expect(parseSubjectAltName("DNS:a.example, IP Address:192.0.2.1, email:x@y")).toEqual([
      "a.example",
      "IP:192.0.2.1"
    ])
  })
})
