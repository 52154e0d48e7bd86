/**
 * Verified domains in the world: a tenant claims a synthetic copy of perfect.com (DNSSEC-signed),
 * the challenge is published in its zone (scripts/world/mutate --add), verification finds it
 * through the validating resolver (the answer authentic), and once the zone is reset the next
 * look-up lapses the claim. The domain is a synthetic copy no other test reads (the sixth-last of
 * perfect.com's: mutate, monitors and history mutate take the last three), reset afterwards.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { ApiKeys, ApiKeysCommandLive } from "../../src/monitor/access/ApiKeys.ts"
import { call, testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { mutate, syntheticCopy } from "./mutateWorld.ts"

const env = worldEnv()
const domain = syntheticCopy("perfect.com", 6)

const keysAt = (dataDir: string) =>
  ApiKeysCommandLive.pipe(
    Layer.provide(AppConfig.Default),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["DATA_DIR", dataDir]]))))
  )

describe("a domain verified in the world", () => {
  afterAll(async () => {
    if (domain !== undefined) await mutate(domain, "--reset")
  })

  it.live(
    "is verified by its published challenge, DNSSEC-validated, and lapses when the record goes",
    () =>
      Effect.gen(function* () {
        expect(domain).toBeDefined()
        const d = domain!
        const dataDir = mkdtempSync(join(tmpdir(), "verified-world-"))
        const key = yield* Effect.map(ApiKeys, (keys) =>
          keys.create({ tenant: "msp-a", scopes: ["reports:read"], validForMs: null })
        ).pipe(Effect.flatten, Effect.provide(keysAt(dataDir)))
        const auth = { Authorization: `Bearer ${key.key}` }
        yield* Effect.gen(function* () {
          const claim = yield* call("POST", "/api/domains", { domain: d }, auth)
          expect(claim.status).toBe(201)
          const verify = call("POST", `/api/domains/${d}/verify`, undefined, auth)
          expect((yield* verify).json).toMatchObject({ state: "pending", lastCheck: "not found" })

          const { name, value } = claim.json.challenge as { name: string; value: string }
          expect(yield* Effect.promise(() => mutate(d, "--add", `${name} TXT ${value}`))).toBe(0)
          const verified = yield* verify
          expect(verified.json).toMatchObject({
            state: "verified",
            lastCheck: "found",
            dnssecValidated: true
          })
          expect((yield* call("GET", `/api/reports/dmarc/${d}`, undefined, auth)).status).toBe(200)

          expect(yield* Effect.promise(() => mutate(d, "--reset"))).toBe(0)
          expect((yield* verify).json).toMatchObject({ state: "lapsed", lastCheck: "not found" })
          expect((yield* call("GET", `/api/reports/dmarc/${d}`, undefined, auth)).status).toBe(403)
        }).pipe(Effect.provide(testApp({ ...env, LOCAL_ADMIN: "false" }, dataDir)))
      }),
    300_000
  )
})
