import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import fc from "fast-check"
import {
  analyse,
  analyseServer,
  SmtpTls,
  SmtpTlsResult,
  type SmtpTlsInput
} from "../../../src/checks/smtp-tls/SmtpTls.ts"
import { SmtpFailure } from "../../../src/net/Smtp.ts"
import { runFake } from "../facts.ts"
import { type Chain, makeChain, probe, stalled, tlsFacts } from "../fixtures.ts"

let chain: Chain
beforeAll(() => {
  chain = makeChain(["mx.example.com"], 60)
})
afterAll(() => chain?.pki.cleanup())

// a little after the certificates are made in beforeAll (their notBefore is "now", to the second)
const now = new Date(Date.now() + 5 * 60_000)
const good = () => probe({ tls: tlsFacts([chain.leaf, chain.ca], { daysUntilExpiry: 59 }) })

describe("analyseServer", () => {
  it("passes a trusted, matching, current certificate", () => {
    const s = analyseServer(good(), 10, null, now)
    expect(s.status).toBe("pass")
    expect(s.certificateValid).toBe(true)
    expect(s.starttls).toBe(true)
    expect(s.tlsVersion).toBe("TLSv1.3")
    expect(s.certificate?.commonName).toBe("mx.example.com")
    expect(s.certificate).not.toHaveProperty("der")
    expect(s.expired).toBe(false)
    expect(s.issues).toEqual([])
  })

  const cases: Array<[string, () => Parameters<typeof analyseServer>[0], string, RegExp]> = [
    [
      "no STARTTLS",
      () => probe({ starttlsOffered: false, extensions: ["PIPELINING"] }),
      "fail",
      /does not offer STARTTLS/
    ],
    [
      "untrusted",
      () => probe({ tls: tlsFacts([chain.leaf], { trusted: false, trustError: "SELF_SIGNED" }) }),
      "fail",
      /not trusted/
    ],
    [
      "wrong name",
      () => probe({ tls: tlsFacts([chain.leaf], { hostnameMatch: false }) }),
      "fail",
      /does not cover/
    ],
    [
      "old protocol",
      () => probe({ tls: tlsFacts([chain.leaf], { protocol: "TLSv1" }) }),
      "warning",
      /RFC 8996/
    ],
    [
      "expiring soon",
      () => probe({ tls: tlsFacts([chain.leaf], { daysUntilExpiry: 5 }) }),
      "warning",
      /expires in 5 days/
    ],
    ["stalled banner", () => stalled("banner"), "unknown", /banner stage/],
    [
      "address refused by policy",
      () =>
        probe({
          status: "error",
          failure: new SmtpFailure({
            stage: "connect",
            reason: "policy",
            message: "10.0.0.1 is a private address"
          }),
          ehloCode: null,
          starttlsOffered: false
        }),
      "fail",
      /not a public address/
    ],
    [
      "broken handshake",
      () =>
        probe({
          status: "error",
          failure: new SmtpFailure({ stage: "handshake", reason: "tls", message: "wrong version number" })
        }),
      "fail",
      /handshake failed/
    ]
  ]
  it.each(cases)("%s", (_n, make, status, issue) => {
    const s = analyseServer(make(), 10, null, now)
    expect(s.status).toBe(status)
    expect(s.issues.join("\n")).toMatch(issue)
  })

  it("an expired certificate fails", () => {
    const later = new Date(Date.parse(chain.leaf.validTo) + 86_400_000)
    const s = analyseServer(good(), 10, null, later)
    expect(s.expired).toBe(true)
    expect(s.certificateValid).toBe(false)
    expect(s.status).toBe("fail")
  })

  it("reports the stalled stage", () => {
    const s = analyseServer(stalled("ehlo", { bannerCode: 220 }), 10, null, now)
    expect(s.stalledStage).toBe("ehlo")
    expect(s.reachable).toBeNull()
    expect(s.starttls).toBeNull()
  })
})

