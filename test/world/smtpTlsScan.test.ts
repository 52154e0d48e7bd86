/**
 * The TLS configuration of the world's MTAs (the smtp-tls check's scan through STARTTLS,
 * net/SmtpTlsScan.ts): each NCSC-NL verdict from a real Postfix configured for it, probed by real
 * SMTP sessions, and the scan of an MX kept for every domain that shares it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { about } from "../../src/checks/smtp-tls/About.ts"
import { SmtpTls, type SmtpTlsResult } from "../../src/checks/smtp-tls/SmtpTls.ts"
import { Smtp } from "../../src/net/Smtp.ts"
import { SMTP_MAX_HANDSHAKES } from "../../src/net/SmtpTlsScan.ts"
import { runCheck } from "../../src/scan/Scanner.ts"
import { ScanWorld } from "./scanWorld.ts"
import { domain } from "../support/domain.ts"

const accepted = (r: SmtpTlsResult, i = 0) =>
  (r.servers[i]!.versions ?? []).filter((v) => v.support === "accepted").map((v) => v.version)

/** The verdict of `security.mx.tls` for this result, as the score reads it. */
const rule = (r: SmtpTlsResult) =>
  about.rules
    .judge({ checks: { "smtp-tls": { status: "done", reason: null, result: r } } })
    .find((x) => x.spec.id === "security.mx.tls")!.verdict

describe("MX TLS configuration in the world", () => {
  it.live("perfect.com: TLS 1.2 and 1.3 only, ECDHE with AEAD in the server's order, sufficient", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(SmtpTls, domain("perfect.com"))
      expect(r.servers.map((s) => s.ip)).toEqual(["127.25.0.1", "::1"])
      for (const s of r.servers) {
        expect(s.versions?.map((v) => [v.version, v.support])).toEqual([
          ["SSLv3", "untested"],
          ["TLSv1", "refused"],
          ["TLSv1.1", "refused"],
          ["TLSv1.2", "accepted"],
          ["TLSv1.3", "accepted"]
        ])
        expect([s.versionsRating, s.ciphersRating, s.keyExchangeRating, s.rating]).toEqual([
          "sufficient",
          "good",
          "good",
          "sufficient"
        ])
        // The server's first three choices at TLS 1.2, then TLS 1.3's; no weak suite accepted.
        expect(s.ciphers?.filter((c) => c.version === "TLSv1.2").map((c) => c.name)).toEqual([
          "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
          "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
          "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"
        ])
        expect(s.serverCipherOrder).toBe(true)
        // Postfix on OpenSSL 3 negotiates Extended Master Secret on TLS 1.2 (RFC 7627).
        expect([s.extendedMasterSecret, s.extendedMasterSecretRating]).toEqual([true, "good"])
        expect(s.handshakes).toBeGreaterThan(5)
        expect(s.handshakes).toBeLessThanOrEqual(SMTP_MAX_HANDSHAKES)
        expect(s.status).toBe("pass")
      }
      expect(r.guideline).toBe("NCSC-NL TLS 2025-05")
      expect(rule(r)).toMatchObject({ status: "pass" })
    }).pipe(Effect.provide(ScanWorld))
  )

  it.live("mx-tls-no-ems.com: current TLS but no Extended Master Secret on TLS 1.2, insufficient", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(SmtpTls, domain("mx-tls-no-ems.com"))
      const s = r.servers[0]!
      expect(accepted(r)).toEqual(["TLSv1.2", "TLSv1.3"])
      expect([s.versionsRating, s.ciphersRating, s.keyExchangeRating]).toEqual(["sufficient", "good", "good"])
      expect([s.extendedMasterSecret, s.extendedMasterSecretRating, s.rating, s.status]).toEqual([
        false,
        "insufficient",
        "insufficient",
        "fail"
      ])
      expect(s.issues.join("\n")).toMatch(/TLS 1.2 without Extended Master Secret/)
      expect(rule(r)).toMatchObject({ status: "fail", issues: ["mx_tls_ems_missing"] })
    }).pipe(Effect.provide(ScanWorld))
  )

  it.live("mx-tls-legacy.com: Postfix's defaults accept TLS 1.0 and 1.1, phase out", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(SmtpTls, domain("mx-tls-legacy.com"))
      const s = r.servers[0]!
      expect(accepted(r)).toEqual(["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"])
      // The "medium" suites in the client's order: AES-CBC among them, sufficient.
      expect([s.versionsRating, s.ciphersRating, s.rating, s.status]).toEqual([
        "phase-out",
        "sufficient",
        "phase-out",
        "warning"
      ])
      expect(s.serverCipherOrder).toBe(false)
      // The negotiated session is still TLS 1.3: only the probe of each version finds the old ones.
      expect(s.tlsVersion).toBe("TLSv1.3")
      expect(s.issues.join("\n")).toMatch(/accepts TLSv1, TLSv1.1 \(phase out/)
      expect(rule(r)).toMatchObject({ status: "partial", issues: ["mx_tls_version_outdated"] })
    }).pipe(Effect.provide(ScanWorld))
  )

  it.live("mx-tls-null.com: a suite without encryption accepted, insufficient", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(SmtpTls, domain("mx-tls-null.com"))
      const s = r.servers[0]!
      expect(s.ciphers?.map((c) => [c.name, c.rating])).toEqual(
        expect.arrayContaining([["TLS_ECDHE_ECDSA_WITH_NULL_SHA", "insufficient"]])
      )
      expect([s.ciphersRating, s.rating, s.status]).toEqual(["insufficient", "insufficient", "fail"])
      expect(r.summary.status).toBe("fail")
      expect(rule(r)).toMatchObject({
        status: "fail",
        issues: ["mx_tls_cipher_weak", "mx_tls_version_outdated"]
      })
    }).pipe(Effect.provide(ScanWorld))
  )

  it.live("an MX address is scanned once, under whatever name it is asked: the rest ask the cache", () =>
    Effect.gen(function* () {
      const smtp = yield* Smtp
      const first = yield* smtp.tlsScan("mx.perfect.com", "127.25.0.1")
      expect(first.status).toBe("complete")
      // Versions and suites are the server's: another name for the address (a tenant's own MX
      // name at a provider) shares the scan, made without SNI so that it does not depend on who asked first.
      expect(first.host).toBe("127.25.0.1")
      for (const name of ["MX.perfect.com.", "other.perfect.com"])
        expect(yield* smtp.tlsScan(name, "127.25.0.1")).toBe(first)
    }).pipe(Effect.provide(ScanWorld))
  )
})
