/**
 * Post-quantum key exchange: the verdict per server (hybrid, classical, no TLS, unknown, not
 * checked) and per part (web, mail), and the rules that show it without scoring it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import fc from "fast-check"
import type { KeyExchangeAnswer } from "../../../src/checks/pq-kex/PqKexGathered.ts"
import {
  analyse,
  PqKex,
  PqKexResult,
  type Asked,
  type PqKexGathered
} from "../../../src/checks/pq-kex/PqKex.ts"
import { runs } from "../../support/runs.ts"

const now = new Date("2026-11-28T12:00:00.000Z")
const hybrid: KeyExchangeAnswer = {
  kind: "selected",
  group: 0x11ec,
  groupName: "X25519MLKEM768",
  hybrid: true,
  helloRetry: false
}
const x25519: KeyExchangeAnswer = {
  kind: "selected",
  group: 0x1d,
  groupName: "x25519",
  hybrid: false,
  helloRetry: true
}
const silent: KeyExchangeAnswer = { kind: "unknown", message: "no ServerHello within 5000 ms" }
const mx = (answer: KeyExchangeAnswer, address = "192.0.2.25"): Asked => ({
  service: "mail",
  host: "mx.example.com",
  address,
  answer
})
const web = (answer: KeyExchangeAnswer, address = "192.0.2.80"): Asked => ({
  service: "web",
  host: "example.com",
  address,
  answer
})
const gathered = (asked: ReadonlyArray<Asked>, more: Partial<PqKexGathered> = {}): PqKexGathered => ({
  domain: "example.com",
  webLookup: asked.some((a) => a.service === "web") ? "answer" : "none",
  mxStatus: asked.some((a) => a.service === "mail") ? "answer" : "none",
  mxError: null,
  asked,
  ...more
})

describe("the verdict of each part", () => {
  it("hybrid, classical (which group), partial", () => {
    const r = analyse(gathered([web(hybrid), mx(x25519), mx(hybrid, "192.0.2.26")]), now)
    expect(r.web.status).toBe("hybrid")
    expect(r.mail.status).toBe("partial")
    expect(r.servers[1]).toMatchObject({ verdict: "classical", group: "x25519", helloRetry: true })
    expect(analyse(gathered([mx(x25519)]), now).mail.status).toBe("classical")
    expect(
      analyse(gathered([mx({ kind: "no-tls13", message: "the server chose TLS 1.2" })]), now).mail.status
    ).toBe("classical")
  })

  it("a timeout or an alert is unknown, never classical", () => {
    expect(analyse(gathered([mx(silent)]), now).mail.status).toBe("unknown")
    expect(analyse(gathered([mx({ kind: "refused", message: "alert 40" })]), now).mail.status).toBe("unknown")
    expect(analyse(gathered([mx(hybrid), mx(silent, "192.0.2.26")]), now).mail.status).toBe("unknown")
    expect(analyse(gathered([], { mxStatus: "unknown", mxError: "SERVFAIL" }), now).mail.status).toBe(
      "unknown"
    )
    expect(analyse(gathered([], { webLookup: "unknown" }), now).web.status).toBe("unknown")
  })

  it("not applicable without a web site, a mail server, or TLS there", () => {
    const none = analyse(gathered([]), now)
    expect([none.web.status, none.mail.status]).toEqual(["not-applicable", "not-applicable"])
    expect(analyse(gathered([], { mxStatus: "null-mx" }), now).mail.status).toBe("not-applicable")
    const noTls = analyse(
      gathered([
        web({ kind: "unknown", message: "ECONNREFUSED" }),
        mx({ kind: "unknown", message: "ehlo: STARTTLS not offered" })
      ]),
      now
    )
    expect([noTls.web.status, noTls.mail.status]).toEqual(["not-applicable", "not-applicable"])
  })

  it("not checked where the scan's depth does not ask", () => {
    const r = analyse(gathered([web({ kind: "not-checked", message: "not at this depth" }), mx(x25519)]), now)
    expect([r.web.status, r.mail.status]).toEqual(["not-checked", "classical"])
  })
})

describe("the rules", () => {
  const ruled = (g: PqKexGathered) =>
    PqKex.about.rules.judge({
      checks: { "pq-kex": { status: "done", reason: null, result: analyse(g, now) } }
    })
  it("show it for no points: pass for hybrid, a finding for servers that differ, classical alone not applicable", () => {
    const [w, m] = ruled(gathered([web(hybrid), mx(x25519)]))
    expect(w!.spec.maxPoints).toBe(0)
    expect(w!.verdict.status).toBe("pass")
    expect(m!.verdict.status).toBe("not-applicable")
    const [, partial] = ruled(gathered([mx(hybrid), mx(x25519, "192.0.2.26")]))
    expect(partial!.verdict).toMatchObject({ status: "fail", issues: ["pq_kex_partial"] })
  })
})

describe("analyse", () => {
  const answer = fc.constantFrom<KeyExchangeAnswer>(
    hybrid,
    x25519,
    silent,
    { kind: "refused", message: "alert 40" },
    { kind: "no-tls13", message: "TLS 1.2" },
    { kind: "unknown", message: "ECONNREFUSED" },
    { kind: "not-checked", message: "depth" }
  )
  const asked = fc.record({
    service: fc.constantFrom("web" as const, "mail" as const),
    host: fc.constantFrom("example.com", "mx.example.com"),
    address: fc.ipV4(),
    answer
  })
  it("is total and its result fits its Schema", () => {
    fc.assert(
      fc.property(
        fc.array(asked, { maxLength: 6 }),
        fc.constantFrom("answer" as const, "none" as const, "unknown" as const, "null-mx" as const),
        fc.constantFrom("answer" as const, "none" as const, "unknown" as const),
        (a, mxStatus, webLookup) => {
          const r = analyse(gathered(a, { mxStatus, webLookup }), now)
          expect(Schema.is(PqKexResult)(r)).toBe(true)
          expect(r.servers.length).toBe(a.length)
        }
      ),
      { numRuns: runs(100) }
    )
  })
  it("its example is the one the OpenAPI shows", () => {
    expect(PqKex.example()).toMatchObject({ web: { status: "hybrid" }, mail: { status: "classical" } })
  })
})
