/** GET /email/sender-requirements against the world (Google, Yahoo and Microsoft bulk-sender rules). */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"

const sender = (domain: string) => getJson(`/api/email/sender-requirements?domain=${domain}`)
const byId = (r: any) => Object.fromEntries(r.checks.map((c: any) => [c.id, c]))

describe("sender requirements in the world", () => {
  layer(testApp({ ...worldEnv(), SMTP_BANNER_TIMEOUT_MS: "2000" }), {
    timeout: 60_000,
    excludeTestServices: true
  })((it) => {
    it.effect("perfect.com is compliant with all three providers", () =>
      Effect.gen(function* () {
        const r = yield* sender("perfect.com")
        expect(r.domain).toBe("perfect.com")
        expect(r.overallStatus).toBe("compliant")
        expect(r.failedCount).toBe(0)
        expect(r.passedCount).toBe(6)
        const c = byId(r)
        for (const id of ["spf", "dkim", "dmarc", "dmarc-alignment", "fcrdns", "tls"])
          expect(c[id].status, id).toBe("pass")
        expect(c["one-click-unsubscribe"].status).toBe("not-applicable")
        expect(c["spam-rate"].status).toBe("not-applicable")
        expect(c["dmarc"].detail).toContain("p=reject")
        expect(r.summary.google.status).toBe("compliant")
        expect(r.summary.yahoo.status).toBe("compliant")
        expect(r.summary.microsoft.status).toBe("compliant")
      })
    )

    it.effect("unsigned.net publishes no DKIM key: it aligns through SPF alone", () =>
      Effect.gen(function* () {
        const c = byId(yield* sender("unsigned.net"))
        expect(c["dkim"].status).toBe("warning")
        expect(c["dmarc-alignment"]).toMatchObject({
          status: "pass",
          detail: "the From domain can align through SPF"
        })
      })
    )

    it.effect("mx-nostarttls.com: no TLS fails Google's rule only", () =>
      Effect.gen(function* () {
        const r = yield* sender("mx-nostarttls.com")
        const c = byId(r)
        expect(c["tls"].status).toBe("fail")
        expect(c["tls"]).toMatchObject({ googleRequired: true, yahooRequired: false })
        expect(r.overallStatus).toBe("non-compliant")
        expect(r.summary.google.status).toBe("non-compliant")
      })
    )

    it.effect("mx-noptr.com and mx-ptrmismatch.com fail forward/reverse DNS", () =>
      Effect.gen(function* () {
        for (const domain of ["mx-noptr.com", "mx-ptrmismatch.com"]) {
          const r = yield* sender(domain)
          expect(byId(r)["fcrdns"].status, domain).toBe("fail")
          expect(r.summary.yahoo.status, domain).toBe("non-compliant")
        }
      })
    )

    it.effect("mx-slow.com: TLS is unknown, not failed", () =>
      Effect.gen(function* () {
        const r = yield* sender("mx-slow.com")
        expect(byId(r)["tls"].status).toBe("unknown")
      })
    )

    it.effect("nomail.org declares it sends no mail: not-applicable", () =>
      Effect.gen(function* () {
        const r = yield* sender("nomail.org")
        expect(r.overallStatus).toBe("not-applicable")
      })
    )
  })
})