describe("analyse", () => {
  const base = (probes: SmtpTlsInput["probes"]): SmtpTlsInput => ({
    domain: "example.com",
    mxStatus: "answer",
    mxRecords: [{ priority: 10, host: "mx.example.com" }],
    unresolved: [],
    probes
  })

  it("summarises all / some / none STARTTLS and the earliest expiry", () => {
    const all = analyse(base([good(), { ...good(), address: "192.0.2.26" }]), now)
    expect(all.summary.starttls).toBe("all")
    expect(all.summary.allCertificatesValid).toBe(true)
    expect(all.summary.earliestExpiry).toBe(chain.leaf.validTo)
    expect(all.summary.status).toBe("pass")
    const some = analyse(base([good(), probe({ address: "192.0.2.26", starttlsOffered: false })]), now)
    expect(some.summary.starttls).toBe("some")
    expect(some.summary.status).toBe("fail")
    const none = analyse(base([probe({ starttlsOffered: false })]), now)
    expect(none.summary.starttls).toBe("none")
    expect(none.summary.allCertificatesValid).toBeNull()
    const unknown = analyse(base([stalled("banner")]), now)
    expect(unknown.summary.starttls).toBe("unknown")
    expect(unknown.summary.status).toBe("unknown")
  })

  it("null MX and failed MX lookups", () => {
    expect(analyse({ ...base([]), mxStatus: "null-mx" }, now).summary.status).toBe("not-applicable")
    expect(analyse({ ...base([]), mxStatus: "unknown" }, now).summary.status).toBe("unknown")
    const r = analyse({ ...base([]), unresolved: [{ host: "mx.example.com", reason: "none" }] }, now)
    expect(r.summary.status).toBe("fail")
  })

  describe("implicit MX (RFC 5321 5.1: no MX, the domain's own A/AAAA receives mail)", () => {
    const implicit = (probes: SmtpTlsInput["probes"]): SmtpTlsInput => ({
      domain: "mx.example.com",
      mxStatus: "implicit",
      mxRecords: [],
      unresolved: [],
      probes
    })
    const refused = (address: string) =>
      stalled("connect", {
        address,
        failure: new SmtpFailure({
          stage: "connect",
          reason: "refused",
          message: `connect ECONNREFUSED ${address}:25`
        })
      })

    it("a listening implicit MX is judged like any MX, at preference 0, marked implicit", () => {
      const r = analyse(implicit([good()]), now)
      expect(r.mxStatus).toBe("implicit")
      expect(r.mxRecords).toEqual([])
      expect(r.servers.map((s) => [s.host, s.priority, s.implicit, s.status])).toEqual([
        ["mx.example.com", 0, true, "pass"]
      ])
      expect(r.summary.status).toBe("pass")
      expect(r.summary.implicitMxSilent).toBeNull()
      expect(r.issues.join("\n")).toMatch(/implicit MX \(RFC 5321 5\.1\)/)
      const broken = analyse(implicit([probe({ starttlsOffered: false })]), now)
      expect(broken.summary.status).toBe("fail")
    })

    it("nothing listening on port 25 (refused everywhere): not applicable, with the null MX advice", () => {
      const r = analyse(implicit([refused("192.0.2.25"), refused("192.0.2.26")]), now)
      expect(r.summary.implicitMxSilent).toBe("refused")
      expect(r.summary.status).toBe("not-applicable")
      expect(r.servers.every((s) => s.implicit && s.reachable === false)).toBe(true)
      expect(r.issues.join("\n")).toMatch(/nothing accepts connections on port 25 .*null MX \(RFC 7505\)/)
    })

    it("an address no internet sender can reach (address policy: private, loopback) is settled like a refusal", () => {
      const parked = probe({
        status: "error",
        failure: new SmtpFailure({
          stage: "connect",
          reason: "policy",
          message: "127.0.0.1 is a loopback address"
        }),
        ehloCode: null,
        starttlsOffered: false
      })
      const r = analyse(implicit([parked]), now)
      expect(r.summary).toMatchObject({ implicitMxSilent: "refused", status: "not-applicable" })
    })

    it("a connect timeout is not settled: unknown, never a failure", () => {
      const r = analyse(implicit([refused("192.0.2.25"), stalled("connect", { address: "192.0.2.26" })]), now)
      expect(r.summary.implicitMxSilent).toBe("unreachable")
      expect(r.summary.status).toBe("unknown")
    })

    it("one address answering is enough: the others are judged as unreachable MX addresses", () => {
      const r = analyse(implicit([good(), refused("192.0.2.26")]), now)
      expect(r.summary.implicitMxSilent).toBeNull()
      expect(r.summary.status).toBe("unknown")
    })

    it("real MX records never count as silent implicit MX", () => {
      expect(analyse(base([refused("192.0.2.25")]), now).summary.implicitMxSilent).toBeNull()
    })
  })

  it("is total over arbitrary probe shapes (property)", () => {
    const arb = fc.record({
      status: fc.constantFrom("complete" as const, "unknown" as const, "error" as const),
      starttlsOffered: fc.boolean(),
      withTls: fc.boolean(),
      trusted: fc.boolean(),
      match: fc.boolean(),
      days: fc.integer({ min: -500, max: 500 }),
      stage: fc.constantFrom("connect" as const, "banner" as const, "ehlo" as const, "handshake" as const)
    })
    fc.assert(
      fc.property(fc.array(arb, { maxLength: 5 }), (items) => {
        const probes = items.map((i, n) =>
          probe({
            address: `192.0.2.${n}`,
            status: i.status,
            starttlsOffered: i.starttlsOffered,
            failure:
              i.status === "complete"
                ? null
                : new SmtpFailure({ stage: i.stage, reason: "timeout", message: "t" }),
            tls: i.withTls
              ? tlsFacts([chain.leaf], {
                  trusted: i.trusted,
                  hostnameMatch: i.match,
                  daysUntilExpiry: i.days
                })
              : null
          })
        )
        const r = analyse(base(probes), now)
        expect(() => Schema.encodeSync(SmtpTlsResult)(r)).not.toThrow()
        expect(r.servers).toHaveLength(probes.length)
        expect(r.summary.serversWithStarttls).toBeLessThanOrEqual(r.summary.serversReachable)
        if (r.summary.allCertificatesValid)
          expect(r.servers.every((s) => s.certificateValid !== false)).toBe(true)
        expect(r.summary.implicitMxSilent).toBeNull()
        // the same probes as an implicit MX: silent exactly when no address got past connect
        const i = analyse({ ...base(probes), mxStatus: "implicit", mxRecords: [] }, now)
        expect(() => Schema.encodeSync(SmtpTlsResult)(i)).not.toThrow()
        expect(i.servers.every((s) => s.implicit && s.priority === 0)).toBe(true)
        const silent =
          probes.length > 0 &&
          probes.every(
            (p) => p.failure?.stage === "connect" && (p.status === "unknown" || p.failure.reason === "policy")
          )
        expect(i.summary.implicitMxSilent !== null).toBe(silent)
        // a timeout is never settled: never a failure, never "refused"
        if (silent) expect([i.summary.implicitMxSilent, i.summary.status]).toEqual(["unreachable", "unknown"])
      })
    )
  })
})

