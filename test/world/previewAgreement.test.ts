/**
 * A preview agrees with publishing (docs/preview.md): for spf-toomany.com, dmarc-none.com and
 * caa-forbidden.com, the fix previewed on a synthetic copy serving the scenario gives, check by
 * check, the scan the copy gives once the fix is really published in its zone
 * (scripts/world/mutate --remove and --add). The copies are the last of spf-toomany.com's and of
 * dmarc-none.com's, and the twelfth-last of perfect.com's made to serve caa-forbidden.com; each is
 * reset afterwards whatever fails. A new app for each phase (its caches empty).
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { call, testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { mutate, syntheticCopy } from "./mutateWorld.ts"

const env = { ...worldEnv(), SCAN_CACHE_TTL_MS: "0" }

const FLAT_SPF =
  "v=spf1 ip4:192.0.2.1 ip4:192.0.2.2 ip4:192.0.2.3 ip4:198.51.100.1 ip4:198.51.100.2 ip4:198.51.100.3 a mx ip4:203.0.113.1 -all"

interface Case {
  readonly scenario: string
  readonly domain: string | undefined
  /** How the copy is made to serve the scenario (its own, or another's). */
  readonly serve: ReadonlyArray<string>
  /** The fix: records that replace the RRsets of their name and type. */
  readonly records: (d: string) => ReadonlyArray<{ name: string; type: string; value: string }>
}

const cases: ReadonlyArray<Case> = [
  {
    scenario: "spf-toomany.com",
    domain: syntheticCopy("spf-toomany.com", 1),
    serve: ["--reset"],
    records: (d) => [{ name: d, type: "TXT", value: FLAT_SPF }]
  },
  {
    scenario: "dmarc-none.com",
    domain: syntheticCopy("dmarc-none.com", 1),
    serve: ["--reset"],
    records: (d) => [{ name: `_dmarc.${d}`, type: "TXT", value: "v=DMARC1; p=quarantine" }]
  },
  {
    scenario: "caa-forbidden.com",
    domain: syntheticCopy("perfect.com", 12),
    serve: ["--as", "caa-forbidden.com"],
    records: (d) => [
      { name: d, type: "CAA", value: '0 issue "world-ca.test"' },
      { name: d, type: "CAA", value: '0 issuewild ";"' }
    ]
  }
]

/** The RRsets the fix replaces taken out, the fix added: as publishing it does. */
const publishArgs = (c: Case, d: string) => {
  const records = c.records(d)
  const sets = [...new Set(records.map((r) => `${r.name} ${r.type}`))]
  return [
    ...c.serve,
    ...sets.flatMap((s) => ["--remove", s]),
    ...records.flatMap((r) => ["--add", `${r.name} ${r.type} ${r.value}`])
  ]
}

const withApp = <A>(effect: Effect.Effect<A, unknown, any>) =>
  Effect.runPromise(Effect.provide(effect, testApp(env)) as Effect.Effect<A, unknown, never>)

const statuses = (score: any): Record<string, string> =>
  Object.fromEntries(
    Object.values(score.categories as Record<string, { checks: Array<{ id: string; status: string }> }>)
      .flatMap((c) => c.checks)
      .map((r) => [r.id, r.status])
  )

const issueIds = (score: any): Array<string> =>
  (score.issues as Array<{ id: string }>).map((i) => i.id).sort()

describe("a preview agrees with publishing", () => {
  afterAll(() => {
    for (const c of cases) if (c.domain !== undefined) mutate(c.domain, "--reset")
  })

  it("check by check, for three scenarios' fixes", async () => {
    for (const c of cases) expect(c.domain, `a synthetic copy for ${c.scenario}`).toBeDefined()
    for (const c of cases) expect(mutate(c.domain!, ...c.serve), `serve ${c.scenario}`).toBe(0)
    const previews = await withApp(
      Effect.all(
        cases.map((c) =>
          call("POST", "/api/scan/preview", { domain: c.domain!, records: c.records(c.domain!) })
        ),
        { concurrency: 1 }
      )
    )
    for (const c of cases)
      expect(mutate(c.domain!, ...publishArgs(c, c.domain!)), `publish ${c.scenario}`).toBe(0)
    const published = await withApp(
      Effect.all(
        cases.map((c) => call("POST", "/api/scan", { domain: c.domain! })),
        { concurrency: 1 }
      )
    )
    cases.forEach((c, i) => {
      const [p, q] = [previews[i]!, published[i]!]
      expect(p.status, `${c.scenario}: ${p.text}`).toBe(200)
      expect(q.status, `${c.scenario}: ${q.text}`).toBe(200)
      // the fix changes something, and the preview saw it
      expect(p.json.compared.changes.length, c.scenario).toBeGreaterThan(0)
      expect(statuses(p.json), c.scenario).toEqual(statuses(q.json))
      expect(issueIds(p.json), c.scenario).toEqual(issueIds(q.json))
      expect({ grade: p.json.grade, points: p.json.points }, c.scenario).toEqual({
        grade: q.json.grade,
        points: q.json.points
      })
    })
  }, 600_000)
})
