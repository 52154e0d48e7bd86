/**
 * A validating resolver's SERVFAIL is not an outage: for the world's DNSSEC-bogus
 * domains the mail-transport endpoints answer a result with the reason, never the 500 "retry".
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"

const REASON = "the MX records could not be validated (DNSSEC bogus)"

describe("mail transport of DNSSEC-bogus domains in the world", () => {
  layer(testApp(worldEnv()), { timeout: 60_000, excludeTestServices: true })((it) => {
    for (const domain of ["bogus-ds.org", "expired-sig.com"])
      it.effect(`${domain}: smtp-tls, fcrdns, blacklist, tlsa, sender-requirements give the reason`, () =>
        Effect.gen(function* () {
          const get = (path: string) => call("GET", `/api/${path}?domain=${domain}`)
          const tls = yield* get("email/smtp-tls")
          expect(tls.status, JSON.stringify(tls.json)).toBe(200)
          expect(tls.json.summary.status).toBe("unknown")
          expect(tls.json.issues).toContain(REASON)
          const fc = yield* get("email/fcrdns")
          expect(fc.status).toBe(200)
          expect(fc.json.result.issues).toContain(REASON)
          const bl = yield* get("email/blacklist")
          expect(bl.status).toBe(200)
          expect(bl.json.issues).toContain(REASON)
          const tlsa = yield* get("dns/tlsa")
          expect(tlsa.status).toBe(200)
          expect(tlsa.json.issues).toContain(REASON)
          const sender = yield* get("email/sender-requirements")
          expect(sender.status).toBe(200)
        })
      )
  })
})
