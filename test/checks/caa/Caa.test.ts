import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import fc from "fast-check"
import { analyse, Caa, CaaReport, type CaaInput, type Served } from "../../../src/checks/caa/Caa.ts"
import { identifiersOf } from "../../../src/checks/caa/Issuers.ts"
import { type TlsInfo, WebError } from "../../../src/net/WebTypes.ts"
import { runFake } from "../facts.ts"
import { SmtpFailure } from "../../../src/net/Smtp.ts"
import { type Chain, makeChain, probe, stalled, tlsFacts } from "../fixtures.ts"

const now = new Date("2026-12-01T00:00:00Z")
const LE = "C=US, O=Let's Encrypt, CN=R11"

const web = (issuer: string, names: ReadonlyArray<string> = ["example.com"]): Served => ({
  service: "web",
  host: "example.com",
  address: "192.0.2.80",
  certificate: { issuer, subjectAltNames: names, selfIssued: false }
})

const input = (served: ReadonlyArray<Served>, caa: Record<string, ReadonlyArray<string>>): CaaInput => ({
  domain: "example.com",
  issuers: [],
  served,
  lookups: Object.fromEntries(
    ["www.example.com", "mx.example.com", "example.com", "com"].map((name) => [
      name,
      {
        name,
        outcome: "records" as const,
        records: (caa[name] ?? []).map((value) => {
          const [flags, tag, ...rest] = value.split(" ")
          return { flags: Number(flags), tag: tag!, value: rest.join(" ").replace(/^"|"$/g, "") }
        })
      }
    ])
  )
})

describe("the issuer table", () => {
  it("knows the large CAs by their organisation, and the configured ones first", () => {
    expect(identifiersOf(LE, [])).toEqual(["letsencrypt.org"])
    expect(identifiersOf("C=US, O=Google Trust Services, CN=WR1", [])).toContain("pki.goog")
    expect(
      identifiersOf("C=GB, O=Sectigo Limited, CN=Sectigo RSA Domain Validation Secure Server CA", [])
    ).toContain("sectigo.com")
    expect(identifiersOf("O=Domain Audit World, CN=Domain Audit World Root CA", [])).toEqual([])
    expect(
      identifiersOf("O=Domain Audit World, CN=Domain Audit World Root CA", [
        { name: "domain audit world", identifiers: ["world-ca.test"] }
      ])
    ).toEqual(["world-ca.test"])
  })
})

describe("analyse", () => {
  it("passes a certificate whose issuer the governing CAA set permits, found by climbing", () => {
    const r = analyse(
      input([{ ...web(LE, ["www.example.com"]), host: "www.example.com" }], {
        "example.com": ['0 issue "letsencrypt.org"']
      }),
      now
    )
    expect(r.result.status).toBe("pass")
    expect(r.result.certificates[0]).toMatchObject({
      caaAt: "example.com",
      tag: "issue",
      permitted: ["letsencrypt.org"],
      verdict: "permitted"
    })
  })

  it("fails a certificate whose issuer CAA does not permit", () => {
    const r = analyse(input([web(LE)], { "example.com": ['0 issue "digicert.com"'] }), now)
    expect(r.result.status).toBe("fail")
    expect(r.result.certificates[0]!.verdict).toBe("forbidden")
    expect(r.result.issues[0]).toMatch(/digicert\.com, not letsencrypt\.org/)
  })

  it("shows each issuer property's parameters (RFC 8657, RFC 9495) and says what binds a permitted CA", () => {
    const r = analyse(
      input([web(LE)], {
        "example.com": [
          '0 issue "letsencrypt.org; accounturi=https://acme.example/acct/1; validationmethods=dns-01"',
          '0 issuemail "digicert.com"',
          '0 iodef "mailto:caa@example.com"'
        ]
      }),
      now
    )
    const cert = r.result.certificates[0]!
    expect(cert.verdict).toBe("permitted")
    expect(cert.properties).toEqual([
      {
        tag: "issue",
        flags: 0,
        issuer: "letsencrypt.org",
        parameters: [
          { key: "accounturi", value: "https://acme.example/acct/1" },
          { key: "validationmethods", value: "dns-01" }
        ],
        accountUris: ["https://acme.example/acct/1"],
        validationMethods: ["dns-01"],
        problems: []
      },
      {
        tag: "issuemail",
        flags: 0,
        issuer: "digicert.com",
        parameters: [],
        accountUris: [],
        validationMethods: [],
        problems: []
      }
    ])
    expect(cert.message).toMatch(
      /only for ACME account https:\/\/acme\.example\/acct\/1, only by validation dns-01/
    )
    expect(r.result.parameterProblems).toEqual([])
    expect(Caa.about.findings?.(r)).toEqual([])
  })

  it("reports a syntax error in a governing issuer value as a finding, once per value", () => {
    const r = analyse(
      input(
        [
          web(LE),
          {
            ...web(LE),
            host: "www.example.com",
            certificate: { issuer: LE, subjectAltNames: ["www.example.com"], selfIssued: false }
          }
        ],
        {
          "example.com": ['0 issue "letsencrypt.org; validationmethods=dns-01;"', '0 issue "digicert.com"']
        }
      ),
      now
    )
    // A CA reads the malformed value as permitting none: only digicert.com is left (RFC 8659 4.2).
    expect(r.result.certificates[0]!.verdict).toBe("forbidden")
    expect(r.result.parameterProblems).toEqual([
      "CAA issue at example.com: a parameter list ends in ';' (RFC 8659 §4.2)"
    ])
    expect(Caa.about.findings?.(r)).toEqual(["caa_parameter_syntax"])
  })

  it("judges a wildcard certificate by issuewild", () => {
    const r = analyse(
      input([{ ...web(LE, ["*.example.com"]), host: "www.example.com" }], {
        "example.com": ['0 issue "letsencrypt.org"', '0 issuewild ";"']
      }),
      now
    )
    expect(r.result.certificates[0]).toMatchObject({ wildcard: true, tag: "issuewild", verdict: "forbidden" })
  })

  it("an issuer it does not know is unknown, not a failure; no CAA at all permits any CA", () => {
    expect(
      analyse(input([web("O=Nobody Known, CN=X")], { "example.com": ['0 issue "letsencrypt.org"'] }), now)
        .result.status
    ).toBe("unknown")
    const none = analyse(input([web("O=Nobody Known, CN=X")], {}), now)
    expect(none.result.certificates[0]!.verdict).toBe("no-caa")
    expect(none.result.status).toBe("pass")
  })

  it("a self-signed certificate or none served is not applicable; a failed climb is unknown", () => {
    const self: Served = {
      ...web(LE),
      certificate: { issuer: "CN=x", subjectAltNames: [], selfIssued: true }
    }
    const nothing: Served = {
      ...web(LE),
      certificate: null,
      missing: { kind: "none", reason: "no HTTPS site" }
    }
    expect(analyse(input([self, nothing], {}), now).result.status).toBe("not-applicable")
    const failed = input([web(LE)], {})
    const r = analyse(
      {
        ...failed,
        lookups: {
          ...failed.lookups,
          "example.com": { name: "example.com", outcome: "unknown", reason: "timeout" }
        }
      },
      now
    )
    expect(r.result.status).toBe("unknown")
  })

  const arbServed = fc.record({
    service: fc.constantFrom("web" as const, "mx" as const),
    host: fc.constantFrom("example.com", "www.example.com", "mx.example.com"),
    address: fc.constantFrom(null, "192.0.2.1"),
    certificate: fc.option(
      fc.record({
        issuer: fc.constantFrom(LE, "O=DigiCert Inc, CN=X", "O=?, CN=?"),
        subjectAltNames: fc.subarray(["example.com", "www.example.com", "*.example.com", "mx.example.com"]),
        selfIssued: fc.boolean()
      })
    )
  })
  const arbCaa = fc.subarray([
    '0 issue "letsencrypt.org"',
    '0 issue "digicert.com"',
    '0 issuewild ";"',
    '128 future "x"',
    '0 issue ";"'
  ])

  it("is total and its result encodes through its Schema (property)", () =>
    fc.assert(
      fc.property(fc.array(arbServed, { maxLength: 4 }), arbCaa, arbCaa, (served, apex, www) => {
        const r = analyse(input(served, { "example.com": apex, "www.example.com": www }), now)
        Schema.encodeSync(CaaReport)(r)
        expect(r.result.certificates).toHaveLength(served.length)
      })
    ))
})

