/**
 * HTTPS transport (the web-tls check, GET /web/tls) against the world's web hosts (docs/world.md):
 * each NCSC-NL verdict from a real nginx configured for it, probed by real handshakes.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { about } from "../../src/checks/web-tls/About.ts"
import { gather, WebTls } from "../../src/checks/web-tls/WebTls.ts"
import { analyse } from "../../src/checks/web-tls/WebTlsAnalyse.ts"
import type { WebTlsResult } from "../../src/checks/web-tls/WebTlsResult.ts"
import { blankScan } from "../../src/net/TlsScan.ts"
import { runCheck, withFacts } from "../../src/scan/Scanner.ts"
import { ScanWorld } from "./scanWorld.ts"
import { domain } from "../support/domain.ts"

const supported = (r: WebTlsResult, i = 0) =>
  r.servers[i]!.versions.filter((v) => v.support === "accepted").map((v) => v.version)

/** The verdict of `security.web.tls` for this result, as the score reads it. */
const rule = (r: WebTlsResult) =>
  about.rules.judge({
    checks: { "web-tls": { status: "done", reason: null, result: r } }
  })[0]!.verdict

describe("HTTPS transport in the world", () => {
  it.live("perfect.com: TLS 1.2 and 1.3 on every address of the apex and www, sufficient", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(WebTls, domain("perfect.com"))
      expect(r.servers.map((s) => [s.host, s.ip])).toEqual([
        ["perfect.com", "127.80.0.1"],
        ["perfect.com", "::1"],
        ["www.perfect.com", "127.80.0.1"]
      ])
      for (const s of r.servers) {
        expect(s.status).toBe("pass")
        expect(s.versions.map((v) => [v.version, v.support])).toEqual([
          ["SSLv3", "untested"],
          ["TLSv1", "refused"],
          ["TLSv1.1", "refused"],
          ["TLSv1.2", "accepted"],
          ["TLSv1.3", "accepted"]
        ])
        expect(s.rating).toBe("sufficient")
        expect(s.ciphersComplete).toBe(true)
        expect(s.ciphers.every((c) => c.rating === "good" || c.rating === "sufficient")).toBe(true)
        expect(s.ciphers.filter((c) => c.version === "TLSv1.3").map((c) => c.name)).toContain(
          "TLS_AES_256_GCM_SHA384"
        )
        expect(s.keyExchanges.map((k) => [k.name, k.rating])).toEqual([["X25519", "good"]])
        expect([s.trusted, s.hostnameMatch, s.expired]).toEqual([true, true, false])
        expect(s.certificate?.keyType).toBe("ec")
        expect(s.signatureAlgorithm).toBe("ecdsa-with-SHA256")
        expect(s.certificateRating).toBe("good")
        // The world CA runs no OCSP responder, so nothing can be stapled, and stapling is not judged.
        expect(s.ocspStapled).toBe(false)
        expect([s.ocspResponder, s.ocspStaplingRating]).toEqual([false, null])
        // nginx on OpenSSL 3 negotiates Extended Master Secret on TLS 1.2 (RFC 7627).
        expect([s.extendedMasterSecret, s.extendedMasterSecretRating]).toEqual([true, "good"])
      }
      expect(r.guideline).toBe("NCSC-NL TLS 2025-05")
      expect(r.summary).toMatchObject({ status: "pass", rating: "sufficient", serversReachable: 3 })
      expect(rule(r).status).toBe("pass")
    }).pipe(Effect.provide(ScanWorld))
  )

  it.live("tls-legacy.com: TLS 1.0 and 1.1 accepted, phase out", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(WebTls, domain("tls-legacy.com"))
      expect(r.servers.length).toBe(2)
      expect(supported(r)).toEqual(["TLSv1", "TLSv1.1", "TLSv1.2"])
      const s = r.servers[0]!
      expect([s.versionsRating, s.rating, s.status]).toEqual(["phase-out", "phase-out", "warning"])
      expect(s.ciphers.map((c) => [c.name, c.rating])).toEqual(
        expect.arrayContaining([["TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", "sufficient"]])
      )
      expect(s.issues.join("\n")).toMatch(/accepts TLSv1, TLSv1.1/)
      expect(rule(r)).toMatchObject({ status: "partial", issues: ["web_tls_version_outdated"] })
    }).pipe(Effect.provide(ScanWorld))
  )

  it.live("tls-weak-cipher.com: a NULL suite accepted in the server's order, insufficient", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(WebTls, domain("tls-weak-cipher.com"))
      const s = r.servers[0]!
      expect(supported(r)).toEqual(["TLSv1.2"])
      expect(s.ciphers.map((c) => [c.name, c.rating])).toEqual([
        ["TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "good"],
        ["TLS_ECDHE_ECDSA_WITH_NULL_SHA", "insufficient"]
      ])
      expect(s.serverCipherOrder).toBe(true)
      expect([s.rating, s.status]).toEqual(["insufficient", "fail"])
      expect(r.summary.rating).toBe("insufficient")
      expect(rule(r)).toMatchObject({ status: "fail", issues: ["web_tls_cipher_weak"] })
    }).pipe(Effect.provide(ScanWorld))
  )

  it.live("tls-modern.com: TLS 1.3 only, good", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(WebTls, domain("tls-modern.com"))
      expect(supported(r)).toEqual(["TLSv1.3"])
      expect(r.servers.every((s) => s.rating === "good" && s.status === "pass")).toBe(true)
      expect(r.servers[0]!.ciphers.map((c) => c.version)).toEqual(["TLSv1.3", "TLSv1.3", "TLSv1.3"])
      // No TLS 1.2, so Extended Master Secret is not asked: TLS 1.3 binds its keys on its own.
      expect(
        r.servers.every((s) => s.extendedMasterSecret === null && s.extendedMasterSecretRating === null)
      ).toBe(true)
      expect(rule(r).status).toBe("pass")
    }).pipe(Effect.provide(ScanWorld))
  )

  it.live("tls-no-ems.com: TLS 1.2 without Extended Master Secret, insufficient", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(WebTls, domain("tls-no-ems.com"))
      expect(supported(r)).toEqual(["TLSv1.2", "TLSv1.3"])
      for (const s of r.servers) {
        expect([s.versionsRating, s.ciphersRating, s.keyExchangeRating, s.certificateRating]).toEqual([
          "sufficient",
          "good",
          "good",
          "good"
        ])
        expect([s.extendedMasterSecret, s.extendedMasterSecretRating, s.rating, s.status]).toEqual([
          false,
          "insufficient",
          "insufficient",
          "fail"
        ])
        expect(s.issues.join("\n")).toMatch(/TLS 1.2 without Extended Master Secret \(RFC 7627/)
      }
      expect(rule(r)).toMatchObject({ status: "fail", issues: ["web_tls_ems_missing"] })
    }).pipe(Effect.provide(ScanWorld))
  )

  it.live("web-httponly.com: every address refuses connections on 443, so there is nothing to rate", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(WebTls, domain("web-httponly.com"))
      expect(r.servers.length).toBeGreaterThan(0)
      for (const s of r.servers) {
        expect(s.rating).toBeNull()
        expect(s.reachable).toBe(false)
        expect(s.status).toBe("not-applicable")
        expect(s.issues.join(" ")).toMatch(/nothing accepts connections on port 443/)
      }
      expect(r.summary.rating).toBeNull()
      expect(r.summary.status).toBe("not-applicable")
      // An answer, not a silence: the missing HTTPS is the headers' and redirect checks' finding.
      expect(rule(r).status).toBe("not-applicable")
    }).pipe(Effect.provide(ScanWorld))
  )

  it.live(
    "an address refusing connections beside one that serves HTTPS fails: some visitors get no site",
    () =>
      Effect.gen(function* () {
        const input = yield* withFacts(domain("tls-modern.com"), gather)
        const closed = blankScan("tls-modern.com", "127.80.255.254", 443, "closed", "ECONNREFUSED")
        const r = analyse({ ...input, scans: [...input.scans, closed] }, new Date())
        expect(r.servers.map((s) => [s.ip, s.reachable, s.status])).toEqual([
          ...input.scans.map((s) => [s.address, true, "pass"]),
          ["127.80.255.254", false, "fail"]
        ])
        expect(r.summary.status).toBe("fail")
        expect(r.summary.rating).toBe("good")
        expect(rule(r).status).toBe("fail")
        expect(rule(r).detail).toMatch(/127\.80\.255\.254 accept no connection on port 443/)
      }).pipe(Effect.provide(ScanWorld))
  )

  it.live("a domain without web addresses is not applicable", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(WebTls, domain("dmarc-none.com"))
      expect(r.hosts.map((h) => h.lookup)).toEqual(["none", "none"])
      expect(r.summary.status).toBe("not-applicable")
      expect(rule(r).status).toBe("not-applicable")
    }).pipe(Effect.provide(ScanWorld))
  )
})
