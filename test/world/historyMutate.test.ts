/**
 * A change over time, through the history: a domain of the running world scanned, then made to
 * serve dmarc-none.com's scenario (scripts/world/mutate), then scanned again; the history's diff
 * says so in words and the evidence lists both entries with the change between them. The domain is
 * a synthetic copy of perfect.com that no other test reads (mutate.test.ts takes the last one,
 * monitors the second-last: this one the third-last), reset afterwards whatever fails.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { call, testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { mutate, syntheticCopy } from "./mutateWorld.ts"

const env = worldEnv()
const domain = syntheticCopy("perfect.com", 3)

describe("the history of a domain that changes", () => {
  afterAll(async () => {
    if (domain !== undefined) await mutate(domain, "--reset")
  })

  it("names the DMARC policy going from reject to none, and the mail servers going", async () => {
    expect(domain).toBeDefined()
    const d = domain!
    const dataDir = mkdtempSync(join(tmpdir(), "history-mutate-"))
    // A new app for each phase (its caches empty), over one database.
    const withApp = <A>(effect: Effect.Effect<A, unknown, any>) =>
      Effect.runPromise(
        Effect.provide(effect, testApp({ ...env, SCAN_CACHE_TTL_MS: "0" }, dataDir)) as Effect.Effect<
          A,
          unknown,
          never
        >
      )
    expect(await mutate(d, "--reset")).toBe(0)
    expect((await withApp(call("POST", "/api/scan", { domain: d }))).status).toBe(200)
    expect(await mutate(d, "--as", "dmarc-none.com")).toBe(0)
    const [scan, diff, evidence] = await withApp(
      Effect.all([
        call("POST", "/api/scan", { domain: d }),
        call("GET", `/api/history/${d}/diff`),
        call("GET", `/api/history/${d}/evidence?format=markdown`)
      ])
    )
    expect(scan.status).toBe(200)
    expect(diff.status).toBe(200)
    const changes = diff.json.changes as Array<{
      id: string
      kind: string
      summary: string
      severity: string
    }>
    expect(changes.find((c) => c.id === "record/dmarc-policy")).toMatchObject({
      before: "reject",
      after: "none",
      severity: "high",
      summary: "DMARC policy went from reject to none."
    })
    expect(changes.find((c) => c.kind === "grade")?.summary).toMatch(/^The grade dropped from A\+? to D /)
    expect(changes.find((c) => c.id === "record/mx")).toMatchObject({ after: null, severity: "high" })
    expect(changes.map((c) => c.id)).toContain("issue/dmarc_policy_none")
    // Read in the diff's order: the grade first, the DMARC policy before the checks that no longer
    // apply (the web site and the mail servers went), which the markdown says in one line per area.
    expect(changes[0]!.kind).toBe("grade")
    const policyAt = changes.findIndex((c) => c.id === "record/dmarc-policy")
    const firstGoneAt = changes.findIndex((c) => c.kind === "check" && (c as any).after === "not-applicable")
    expect(firstGoneAt).toBeGreaterThan(policyAt)
    expect(evidence.text).toMatch(/- info: The web site went away: \d+ web checks no longer apply \(HTTPS, /)
    expect(evidence.text).toContain("- high: DMARC policy went from reject to none.")
    expect(evidence.text).toContain("The history's hash chain verifies.")
  }, 600_000)
})
