import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import fc from "fast-check"
import { analyseMtaSts, MtaSts, MtaStsResult } from "../../../src/checks/mta-sts/MtaSts.ts"
import { mxMatches, parseStsPolicy, parseStsRecord } from "../../../src/records/MtaStsPolicy.ts"
import { analyseTlsRpt, parseTlsRpt } from "../../../src/checks/mta-sts/TlsRpt.ts"
import type { FakeZone } from "../../../src/net/Resolver.ts"
import { WebError, type WebRequestOptions, type WebResponse } from "../../../src/net/Web.ts"
import { runFake } from "../facts.ts"

// RFC 8461 3.2 example policy.
const RFC_POLICY =
  "version: STSv1\r\nmode: enforce\r\nmx: mail.example.com\r\nmx: *.example.net\r\nmx: backupmx.example.com\r\nmax_age: 604800\r\n"

describe("MTA-STS grammar (RFC 8461)", () => {
  it("parses the RFC's TXT record and policy", () => {
    expect(parseStsRecord("v=STSv1; id=20160831085700Z;")).toMatchObject({
      version: "STSv1",
      id: "20160831085700Z",
      errors: []
    })
    expect(parseStsPolicy(RFC_POLICY)).toEqual({
      version: "STSv1",
      mode: "enforce",
      maxAge: 604800,
      mx: ["mail.example.com", "*.example.net", "backupmx.example.com"],
      errors: [],
      warnings: []
    })
  })
  it("reports record and policy errors", () => {
    expect(parseStsRecord("v=STSv1;").errors[0]).toContain("id=")
    expect(parseStsRecord("v=STSv1; id=has-dash").errors[0]).toContain("letters or digits")
    expect(parseStsRecord("id=1; v=STSv1").errors[0]).toContain("start with v=STSv1")
    const bad = parseStsPolicy("version: STSv2\nmode: strict\nmax_age: 99999999999\n")
    expect(bad.errors.join("\n")).toMatch(
      /version must be STSv1[\s\S]*mode must be[\s\S]*max_age must be[\s\S]*no mx/
    )
    expect(parseStsPolicy("version: STSv1\r\nmode: none\r\nmax_age: 86400\r\n").errors).toEqual([])
  })
  it("matches MX hosts per RFC 8461 4.1", () => {
    expect(mxMatches("mail.example.com", "MAIL.example.com.")).toBe(true)
    expect(mxMatches("*.example.net", "mx1.example.net")).toBe(true)
    expect(mxMatches("*.example.net", "example.net")).toBe(false)
    expect(mxMatches("*.example.net", "a.b.example.net")).toBe(false)
    expect(mxMatches("mail.example.com", "mail.example.org")).toBe(false)
  })
  it("property: a wildcard covers exactly one extra label", () => {
    const label = fc.stringMatching(/^[a-z0-9]{1,10}$/)
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 4 }), label, label, (suffix, a, b) => {
        const s = suffix.join(".")
        expect(mxMatches(`*.${s}`, `${a}.${s}`)).toBe(true)
        expect(mxMatches(`*.${s}`, `${a}.${b}.${s}`)).toBe(false)
        expect(mxMatches(`*.${s}`, s)).toBe(false)
      })
    )
  })
  it("property: parsers never throw", () => {
    fc.assert(fc.property(fc.string(), (s) => void (parseStsPolicy(s), parseStsRecord(s), parseTlsRpt(s))))
  })
})

describe("TLS-RPT (RFC 8460)", () => {
  it("parses the RFC's examples", () => {
    expect(parseTlsRpt("v=TLSRPTv1; rua=mailto:reports@example.com")).toEqual({
      rua: ["mailto:reports@example.com"],
      errors: []
    })
    expect(parseTlsRpt("v=TLSRPTv1; rua=https://reporting.example.com/v1/tlsrpt").errors).toEqual([])
    expect(parseTlsRpt("v=TLSRPTv1; rua=ftp://x.example").errors[0]).toContain("mailto: or https:")
    expect(parseTlsRpt("v=TLSRPTv1;").errors[0]).toContain("rua= field is missing")
  })
  it("judges the answer", () => {
    expect(analyseTlsRpt({ name: "_smtp._tls.example.com", records: [] }).status).toBe("missing")
    expect(analyseTlsRpt({ name: "_smtp._tls.example.com", error: "timeout" }).status).toBe("unknown")
    expect(
      analyseTlsRpt({ name: "_smtp._tls.example.com", records: ["v=TLSRPTv1; rua=mailto:r@example.com"] })
    ).toMatchObject({
      status: "pass",
      valid: true
    })
  })
})

