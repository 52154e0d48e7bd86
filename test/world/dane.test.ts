/**
 * DANE verification in GET /dns/tlsa against the world: each TLSA record compared with the chain
 * the MX actually presented, valid only over a DNSSEC-validated RRset (RFC 7672 2.2).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"

const env = worldEnv()
const tlsa = (domain: string) => getJson(`/api/dns/tlsa?domain=${domain}`)

/** TLSA 3 1 1 data of the certificate openssl sees on the MX (STARTTLS), to cross-check our digest. */
const opensslSpkiSha256 = (ip: string, host: string) =>
  execFileSync(
    "bash",
    [
      "-c",
      `openssl s_client -starttls smtp -connect ${ip}:${env.SMTP_PORT} -servername ${host} </dev/null 2>/dev/null` +
        " | openssl x509 -noout -pubkey | openssl pkey -pubin -outform DER | openssl dgst -sha256 -r"
    ],
    { encoding: "utf8", timeout: 15_000 }
  ).split(" ")[0]

describe("DANE in the world", () => {
  layer(testApp(env), { timeout: 60_000, excludeTestServices: true })((it) => {
    it.effect("perfect.com: validated 3 1 1 matches the presented leaf", () =>
      Effect.gen(function* () {
        const r = yield* tlsa("perfect.com")
        expect(r.status).toBe("pass")
        expect(r.dane).toEqual({ status: "pass", valid: true, hostsWithTlsa: 1, hostsVerified: 1 })
        const dane = r.hosts[0].dane
        expect(dane).toMatchObject({ dnssecValidated: true, daneValid: true, status: "pass" })
        for (const server of dane.servers)
          expect(server).toMatchObject({ status: "pass", matched: true, matchedCertificate: 0 })
        expect(dane.records[0]).toMatchObject({ usage: 3, selector: 1, matchingType: 1, usable: true })
        expect(dane.records[0].matchedBy).toEqual(dane.servers.map((x: any) => x.address))
        expect(dane.records[0].data).toBe(opensslSpkiSha256(dane.servers[0].address, "mx.perfect.com"))
      })
    )

    it.effect("dane-mismatch.com: validated, but no record matches: fail", () =>
      Effect.gen(function* () {
        const r = yield* tlsa("dane-mismatch.com")
        expect(r).toMatchObject({ exists: true, dnssecValidated: true, status: "fail" })
        expect(r.dane).toMatchObject({ status: "fail", valid: false })
        const dane = r.hosts[0].dane
        expect(dane.servers[0]).toMatchObject({ status: "fail", matched: false })
        expect(dane.records[0].matchedBy).toEqual([])
        expect(r.issues.join("\n")).toMatch(/no usable TLSA record matches/)
      })
    )

    it.effect("dane-unsigned.com: the record matches, but without DNSSEC DANE is not valid", () =>
      Effect.gen(function* () {
        const r = yield* tlsa("dane-unsigned.com")
        expect(r).toMatchObject({ exists: true, dnssecValidated: false })
        expect(r.status).not.toBe("pass")
        expect(r.dane).toMatchObject({ valid: false, status: "warning" })
        const dane = r.hosts[0].dane
        expect(dane).toMatchObject({ dnssecValidated: false, daneValid: false, status: "warning" })
        expect(dane.servers[0].matched).toBe(true)
        expect(dane.issues.join("\n")).toMatch(/RFC 7672 2\.2/)
      })
    )

    it.effect("mx-nostarttls.com: no TLSA, nothing to verify", () =>
      Effect.gen(function* () {
        const r = yield* tlsa("mx-nostarttls.com")
        expect(r.exists).toBe(false)
        expect(r.dane).toMatchObject({ status: "not-applicable", valid: false, hostsWithTlsa: 0 })
        expect(r.hosts[0].dane).toBeNull()
      })
    )
  })
})
