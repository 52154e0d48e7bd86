/**
 * The email-authentication endpoints (DMARC, DKIM, BIMI, MTA-STS, DMARC generator) through the real
 * HTTP app configured with the world's settings: what a client sees for the world's scenarios.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { call, testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"

const App = Layer.unwrapEffect(Effect.sync(() => testApp(worldEnv())))

const get = (path: string) => call("GET", path)
const json = (path: string) => Effect.map(get(path), (r) => ({ ...r, body: r.json }))

layer(App, { timeout: 120_000, excludeTestServices: true })("email-auth endpoints in the world", (it) => {
  it.effect("GET /email/dmarc for dmarc-invalid.net and sub.dmarc-org.com", () =>
    Effect.gen(function* () {
      const invalid = yield* json("/api/email/dmarc?domain=dmarc-invalid.net")
      expect(invalid.status).toBe(200)
      expect(invalid.body).toMatchObject({ exists: true, valid: false, status: "fail" })
      expect(invalid.body.errors.length).toBe(2)
      const sub = yield* json("/api/email/dmarc?domain=sub.dmarc-org.com")
      expect(sub.body).toMatchObject({ exists: true, inherited: true, subdomainPolicy: "reject" })
    })
  )

  it.effect("GET /email/dkim for perfect.com and dkim-revoked.com", () =>
    Effect.gen(function* () {
      const perfect = yield* json("/api/email/dkim?domain=perfect.com")
      expect(perfect.body).toMatchObject({ hasDkim: true, valid_keys: 2 })
      const revoked = yield* json("/api/email/dkim?domain=dkim-revoked.com&selector=selector2")
      expect(revoked.body).toMatchObject({ hasDkim: false, status: "fail" })
    })
  )

  it.effect("GET /email/bimi (JSON and format=html) for perfect.com and bimi-badsvg.com", () =>
    Effect.gen(function* () {
      const perfect = yield* json("/api/email/bimi?domain=perfect.com")
      expect(perfect.body).toMatchObject({
        exists: true,
        valid: true,
        authority: { logotypeMatchesLogo: true }
      })
      const page = yield* get("/api/email/bimi?domain=perfect.com&format=html")
      expect(page.type).toContain("text/html")
      expect(page.text).toContain("data:image/svg+xml;base64,")
      const bad = yield* json("/api/email/bimi?domain=bimi-badsvg.com")
      expect(bad.body).toMatchObject({ exists: true, valid: false, logo: { svg: { tinyPs: false } } })
    })
  )

  it.effect("GET /email/mta-sts for mtasts-mismatch.com and mtasts-testing.com", () =>
    Effect.gen(function* () {
      const mismatch = yield* json("/api/email/mta-sts?domain=mtasts-mismatch.com")
      expect(mismatch.body).toMatchObject({ exists: true, valid: false, mx: { allCovered: false } })
      const testing = yield* json("/api/email/mta-sts?domain=mtasts-testing.com")
      expect(testing.body).toMatchObject({
        valid: true,
        policy: { mode: "testing" },
        tlsRpt: { exists: true }
      })
    })
  )
})
