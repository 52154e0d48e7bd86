/**
 * GET /email/smtp-tls against the world's Postfix MTAs (and its silent node MX), over HTTP.
 * Each scenario asserts the verdict it stages; perfect.com's certificate facts are compared with
 * what `openssl s_client -starttls smtp` sees on the same address.
 */
import { HttpClient } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"

const BANNER_TIMEOUT_MS = 2_000
const env: Record<string, string> = { ...worldEnv(), SMTP_BANNER_TIMEOUT_MS: String(BANNER_TIMEOUT_MS) }

const smtpTls = (domain: string) => getJson(`/api/email/smtp-tls?domain=${domain}`)

/** The leaf certificate as openssl sees it through STARTTLS. */
const opensslLeaf = (ip: string, host: string) => {
  const pem = execFileSync(
    "bash",
    [
      "-c",
      `openssl s_client -starttls smtp -connect ${ip}:${env.SMTP_PORT} -servername ${host} </dev/null 2>/dev/null | openssl x509`
    ],
    { encoding: "utf8", timeout: 15_000 }
  )
  const field = (flag: string) =>
    execFileSync("openssl", ["x509", "-noout", flag, "-nameopt", "multiline,-esc_msb"], {
      input: pem,
      encoding: "utf8"
    })
  return {
    enddate: field("-enddate")
      .trim()
      .replace(/^notAfter=/, ""),
    issuer: field("-issuer"),
    sans: execFileSync("openssl", ["x509", "-noout", "-ext", "subjectAltName"], {
      input: pem,
      encoding: "utf8"
    }),
    fingerprint: execFileSync("openssl", ["x509", "-noout", "-fingerprint", "-sha256"], {
      input: pem,
      encoding: "utf8"
    })
      .trim()
      .replace(/^.*=/, "")
      .replace(/:/g, "")
      .toLowerCase()
  }
}

