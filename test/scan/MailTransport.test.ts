import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { UpstreamProblem } from "../../src/scan/Errors.ts"
import * as MailTransport from "../../src/scan/MailTransport.ts"
import { fakeNet } from "../checks/facts.ts"

const broken = fakeNet({ zone: { "broken.example MX": "SERVFAIL" } })
const nomx = fakeNet({ zone: { "nomx.example A": ["192.0.2.1"] } })

describe("mail-transport composites", () => {
  it.effect("a failed MX lookup is UpstreamProblem for every endpoint", () =>
    Effect.gen(function* () {
      const domain = "broken.example"
      const runs: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
        MailTransport.smtpTls(domain).pipe(Effect.provide(broken)),
        MailTransport.fcrdns(domain, "/api/email/fcrdns?domain=broken.example").pipe(Effect.provide(broken)),
        MailTransport.blacklist(domain).pipe(Effect.provide(broken)),
        MailTransport.tlsa(domain).pipe(Effect.provide(broken))
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
  it.effect("no MX is a result (not applicable), with FCrDNS's self link", () =>
    Effect.gen(function* () {
      const r = yield* MailTransport.fcrdns(
        "nomx.example",
        "https://x.test/api/email/fcrdns?domain=nomx.example"
      )
      expect(r.apiUrl).toBe("https://x.test/api/email/fcrdns?domain=nomx.example")
      expect(r.result.status).toBe("not-applicable")
      expect((yield* MailTransport.smtpTls("nomx.example")).summary.status).toBe("not-applicable")
    }).pipe(Effect.provide(nomx))
  )
})
