/**
 * The verified domains service over a SQLite database and an in-memory zone, on the test clock:
 * a bogus (SERVFAIL) answer never verifies, an authenticated one is marked DNSSEC-validated, and the
 * daily re-check (the service's own hourly passes) lapses a claim a day after its record went, not
 * before, while a claim whose look-up fails stays verified.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, TestClock } from "effect"
import { AppConfig } from "../../../src/Config.ts"
import { ClusterSqlLive } from "../../../src/jobs/Cluster.ts"
import { ensureClaimTables } from "../../../src/monitor/access/DomainClaimStore.ts"
import { VerifiedDomains } from "../../../src/monitor/access/VerifiedDomains.ts"
import { Resolver } from "../../../src/net/Resolver.ts"
import { type FakeEntry, makeFake } from "../../../src/net/ResolverFake.ts"

const zone: Record<string, FakeEntry> = {}

/** The fake resolver over the zone as it is at each question (the fake copies its zone when made). */
const liveZone = Layer.sync(Resolver, () =>
  Resolver.make({
    ...makeFake(zone),
    query: (name, type, options) => Effect.suspend(() => makeFake(zone).query(name, type, options))
  })
)

const service = () =>
  VerifiedDomains.Default.pipe(
    Layer.provide(Layer.effectDiscard(ensureClaimTables)),
    Layer.provide(liveZone),
    Layer.provide(ClusterSqlLive),
    Layer.provide(AppConfig.Default),
    Layer.provide(
      Layer.setConfigProvider(
        ConfigProvider.fromMap(new Map([["DATA_DIR", mkdtempSync(join(tmpdir(), "verified-domains-"))]]))
      )
    )
  )

describe("the verified domains service", () => {
  it.scoped("verifies only an authentic answer's token, and lapses a claim a day after its record went", () =>
    Effect.gen(function* () {
      const domains = yield* VerifiedDomains
      const gone = yield* domains.claim("acme", "gone.com")
      const failing = yield* domains.claim("acme", "failing.com")
      const bogus = yield* domains.claim("acme", "bogus.com")

      zone["_domain-audit-challenge.bogus.com TXT"] = { rdata: [bogus.challenge.value], bogus: true }
      const refused = yield* domains.verify("acme", "bogus.com")
      expect(refused).toMatchObject({
        state: "pending",
        lastCheck: expect.stringMatching(/^unknown: .*servfail/i)
      })

      zone["_domain-audit-challenge.gone.com TXT"] = { rdata: [gone.challenge.value], ad: true }
      zone["_domain-audit-challenge.failing.com TXT"] = [failing.challenge.value]
      expect(yield* domains.verify("acme", "gone.com")).toMatchObject({
        state: "verified",
        dnssecValidated: true
      })
      expect(yield* domains.verify("acme", "failing.com")).toMatchObject({
        state: "verified",
        dnssecValidated: false
      })

      delete zone["_domain-audit-challenge.gone.com TXT"]
      zone["_domain-audit-challenge.failing.com TXT"] = "SERVFAIL"
      // the hourly passes leave a claim checked less than a day ago alone
      yield* TestClock.adjust("23 hours")
      expect((yield* domains.get("acme", "gone.com")).state).toBe("verified")
      // a day on, the pass re-checks both: the record gone lapses one, the failed look-up nothing
      yield* TestClock.adjust("2 hours")
      expect((yield* domains.get("acme", "gone.com")).state).toBe("lapsed")
      expect(yield* domains.get("acme", "failing.com")).toMatchObject({
        state: "verified",
        lastCheck: expect.stringMatching(/^unknown/)
      })
      expect(yield* domains.isVerified("acme", "gone.com")).toBe(false)
      expect(yield* domains.isVerified("acme", "failing.com")).toBe(true)
      expect(yield* domains.isVerified("other", "failing.com")).toBe(false)
    }).pipe(Effect.provide(service()))
  )
})
