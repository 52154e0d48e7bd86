/**
 * REQUIRETLS (RFC 8689): a mail server offers it only in its EHLO reply after STARTTLS; the verdict
 * over all of a domain's mail servers, and the rule that shows it without scoring it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import fc from "fast-check"
import {
  analyse,
  heardOf,
  RequireTls,
  RequireTlsResult,
  type RequireTlsGathered
} from "../../../src/checks/requiretls/RequireTls.ts"
import { SmtpFailure } from "../../../src/net/Smtp.ts"
import { runFake } from "../facts.ts"
import { probe, stalled, tlsFacts } from "../fixtures.ts"

const now = new Date("2026-11-28T12:00:00.000Z")
const overTls = (...keywords: Array<string>) => probe({ tls: tlsFacts([], { extensions: keywords }) })
const gathered = (heard: RequireTlsGathered["heard"]): RequireTlsGathered => ({
  domain: "example.com",
  mxStatus: "answer",
  mxError: null,
  heard,
  implicitMxSilent: null
})
const heard = (...probes: Array<ReturnType<typeof probe>>) => gathered(probes.map(heardOf))

describe("what a session says", () => {
  it("counts REQUIRETLS only after STARTTLS, in any case", () => {
    expect(analyse(heard(overTls("PIPELINING", "requiretls")), now).servers[0]!.requireTls).toBe(true)
    expect(analyse(heard(overTls("PIPELINING", "8BITMIME")), now).servers[0]!.requireTls).toBe(false)
    // advertised before STARTTLS only: the session over TLS is what counts (RFC 3207 4.2)
    const before = probe({ extensions: ["STARTTLS", "REQUIRETLS"], tls: tlsFacts([], { extensions: [] }) })
    expect(analyse(heard(before), now).servers[0]!.requireTls).toBe(false)
  })

  it("reads a server without STARTTLS as not offering it, and a timeout as unknown", () => {
    const plain = analyse(heard(probe({ starttlsOffered: false, extensions: ["REQUIRETLS"] })), now)
    expect(plain.servers[0]).toMatchObject({ requireTls: false, note: "no STARTTLS, so no REQUIRETLS" })
    const timeout = analyse(heard(stalled("ehlo")), now)
    expect(timeout.servers[0]!.requireTls).toBeNull()
    expect(timeout.status).toBe("unknown")
    const policy = probe({
      status: "error",
      failure: new SmtpFailure({
        stage: "connect",
        reason: "policy",
        message: "10.0.0.1 is a private address"
      })
    })
    expect(analyse(heard(policy), now).status).toBe("unknown")
  })
})

describe("the verdict over the mail servers", () => {
  const yes = overTls("REQUIRETLS")
  const no = overTls("PIPELINING")
  it.each([
    ["all", [yes, yes]],
    ["some", [yes, no]],
    ["none", [no, no]],
    ["unknown", [yes, stalled("banner")]],
    ["unknown", [no, stalled("banner")]]
  ] as const)("%s", (status, probes) => {
    expect(analyse(heard(...probes), now).status).toBe(status)
  })

  it("has no mail server to ask with a null MX, and does not know when the MX lookup failed", () => {
    expect(analyse({ ...gathered([]), mxStatus: "null-mx" }, now).status).toBe("no-mail")
    expect(analyse({ ...gathered([]), mxStatus: "none" }, now).status).toBe("no-mail")
    const failed = analyse({ ...gathered([]), mxStatus: "unknown", mxError: "the MX lookup failed" }, now)
    expect(failed).toMatchObject({ status: "unknown", note: "the MX lookup failed" })
  })

  it("reads an implicit MX that nothing answers on port 25 as a domain without mail, as the score's mail records do", () => {
    const refused = probe({
      status: "unknown",
      failure: new SmtpFailure({ stage: "connect", reason: "refused", message: "connect ECONNREFUSED" }),
      ehloCode: null,
      starttlsOffered: false
    })
    const implicit = { ...heard(refused), mxStatus: "implicit" as const }
    expect(analyse(implicit, now).status).toBe("unknown")
    const settled = analyse({ ...implicit, implicitMxSilent: "refused" }, now)
    expect(settled).toMatchObject({ status: "no-mail", note: expect.stringMatching(/implicit MX/) })
    expect(analyse({ ...implicit, implicitMxSilent: "unreachable" }, now).status).toBe("no-mail")
  })

  it("is total, and its result always encodes (property)", () => {
    const keyword = fc.constantFrom("REQUIRETLS", "requiretls", "PIPELINING", "SIZE 1000", "", " ")
    const session = fc.record({
      host: fc.domain(),
      address: fc.ipV4(),
      session: fc.constantFrom("tls" as const, "plain" as const, "unknown" as const),
      keywords: fc.array(keyword, { maxLength: 4 }),
      reason: fc.option(fc.string(), { nil: null })
    })
    const status = fc.constantFrom("answer", "implicit", "none", "null-mx", "unknown") as fc.Arbitrary<
      RequireTlsGathered["mxStatus"]
    >
    fc.assert(
      fc.property(fc.array(session, { maxLength: 6 }), status, (sessions, mxStatus) => {
        const r = analyse({ ...gathered(sessions), mxStatus }, now)
        expect(Schema.encodeSync(RequireTlsResult)(r)).toBeDefined()
        expect(r.servers).toHaveLength(sessions.length)
      })
    )
  })
})

describe("the check", () => {
  it.effect("asks every MX address over the scan's probes", () =>
    Effect.gen(function* () {
      const r = yield* runFake(RequireTls, "example.com", {
        zone: {
          "example.com MX": ["10 mx.example.com.", "20 backup.example.com."],
          "mx.example.com A": ["192.0.2.25"],
          "backup.example.com A": ["192.0.2.26"]
        },
        probes: {
          "mx.example.com|192.0.2.25": overTls("PIPELINING", "REQUIRETLS"),
          "backup.example.com|192.0.2.26": probe({
            host: "backup.example.com",
            address: "192.0.2.26",
            tls: tlsFacts([], { extensions: ["PIPELINING"] })
          })
        }
      })
      expect(r.servers.map((s) => [s.host, s.requireTls])).toEqual([
        ["mx.example.com", true],
        ["backup.example.com", false]
      ])
      expect(r.status).toBe("some")
    })
  )

  it.effect(
    "reads the probes as the SMTP TLS check does: an implicit MX refusing port 25 receives no mail",
    () =>
      Effect.gen(function* () {
        const r = yield* runFake(RequireTls, "example.com", {
          zone: { "example.com A": ["192.0.2.80"] },
          probes: {
            "example.com|192.0.2.80": probe({
              host: "example.com",
              address: "192.0.2.80",
              status: "unknown",
              failure: new SmtpFailure({
                stage: "connect",
                reason: "refused",
                message: "connect ECONNREFUSED 192.0.2.80:25"
              }),
              ehloCode: null,
              starttlsOffered: false
            })
          }
        })
        expect(r).toMatchObject({ status: "no-mail", servers: [{ requireTls: null }] })
      })
  )
})