describe("the check over fakes", () => {
  let chain: Chain
  beforeAll(() => {
    chain = makeChain(["mx.example.com", "example.com"], 60)
  })
  afterAll(() => chain?.pki.cleanup())

  it.live("reads the web and MX certificates the scan fetches and probes", () =>
    Effect.gen(function* () {
      const tls: TlsInfo = {
        authorized: true,
        authorizationError: null,
        protocol: "TLSv1.3",
        cipher: null,
        peerCertificate: {
          subject: "",
          issuer: "",
          subjectAltName: "",
          validFrom: "",
          validTo: "",
          fingerprint256: "",
          serialNumber: "",
          chain: [Buffer.from(chain.leaf.der, "base64")]
        }
      }
      const r = yield* runFake(Caa, "example.com", {
        zone: {
          "example.com MX": ["10 mx.example.com."],
          "mx.example.com A": ["192.0.2.25"],
          "example.com CAA": ['0 issue "tests.example"']
        },
        web: (url) => ({ status: 200, finalUrl: url, tls }),
        probes: { "mx.example.com|192.0.2.25": probe({ tls: tlsFacts([chain.leaf, chain.ca]) }) },
        env: { CAA_ISSUERS: "domain-audit tests=tests.example" }
      })
      expect(r.result.certificates.map((c) => [c.service, c.host, c.caaAt, c.verdict])).toEqual([
        ["web", "example.com", "example.com", "permitted"],
        ["mx", "mx.example.com", "example.com", "permitted"]
      ])
      expect(r.result.status).toBe("pass")
    })
  )

  it.live(
    "a mail server that refuses the connection serves no certificate; one that stays silent might",
    () =>
      Effect.gen(function* () {
        const failed = (reason: "refused" | "timeout") =>
          stalled("connect", {
            address: "192.0.2.25",
            failure: new SmtpFailure({ stage: "connect", reason, message: `connect (${reason})` })
          })
        const run = (reason: "refused" | "timeout") =>
          runFake(Caa, "example.com", {
            zone: { "example.com MX": ["10 mx.example.com."], "mx.example.com A": ["192.0.2.25"] },
            web: (url) => new WebError({ url, reason: "connect", message: "connect ECONNREFUSED" }),
            probes: { "mx.example.com|192.0.2.25": failed(reason) }
          })
        const refused = yield* run("refused")
        expect(refused.result.certificates.map((c) => [c.service, c.status])).toEqual([
          ["web", "not-applicable"],
          ["mx", "not-applicable"]
        ])
        expect(refused.result.certificates[1]!.message).toMatch(/nothing accepts connections on port 25/)
        expect(refused.result.status).toBe("not-applicable")
        const silent = yield* run("timeout")
        expect(silent.result.certificates[1]!.status).toBe("unknown")
        expect(silent.result.status).toBe("unknown")
      })
  )
})
