/**
 * The email-authentication endpoints through the real app, with DNS answered by a fake server on
 * loopback (DNS_RESOLVERS points at it).
 */
import { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { generateKeyPairSync } from "node:crypto"
import { Effect } from "effect"
import { call, withTxtDns } from "./harness.ts"

const key = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .publicKey.export({ type: "spki", format: "der" })
  .toString("base64")

const TXT: Record<string, ReadonlyArray<string>> = {
  "_dmarc.example.com": ["v=DMARC1; p=quarantine; pct=50; rua=mailto:d@example.com"],
  "custom._domainkey.example.com": [`v=DKIM1; k=rsa; p=${key}`]
}

const withApp = <A, E>(effect: Effect.Effect<A, E, HttpClient.HttpClient>) => withTxtDns(TXT, effect)

describe("email authentication endpoints", () => {
  it.scoped("GET /email/dmarc", () =>
    withApp(
      Effect.gen(function* () {
        const r = yield* call("GET", "/api/email/dmarc?domain=example.com")
        expect(r.status).toBe(200)
        expect(r.json).toMatchObject({
          exists: true,
          valid: true,
          record: "v=DMARC1; p=quarantine; pct=50; rua=mailto:d@example.com",
          policy: "quarantine",
          subdomainPolicy: "quarantine",
          pct: 50,
          percentage: 50,
          reportingEnabled: true,
          rua: ["mailto:d@example.com"],
          ruf: []
        })
        const none = yield* call("GET", "/api/email/dmarc?domain=other.com")
        expect(none.json).toMatchObject({ exists: false, status: "missing" })
        expect((yield* call("GET", "/api/email/dmarc?domain=not_a_domain!")).status).toBe(400)
      })
    )
  )

  it.scoped("GET /email/dkim with a caller's selector", () =>
    withApp(
      Effect.gen(function* () {
        const r = yield* call("GET", "/api/email/dkim?domain=example.com&selector=custom")
        expect(r.status).toBe(200)
        const json = r.json
        expect(json).toMatchObject({ selectors_found: ["custom"], valid_keys: 1, hasDkim: true })
        expect(json.selectorsFound[0]).toMatchObject({
          selector: "custom",
          keyType: "rsa",
          keyLength: 2048,
          valid: true
        })
        expect(json.selectorsChecked.length).toBeGreaterThan(100)
      })
    )
  )

  it.scoped("GET /email/bimi as JSON and as HTML; GET /email/mta-sts", () =>
    withApp(
      Effect.gen(function* () {
        const json = yield* call("GET", "/api/email/bimi?domain=example.com")
        expect(json.json).toMatchObject({ exists: false, record: null, logoUrl: null, authorityUrl: null })
        const html = yield* call("GET", "/api/email/bimi?domain=example.com&format=html")
        expect(html.status).toBe(200)
        expect(html.type).toContain("text/html")
        expect(html.text).toContain("BIMI for example.com")
        const sts = yield* call("GET", "/api/email/mta-sts?domain=example.com")
        expect(sts.status).toBe(200)
        expect(sts.json).toMatchObject({
          exists: false,
          record: null,
          policyId: null,
          policy: null,
          policyUrl: "https://mta-sts.example.com/.well-known/mta-sts.txt",
          valid: false
        })
      })
    )
  )

  it.scoped("POST /email/dmarc/generate: record and 400 with a reason", () =>
    withApp(
      Effect.gen(function* () {
        const ok = yield* call("POST", "/api/email/dmarc/generate", {
          policy: "none",
          rua: "d@example.com",
          pct: 100
        })
        expect(ok.status).toBe(200)
        expect(ok.json).toMatchObject({ record: "v=DMARC1; p=none; pct=100; rua=mailto:d@example.com" })
        const bad = yield* call("POST", "/api/email/dmarc/generate", { policy: "none", pct: 150 })
        expect(bad.status).toBe(400)
        expect(bad.json.error).toContain("pct must be an integer from 0 to 100")
        const badPolicy = yield* call("POST", "/api/email/dmarc/generate", { policy: "block" })
        expect(badPolicy.json.error).toContain("none, quarantine or reject")
      })
    )
  )
})