describe("SMTP TLS in the world", () => {
  layer(testApp(env), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("perfect.com: STARTTLS, trusted, matching, and openssl agrees on the certificate", () =>
      Effect.gen(function* () {
        const r = yield* smtpTls("perfect.com")
        expect(r.domain).toBe("perfect.com")
        expect(r.mxRecords).toEqual([{ priority: 10, host: "mx.perfect.com" }])
        expect(r.summary).toMatchObject({ status: "pass", starttls: "all", allCertificatesValid: true })
        expect(r.issues).toEqual([])
        const s = r.servers[0]
        expect(s).toMatchObject({
          host: "mx.perfect.com",
          starttls: true,
          trusted: true,
          hostnameMatch: true,
          expired: false,
          fcrdns: { ptr: ["mx.perfect.com"], confirmed: true }
        })
        expect(s.tlsVersion).toMatch(/^TLSv1\.[23]$/)
        expect(s.daysUntilExpiry).toBeGreaterThan(0)
        expect(r.summary.earliestExpiry).toBe(s.expiresAt)
        const o = opensslLeaf(s.ip, s.host)
        expect(s.certificate.sha256).toBe(o.fingerprint)
        expect(s.certificate.validTo).toBe(new Date(o.enddate).toISOString())
        expect(o.issuer).toContain(s.certificate.issuerCommonName)
        for (const name of s.certificate.subjectAltNames) expect(o.sans).toContain(`DNS:${name}`)
      })
    )

    it.effect("mx-nostarttls.com: none of the servers offers STARTTLS", () =>
      Effect.gen(function* () {
        const r = yield* smtpTls("mx-nostarttls.com")
        expect(r.summary).toMatchObject({ status: "fail", starttls: "none", allCertificatesValid: null })
        expect(r.servers[0]).toMatchObject({ starttls: false, tlsVersion: null, certificate: null })
        expect(r.issues.join("\n")).toMatch(/does not offer STARTTLS/)
      })
    )

    it.effect("mx-expired.com: the certificate expired on 2025-01-01", () =>
      Effect.gen(function* () {
        const r = yield* smtpTls("mx-expired.com")
        const s = r.servers[0]
        expect(s).toMatchObject({ starttls: true, expired: true, certificateValid: false, status: "fail" })
        expect(s.expiresAt).toBe("2025-01-01T00:00:00.000Z")
        expect(s.daysUntilExpiry).toBeLessThan(0)
        expect(r.summary.allCertificatesValid).toBe(false)
        const o = opensslLeaf(s.ip, s.host)
        expect(new Date(o.enddate).toISOString()).toBe(s.expiresAt)
      })
    )

    it.effect("mx-selfsigned.com: encrypted but not trusted", () =>
      Effect.gen(function* () {
        const r = yield* smtpTls("mx-selfsigned.com")
        const s = r.servers[0]
        expect(s).toMatchObject({ starttls: true, trusted: false, status: "fail", certificateValid: false })
        expect(s.trustError).toMatch(/SELF_SIGNED/)
        expect(s.certificate.selfIssued).toBe(true)
      })
    )

    it.effect("mx-wrongname.com: trusted chain, wrong name", () =>
      Effect.gen(function* () {
        const r = yield* smtpTls("mx-wrongname.com")
        const s = r.servers[0]
        expect(s).toMatchObject({
          trusted: true,
          hostnameMatch: false,
          certificateValid: false,
          status: "fail"
        })
        expect(s.certificate.subjectAltNames).toEqual(["mail.some-other-name.net"])
        expect(s.hostnameError).toContain("mx.mx-wrongname.com")
      })
    )

    it.effect("mx-slow.com: unknown, stalled at the banner, within the timeout plus a margin", () =>
      Effect.gen(function* () {
        const started = Date.now()
        const r = yield* smtpTls("mx-slow.com")
        const elapsed = Date.now() - started
        expect(elapsed).toBeLessThan(BANNER_TIMEOUT_MS + 3_000)
        expect(r.summary).toMatchObject({ status: "unknown", starttls: "unknown" })
        expect(r.servers[0]).toMatchObject({ status: "unknown", stalledStage: "banner", starttls: null })
        expect(r.servers[0].elapsedMs).toBeGreaterThanOrEqual(BANNER_TIMEOUT_MS)
        expect(r.issues.join("\n")).toMatch(/banner stage/)
      })
    )

    it.effect("the other mail scenarios have working, valid TLS", () =>
      Effect.gen(function* () {
        for (const domain of ["mx-noptr.com", "mx-ptrmismatch.com", "mx-listed.com", "dane-mismatch.com"]) {
          const r = yield* smtpTls(domain)
          expect(r.summary.status, domain).toBe("pass")
        }
      })
    )

    it.effect("a domain without MX is not-applicable; a bad domain is 400", () =>
      Effect.gen(function* () {
        // no MX, no address at all: nowhere to deliver
        const none = yield* smtpTls("dmarc-none.com")
        expect(none.mxStatus).toBe("none")
        expect(none.servers).toEqual([])
        expect(none.summary.status).toBe("not-applicable")
        // no MX but an A record: the implicit MX (RFC 5321 5.1) is probed; nothing listens on port 25
        // at 127.88.0.18, so the domain receives no mail: not applicable, with the null MX advice
        const r = yield* smtpTls("nomx.net")
        expect(r.mxStatus).toBe("implicit")
        expect(r.servers).toMatchObject([
          { host: "nomx.net", ip: "127.88.0.18", priority: 0, implicit: true, reachable: false }
        ])
        expect(r.summary).toMatchObject({ status: "not-applicable", implicitMxSilent: "refused" })
        expect(r.issues.join("\n")).toMatch(/null MX \(RFC 7505\)/)
        const nul = yield* smtpTls("nomail.org")
        expect(nul.summary.status).toBe("not-applicable")
        const client = yield* HttpClient.HttpClient
        const bad = yield* client.get("/api/email/smtp-tls?domain=not_a_domain").pipe(Effect.scoped)
        expect(bad.status).toBe(400)
      })
    )
  })
})
