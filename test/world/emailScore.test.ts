/**
 * One model: the score of `GET /email/check` is the email category of `GET /scan/quick`,
 * for world scenarios that span the email rules (a full setup, a null MX, ~all, +all, p=none, a weak
 * DKIM key, MTA-STS in testing, no DMARC).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"

const DOMAINS = [
  "perfect.com",
  "nomail.org",
  "spf-softfail.com",
  "spf-passall.com",
  "dmarc-none.com",
  "dkim-weak.com",
  "mtasts-testing.com",
  "mx-noptr.com"
]

describe("the email score is the model's email category", () => {
  layer(testApp(worldEnv()), { timeout: 120_000, excludeTestServices: true })((it) => {
    for (const domain of DOMAINS)
      it.effect(`${domain}: /email/check score = /scan/quick categories.email`, () =>
        Effect.gen(function* () {
          const check = yield* getJson(`/api/email/check?domain=${domain}`)
          const quick = yield* getJson(`/api/scan/quick?domain=${domain}`)
          const email = quick.categories.email
          expect(check.score).toBe(email.score)
          expect(check.scoreBreakdown).toMatchObject({
            category: "email",
            scoringVersion: quick.scoringVersion,
            points: email.points,
            maxPoints: email.maxPoints,
            percentage: email.percentage
          })
          const brief = (cs: ReadonlyArray<any>) =>
            cs.map((c) => ({ id: c.id, status: c.status, points: c.points, maxPoints: c.maxPoints }))
          expect(brief(check.scoreBreakdown.checks)).toEqual(brief(email.checks))
        })
      )
  })
})
