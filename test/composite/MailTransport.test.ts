import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { UpstreamProblem } from "../../src/composite/UpstreamProblem.ts"
import { emailCheck } from "../../src/composite/EmailCheck.ts"
import * as MailTransport from "../../src/composite/MailTransport.ts"
import { fakeNet } from "../checks/facts.ts"
import { domain as toDomain } from "../support/domain.ts"

const broken = fakeNet({ zone: { "broken.example MX": "SERVFAIL" } })
const bogus = fakeNet({ zone: { "bogus.example MX": { rdata: ["10 mx.bogus.example."], bogus: true } } })
const nomx = fakeNet({ zone: { "nomx.example TXT": ["v=spf1 -all"] } })
const implicit = fakeNet({ zone: { "implicit.example A": ["192.0.2.1"] } })

describe("mail-transport composites", () => {
  it.effect("a failed MX lookup is UpstreamProblem for every endpoint", () =>
    Effect.gen(function* () {
      const domain = "broken.example"
      const runs: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
        MailTransport.smtpTls(toDomain(domain)).pipe(Effect.provide(broken)),
        MailTransport.fcrdns(toDomain(domain), "/api/email/fcrdns?domain=broken.example").pipe(
          Effect.provide(broken)
        ),
        MailTransport.blacklist(toDomain(domain)).pipe(Effect.provide(broken)),
        MailTransport.tlsa(toDomain(domain)).pipe(Effect.provide(broken))
      ]
      for (const run of runs) {
        const error = yield* Effect.flip(run)
        expect(error).toBeInstanceOf(UpstreamProblem)
        expect((error as UpstreamProblem).error).toMatch(
          /^upstream resolver problem: .*broken\.example.*retry after a few seconds$/
        )
      }
    })
  )
  it.effect("a DNSSEC-bogus MX set is a result with the reason, not a 500 (the CD-bit retry tells)", () =>
    Effect.gen(function* () {
      const domain = "bogus.example"
      const reason = "the MX records could not be validated (DNSSEC bogus)"
      const tls = yield* MailTransport.smtpTls(toDomain(domain))
      expect(tls.summary.status).toBe("unknown")
      expect(tls.issues).toContain(reason)
      const fc = yield* MailTransport.fcrdns(toDomain(domain), "/api/email/fcrdns?domain=bogus.example")
      expect(fc.result.issues).toContain(reason)
      expect((yield* MailTransport.blacklist(toDomain(domain))).issues).toContain(reason)
      expect((yield* MailTransport.tlsa(toDomain(domain))).issues).toContain(reason)
      const sender = yield* MailTransport.senderRequirements(toDomain(domain))
      expect(sender.overallStatus).not.toBe("compliant")
    }).pipe(Effect.provide(bogus))
  )
  it.effect("no MX but an A record: the implicit MX is probed; nothing listening is not applicable", () =>
    Effect.gen(function* () {
      const r = yield* MailTransport.smtpTls(toDomain("implicit.example"))
      expect(r.mxStatus).toBe("implicit")
      expect(r.servers.map((s) => [s.host, s.ip, s.implicit])).toEqual([
        ["implicit.example", "192.0.2.1", true]
      ])
      expect(r.summary).toMatchObject({ status: "not-applicable", implicitMxSilent: "refused" })
      const tlsa = yield* MailTransport.tlsa(toDomain("implicit.example"))
      expect(tlsa.hosts.map((h) => [h.tlsaDomain, h.implicit])).toEqual([["_25._tcp.implicit.example", true]])
    }).pipe(Effect.provide(implicit))
  )
  it.effect("no MX and no address is a result (not applicable), with FCrDNS's self link", () =>
    Effect.gen(function* () {
      const r = yield* MailTransport.fcrdns(
        toDomain("nomx.example"),
        "https://x.test/api/email/fcrdns?domain=nomx.example"
      )
      expect(r.apiUrl).toBe("https://x.test/api/email/fcrdns?domain=nomx.example")
      expect(r.result.status).toBe("not-applicable")
      expect((yield* MailTransport.smtpTls(toDomain("nomx.example"))).summary.status).toBe("not-applicable")
    }).pipe(Effect.provide(nomx))
  )
})

describe("GET /email/check's MX reading agrees with the mail servers", () => {
  it.effect("implicit only when the domain has an address to deliver to (RFC 5321 5.1)", () =>
    Effect.gen(function* () {
      const withA = yield* emailCheck(toDomain("implicit.example")).pipe(Effect.provide(implicit))
      expect(withA.mx).toMatchObject({ records: [], implicit: true, status: "warning" })
      const without = yield* emailCheck(toDomain("nomx.example")).pipe(Effect.provide(nomx))
      expect(without.mx).toMatchObject({ records: [], implicit: false, status: "warning" })
    })
  )
})
