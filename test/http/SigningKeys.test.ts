/**
 * The published signing keys (GET /.well-known/domain-audit-keys.json): a JWK Set that verifies a
 * snapshot the service just made, served like the other public GETs (the cheap bucket's rate-limit
 * fields, the security headers of everything outside /api); the snapshot page prints the command
 * that checks against them, with absolute URLs from the request.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { JwkSet } from "../../src/report/Jws.ts"
import { verifySnapshot } from "../../src/report/VerifySnapshot.ts"
import { call, testApp } from "./harness.ts"

describe("the signing keys", () => {
  layer(testApp({ SCAN_DEADLINE_MS: "3000" }), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("verify a snapshot made through the API; another key set does not", () =>
      Effect.gen(function* () {
        const created = yield* call("POST", "/api/report/snapshot?domain=perfect.com")
        expect(created.status).toBe(201)
        expect(created.json.evidence.signature).toMatch(/^[\w-]+\.\.[\w-]+$/)

        const keys = yield* call("GET", "/.well-known/domain-audit-keys.json")
        expect(keys.status).toBe(200)
        expect(keys.type).toMatch(/^application\/json/)
        const set = Schema.decodeUnknownSync(JwkSet)(keys.json)
        expect(set.keys).toHaveLength(1)
        expect(set.keys[0]).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" })
        // a public GET: the cheap bucket's fields and the headers of everything outside /api
        expect(keys.headers["ratelimit-policy"]).toMatch(/^"cheap";q=\d+;w=\d+$/)
        expect(keys.headers["x-content-type-options"]).toBe("nosniff")
        expect(keys.headers["content-security-policy"]).toContain("default-src 'none'")
        // public keys, readable by a page on any origin that verifies in the browser
        expect(keys.headers["access-control-allow-origin"]).toBe("*")

        const served = yield* call("GET", `/api/report/snapshot/${created.json.evidence.snapshotId}`)
        const verdict = verifySnapshot(served.json, { keys: set.keys })
        expect(verdict).toMatchObject({
          valid: true,
          signature: { status: "verified", kid: set.keys[0]!.kid, keySource: "given" }
        })
        const tampered = { ...served.json, domain: "other.example" }
        expect(verifySnapshot(tampered, { keys: set.keys })).toMatchObject({ valid: false, failed: "hash" })
        const stranger = {
          ...set.keys[0]!,
          x: Buffer.alloc(32, 1).toString("base64url"),
          kid: "someone-else"
        }
        expect(verifySnapshot(served.json, { keys: [stranger] })).toMatchObject({
          valid: false,
          failed: "signature"
        })
      })
    )

    it.effect("the snapshot page prints the verify command with the request's absolute URLs", () =>
      Effect.gen(function* () {
        const created = yield* call("POST", "/api/report/snapshot?domain=perfect.com")
        const id = created.json.evidence.snapshotId
        // without PUBLIC_BASE_URL the stored URLs are relative; the page's recipes are not
        expect(created.json.evidence.snapshotUrl).toBe(`/api/report/snapshot/${id}`)
        const page = yield* call("GET", `/snapshot/${id}`, undefined, { accept: "text/html" })
        expect(page.status).toBe(200)
        const origin = /domain-audit verify &#39;(http:\/\/127\.0\.0\.1:\d+)\/api\/report\/snapshot\//.exec(
          page.text
        )?.[1]
        expect(origin).toBeDefined()
        expect(page.text).toContain(
          `domain-audit verify &#39;${origin}/api/report/snapshot/${id}&#39; --key &#39;${origin}/.well-known/domain-audit-keys.json&#39;`
        )
        expect(page.text).toContain(`fetch(process.argv[1])`)
        expect(page.text).toContain(`&#39;${origin}/api/report/snapshot/${id}&#39; &#39;sha256:`)
      })
    )
  })
})