const page = (
  url: string,
  status: number,
  contentType: string,
  body: string,
  authorized = true
): WebResponse => ({
  url,
  finalUrl: url,
  status,
  headers: { "content-type": contentType },
  rawHeaders: [],
  body: new TextEncoder().encode(body),
  redirects: [],
  address: "192.0.2.1",
  tls: {
    authorized,
    authorizationError: authorized ? null : "SELF_SIGNED_CERT_IN_CHAIN",
    protocol: "TLSv1.3",
    cipher: null,
    peerCertificate: null
  }
})
const web =
  (pages: Record<string, Parameters<typeof page> extends [string, ...infer R] ? R : never>) =>
  (url: string, options: WebRequestOptions): WebResponse | WebError => {
    expect(options.followRedirects).toBe(false)
    const p = pages[url]
    return p ? page(url, ...p) : new WebError({ url, reason: "dns", message: `no address for ${url}` })
  }
const run = (zone: FakeZone, fetcher: ReturnType<typeof web>, domain = "example.com") =>
  runFake(MtaSts, domain, { zone, web: fetcher })

const POLICY_URL = "https://mta-sts.example.com/.well-known/mta-sts.txt"
const baseZone: FakeZone = {
  "_mta-sts.example.com TXT": ["v=STSv1; id=20160831085700Z;"],
  "_smtp._tls.example.com TXT": ["v=TLSRPTv1; rua=mailto:tls@example.com"],
  "example.com MX": ["10 mail.example.com.", "20 mx1.example.net."]
}

