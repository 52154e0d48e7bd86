import { afterAll, beforeAll, describe, expect, it } from "vitest"
import fc from "fast-check"
import { execSync } from "node:child_process"
import { commonNameOf, daysUntil, parseSubjectAltName } from "../../src/net/Certificate.ts"
import { type Chain, makeChain } from "../checks/fixtures.ts"

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
