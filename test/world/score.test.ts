/**
 * The score in the world: each scenario of docs/scoring.md's table, scanned through the
 * API, earns exactly the points, grade and issue ids the table says; perfect.com is 100 and A+.
 */
import { readFileSync } from "node:fs"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { issueIds } from "../../src/score/Catalogue.ts"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"

const doc = readFileSync(new URL("../../docs/scoring.md", import.meta.url), "utf8")
const table = doc.slice(doc.indexOf("## Scenarios of the test world"))
const scenarios = table
  .split("\n")
  .filter((l) => /^\| `[^`]+` +\|/.test(l))
  .map((l) =>
    l
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim())
  )
  .map(([domain, points, percentage, grade, issues]) => ({
    domain: domain!.replaceAll("`", ""),
    points: Number(points!.split("/")[0]),
    maxPoints: Number(points!.split("/")[1]),
    percentage: Number(percentage),
    grade: grade!,
    issues: [...issues!.matchAll(/`([a-z0-9_]+)`/g)].map((i) => i[1]!).sort()
  }))

describe("the score in the world", () => {
  it("has the scenario table", () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(20)
    expect(scenarios.find((s) => s.domain === "perfect.com")).toMatchObject({
      percentage: 100,
      grade: "A+",
      issues: []
    })
  })

  layer(testApp(worldEnv()), { timeout: 180_000, excludeTestServices: true })((it) => {
    for (const s of scenarios)
      it.effect(`${s.domain}: ${s.points} of ${s.maxPoints} points, ${s.grade}`, () =>
        Effect.gen(function* () {
          const r = yield* getJson(`/api/scan/quick?domain=${encodeURIComponent(s.domain)}`)
          expect({
            points: r.points,
            maxPoints: r.maxPoints,
            percentage: r.percentage,
            score: r.score,
            grade: r.grade,
            issues: r.issues.map((i: any) => i.id).sort()
          }).toEqual({ ...s, score: s.percentage, domain: undefined, issues: s.issues })
          for (const id of r.issues.map((i: any) => i.id)) expect(issueIds).toContain(id)
          for (const c of Object.values(r.categories) as Array<any>) {
            expect(c.score).toBe(c.percentage)
            expect(c.checks.reduce((n: number, x: any) => n + x.points, 0)).toBe(c.points)
          }
          if (s.grade !== "A+") expect(r.gradeInfo.description.length).toBeGreaterThan(0)
        })
      )

    it.effect("POST /scan answers the same result as the quick scan, from the cache", () =>
      Effect.gen(function* () {
        const quick = yield* getJson("/api/scan/quick?domain=perfect.com")
        const client = yield* HttpClient.HttpClient
        const res = yield* client.execute(
          HttpClientRequest.post("/api/scan").pipe(
            HttpClientRequest.bodyUnsafeJson({ domain: "perfect.com" })
          )
        )
        expect(res.status).toBe(200)
        const full = (yield* res.json) as any
        expect(full.cached).toBe(true)
        expect({ ...full, cached: undefined }).toEqual({ ...quick, cached: undefined })
        expect(full).toMatchObject({
          score: 100,
          maxScore: 100,
          percentage: 100,
          grade: "A+",
          scoringVersion: "2026.2"
        })
      }).pipe(Effect.scoped)
    )
  })
})