describe("MTA-STS check", () => {
  it.effect("enforce policy covering every MX passes", () =>
    Effect.gen(function* () {
      const r = yield* run(baseZone, web({ [POLICY_URL]: [200, "text/plain; charset=utf-8", RFC_POLICY] }))
      expect(r).toMatchObject({
        status: "pass",
        exists: true,
        valid: true,
        record: "v=STSv1; id=20160831085700Z;",
        policyId: "20160831085700Z",
        policyUrl: POLICY_URL,
        policy: { mode: "enforce", maxAge: 604800 },
        mx: { hosts: ["mail.example.com", "mx1.example.net"], allCovered: true },
        tlsRpt: { exists: true, valid: true, rua: ["mailto:tls@example.com"] }
      })
      expect(r.issues).toEqual([])
    })
  )

  it.effect("a policy that misses an MX fails in enforce mode", () =>
    Effect.gen(function* () {
      const policy = RFC_POLICY.replace("mx: *.example.net\r\n", "")
      const r = yield* run(baseZone, web({ [POLICY_URL]: [200, "text/plain", policy] }))
      expect(r).toMatchObject({ status: "fail", valid: false, mx: { allCovered: false } })
      expect(r.mx.coverage).toEqual([
        { host: "mail.example.com", matchedBy: "mail.example.com" },
        { host: "mx1.example.net", matchedBy: null }
      ])
      expect(r.issues[0]).toContain("mx1.example.net")
    })
  )

  it.effect("testing mode warns", () =>
    Effect.gen(function* () {
      const r = yield* run(
        baseZone,
        web({ [POLICY_URL]: [200, "text/plain", RFC_POLICY.replace("enforce", "testing")] })
      )
      expect(r).toMatchObject({ status: "warning", valid: true, policy: { mode: "testing" } })
    })
  )

  it.effect("TXT without a reachable policy, wrong content type, untrusted certificate, redirect", () =>
    Effect.gen(function* () {
      const none = yield* run(baseZone, web({}))
      expect(none).toMatchObject({
        status: "fail",
        exists: true,
        valid: false,
        policy: null,
        fetch: { reachable: false }
      })
      expect(none.issues[0]).toContain("could not be fetched")
      const html = yield* run(baseZone, web({ [POLICY_URL]: [200, "text/html", RFC_POLICY] }))
      expect(html.issues.join()).toContain("text/plain")
      const untrusted = yield* run(baseZone, web({ [POLICY_URL]: [200, "text/plain", RFC_POLICY, false] }))
      expect(untrusted).toMatchObject({ valid: false, fetch: { tlsAuthorized: false } })
      const redirect = yield* run(baseZone, web({ [POLICY_URL]: [301, "text/html", ""] }))
      expect(redirect.issues.join()).toContain("redirect")
    })
  )

  it.effect("missing, unknown and not applicable", () =>
    Effect.gen(function* () {
      const missing = yield* run({ "example.com MX": ["10 mail.example.com."] }, web({}))
      expect(missing).toMatchObject({
        status: "missing",
        exists: false,
        record: null,
        policyId: null,
        policy: null
      })
      const unknown = yield* run(
        { "_mta-sts.example.com TXT": "SERVFAIL", "example.com MX": ["10 mail.example.com."] },
        web({})
      )
      expect(unknown.status).toBe("unknown")
      const nullMx = yield* run(
        { "nomail.org MX": ["0 ."], "nomail.org TXT": ["v=spf1 -all"] },
        web({}),
        "nomail.org"
      )
      expect(nullMx).toMatchObject({ status: "not-applicable", mx: { nullMx: true } })
      const noMx = yield* run({ "nomx.net A": ["192.0.2.1"] }, web({}), "nomx.net")
      expect(noMx).toMatchObject({ status: "not-applicable", mx: { hosts: ["nomx.net"], implicit: true } })
      const nothing = yield* run({}, web({}), "gone.net")
      expect(nothing).toMatchObject({ status: "not-applicable", mx: { hosts: [], implicit: false } })
    })
  )

  it.effect("with a policy, the implicit MX (no MX records, an address) must match its mx patterns", () =>
    Effect.gen(function* () {
      const zone = (domain: string) => ({
        [`_mta-sts.${domain} TXT`]: ["v=STSv1; id=1"],
        [`_smtp._tls.${domain} TXT`]: [`v=TLSRPTv1; rua=mailto:tls@${domain}`],
        [`${domain} A`]: ["192.0.2.1"]
      })
      const policy = (mx: string) => `version: STSv1\nmode: enforce\nmx: ${mx}\nmax_age: 604800\n`
      const covered = yield* run(
        zone("implicit.net"),
        web({
          "https://mta-sts.implicit.net/.well-known/mta-sts.txt": [200, "text/plain", policy("implicit.net")]
        }),
        "implicit.net"
      )
      expect(covered).toMatchObject({
        status: "pass",
        mx: { hosts: ["implicit.net"], implicit: true, allCovered: true }
      })
      const uncovered = yield* run(
        zone("implicit.net"),
        web({
          "https://mta-sts.implicit.net/.well-known/mta-sts.txt": [
            200,
            "text/plain",
            policy("mail.other.net")
          ]
        }),
        "implicit.net"
      )
      expect(uncovered).toMatchObject({ status: "fail", mx: { implicit: true, allCovered: false } })
      expect(uncovered.issues.join(" ")).toContain("implicit.net")
    })
  )

  it("property: analyse is total", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string(), { maxLength: 2 }),
        fc.string(),
        fc.array(fc.domain(), { maxLength: 3 }),
        (txt, body, hosts) => {
          const r = analyseMtaSts({
            domain: "example.com",
            txt: { name: "_mta-sts.example.com", records: txt.map((t) => `v=STSv1;${t}`) },
            policy: {
              url: POLICY_URL,
              status: 200,
              contentType: "text/plain",
              body: new TextEncoder().encode(body),
              finalUrl: POLICY_URL,
              redirects: 0
            },
            mx: { hosts, nullMx: false, implicit: false },
            tlsRpt: { name: "_smtp._tls.example.com", records: [] }
          })
          expect(Schema.is(MtaStsResult)(r)).toBe(true)
          if (r.valid) expect(r.exists).toBe(true)
        }
      )
    )
  })
})