describe("check", () => {
  // live: the certificates are judged against the real clock
  it.live("probes every MX address and attaches FCrDNS", () =>
    Effect.gen(function* () {
      const r = yield* runFake(SmtpTls, "example.com", {
        zone: {
          "example.com MX": ["10 mx.example.com."],
          "mx.example.com A": ["192.0.2.25"],
          "25.2.0.192.in-addr.arpa PTR": ["mx.example.com."]
        },
        probes: { "mx.example.com|192.0.2.25": good() }
      })
      expect(r.servers.map((s) => s.ip)).toEqual(["192.0.2.25"])
      expect(r.servers[0]!.fcrdns).toEqual({ ptr: ["mx.example.com"], confirmed: true })
      expect(r.servers[0]!.priority).toBe(10)
      expect(r.summary.status).toBe("pass")
    })
  )

  it.live("no MX: probes the domain's own address as the implicit MX (RFC 5321 5.1)", () =>
    Effect.gen(function* () {
      const r = yield* runFake(SmtpTls, "mx.example.com", {
        zone: {
          "mx.example.com A": ["192.0.2.25"],
          "25.2.0.192.in-addr.arpa PTR": ["mx.example.com."]
        },
        probes: { "mx.example.com|192.0.2.25": good() }
      })
      expect(r.mxStatus).toBe("implicit")
      expect(r.mxRecords).toEqual([])
      expect(r.servers.map((s) => [s.host, s.ip, s.priority, s.implicit])).toEqual([
        ["mx.example.com", "192.0.2.25", 0, true]
      ])
      expect(r.servers[0]!.certificateValid).toBe(true)
      expect(r.servers[0]!.fcrdns).toEqual({ ptr: ["mx.example.com"], confirmed: true })
      expect(r.summary.status).toBe("pass")
    })
  )
})
