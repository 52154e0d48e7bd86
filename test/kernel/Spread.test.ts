import { describe, expect, it } from "vitest"
import { spread } from "../../src/kernel/Declaration.ts"
import { rules as requireTlsRules } from "../../src/checks/requiretls/Rules.ts"

describe("spread: a practice judged by how far it reaches over a domain's servers", () => {
  it("every server passes, some is the finding, none or no server is not applicable, unknown stays unknown", () => {
    expect(spread("all", "3 of 3", "x_partial")).toEqual({ status: "pass", detail: "3 of 3" })
    expect(spread("some", "1 of 3", "x_partial")).toEqual({
      status: "fail",
      detail: "1 of 3",
      issues: ["x_partial"]
    })
    expect(spread("none", "0 of 3", "x_partial")).toEqual({ status: "not-applicable", detail: "0 of 3" })
    expect(spread("unknown", "no answer", "x_partial")).toEqual({ status: "unknown", detail: "no answer" })
  })

  it("REQUIRETLS on some mail servers is requiretls_partial; no mail is not applicable", () => {
    const judged = (status: string) =>
      requireTlsRules.judge({
        checks: { requiretls: { status: "ok", result: { status, note: status, servers: [] }, error: null } }
      } as never)[0]!.verdict
    expect(judged("some")).toMatchObject({ status: "fail", issues: ["requiretls_partial"] })
    expect(judged("all").status).toBe("pass")
    expect(judged("no-mail").status).toBe("not-applicable")
  })
})
