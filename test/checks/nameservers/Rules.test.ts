/**
 * The name-server check's scoring rules (checks/nameservers/Rules.ts): each rule carries its
 * verdict of the report as it is, a failure (fail, warning or missing) naming the rule's issue.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { rules } from "../../../src/checks/nameservers/Rules.ts"
import type { NameServersReport } from "../../../src/checks/nameservers/Result.ts"
import { CheckStatuses } from "../../../src/kernel/Status.ts"

/** The rules in order: their spec id, the report's verdict they read, the issue a failure names. */
const EXPECTED = [
  ["dns.ns.networks", "networks", "ns_one_network"],
  ["dns.ns.authoritative", "authoritative", "ns_lame"],
  ["dns.ns.consistent", "consistent", "ns_inconsistent"],
  ["dns.ns.tcp", "tcp", "ns_no_tcp"],
  ["dns.ns.recursion", "recursion", "ns_open_recursion"],
  ["ipv6.ns", "ipv6", "ns_no_ipv6"]
] as const

const verdict = fc.record({ status: fc.constantFrom(...CheckStatuses), message: fc.string() })
const verdicts = fc.record({
  count: verdict,
  networks: verdict,
  authoritative: verdict,
  consistent: verdict,
  ipv6: verdict,
  tcp: verdict,
  recursion: verdict
})

const judged = (result: NameServersReport | null, status: "done" | "unknown" = "done") =>
  rules.judge({
    checks: { nameservers: { status, reason: status === "unknown" ? "timed out" : null, result } }
  })

describe("the name-server rules", () => {
  it("carry each verdict, a failure naming its issue", () => {
    fc.assert(
      fc.property(verdicts, (v) => {
        const rulings = judged({ verdicts: v } as unknown as NameServersReport)
        expect(rulings.map((r) => r.spec.id)).toEqual(EXPECTED.map(([id]) => id))
        EXPECTED.forEach(([, key, issue], i) => {
          const { status, message } = v[key]
          const failed = status === "fail" || status === "warning" || status === "missing"
          expect(rulings[i]!.verdict).toEqual(
            failed ? { status: "fail", detail: message, issues: [issue] } : { status, detail: message }
          )
        })
      })
    )
  })

  it("are unknown, every one, when the check could not finish", () => {
    const rulings = judged(null, "unknown")
    expect(rulings.map((r) => r.verdict.status)).toEqual(EXPECTED.map(() => "unknown"))
  })
})
