/**
 * Politeness against the world's shared mail providers (docs/batch.md, "What the batch promises
 * the servers it scans"): mx-shared.com's MX is named by 50 customer domains and counts its
 * sessions; mx-silent.com's MX accepts connections and never speaks. Both tell their counts on
 * http://ADDRESS:8025/ (scripts/world/slow.mjs). A world built before these scenarios existed
 * skips the file (restart the world from this checkout: docs/world.md).
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { SmtpTls } from "../../src/checks/smtp-tls/SmtpTls.ts"
import { AppConfig } from "../../src/Config.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { Smtp } from "../../src/net/Smtp.ts"
import { Web } from "../../src/net/Web.ts"
import { scan } from "../../src/scan/Scanner.ts"
import { worldEnv, worldEnvFile } from "./env.ts"
import { domain as toDomain } from "../support/domain.ts"

interface Manifest {
  readonly scenarios: ReadonlyArray<{ readonly domain: string; readonly mx: ReadonlyArray<{ addr: string }> }>
}

const manifest = (): Manifest | undefined => {
  if (worldEnvFile() === undefined) return undefined
  return JSON.parse(readFileSync(worldEnv()["WORLD_MANIFEST"] ?? "", "utf8")) as Manifest
}
const providers = manifest()?.scenarios.filter(
  (s) => s.domain === "mx-shared.com" || s.domain === "mx-silent.com"
)
const built = providers?.length === 2

const mxOf = (domain: string) => manifest()!.scenarios.find((s) => s.domain === domain)!.mx[0]!.addr
const customers = (provider: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `${provider.split(".")[0]}-customer-${String(i + 1).padStart(2, "0")}.com`
  )

interface Counts {
  readonly open: number
  readonly peak: number
  readonly total: number
}
const counts = (address: string, reset = false) =>
  Effect.promise(async (): Promise<Counts> => {
    const res = await fetch(`http://${address}:8025/${reset ? "reset" : ""}`, {
      method: reset ? "POST" : "GET"
    })
    return (await res.json()) as Counts
  })

/** The net services over the world, with `extra` settings on top of world.env. */
const world = (extra: Record<string, string> = {}) =>
  Layer.mergeAll(Web.Default, Smtp.Default).pipe(
    Layer.provideMerge(Resolver.Default),
    Layer.provideMerge(AppConfig.Default),
    Layer.provide(
      Layer.unwrapEffect(
        Effect.sync(() =>
          Layer.setConfigProvider(
            ConfigProvider.fromMap(new Map(Object.entries({ ...worldEnv(), ...extra })))
          )
        )
      )
    ),
    Layer.fresh
  )

/** The SMTP TLS check alone: the part of a scan that talks to mail servers. */
const smtpTlsOf = (domain: string) =>
  Effect.map(scan(toDomain(domain), { checks: [SmtpTls] }), (result) => result.checks["smtp-tls"]!)

describe.skipIf(!built)("a mail provider shared by many domains", () => {
  it.live(
    "50 concurrent scans of its customers probe and TLS-scan its MX once; each domain is judged on its own",
    () =>
      Effect.gen(function* () {
        const mx = mxOf("mx-shared.com")
        yield* counts(mx, true)
        const domains = customers("mx-shared.com", 50)
        const results = yield* Effect.forEach(domains, smtpTlsOf, { concurrency: "unbounded" })
        // One probe, and one TLS scan (its sessions, all under the destination's bound of 2).
        const seen = yield* counts(mx)
        const first = (results[0]!.result as { servers: ReadonlyArray<{ handshakes: number }> }).servers[0]!
        expect(first.handshakes).toBeGreaterThan(5)
        expect(seen.total).toBe(1 + first.handshakes)
        expect(seen.peak).toBeLessThanOrEqual(2)
        results.forEach((outcome, i) => {
          expect(outcome.status, domains[i]).toBe("done")
          const servers = (outcome.result as { servers: ReadonlyArray<Record<string, unknown>> }).servers
          expect(servers).toHaveLength(1)
          expect(servers[0]).toMatchObject({
            host: "mx.mx-shared.com",
            starttls: true,
            certificateValid: true
          })
        })
      }).pipe(Effect.provide(world())),
    120_000
  )

  it.live(
    "at most PER_DESTINATION_CONCURRENCY sessions are open at once, however many names it is asked under",
    () =>
      Effect.gen(function* () {
        const mx = mxOf("mx-shared.com")
        const smtp = yield* Smtp
        // 30 names for the one address are 30 cache keys: the bound alone keeps the crowd out.
        const names = Array.from({ length: 30 }, (_, i) => `mx${i}.mx-shared.com`)
        yield* counts(mx, true)
        const probes = yield* Effect.forEach(names, (name) => smtp.probe(name, mx), {
          concurrency: "unbounded"
        })
        expect(probes.every((p) => p.status === "complete")).toBe(true)
        const seen = yield* counts(mx)
        expect(seen.total).toBe(30)
        expect(seen.peak).toBeLessThanOrEqual(2)
        expect(seen.peak).toBeGreaterThanOrEqual(1)
        // The counter sees concurrency: with a higher bound, more sessions overlap.
        const wider = yield* Effect.gen(function* () {
          const smtp = yield* Smtp
          yield* counts(mx, true)
          yield* Effect.forEach(names, (name) => smtp.probe(name, mx), { concurrency: "unbounded" })
          return yield* counts(mx)
        }).pipe(Effect.provide(world({ PER_DESTINATION_CONCURRENCY: "6", PER_PREFIX_CONCURRENCY: "6" })))
        expect(wider.total).toBe(30)
        expect(wider.peak).toBeLessThanOrEqual(6)
        expect(wider.peak).toBeGreaterThan(2)
      }).pipe(Effect.provide(world())),
    120_000
  )

  it.live(
    "its TLS configuration is scanned once, however many MX names point at it",
    () =>
      Effect.gen(function* () {
        const mx = mxOf("mx-shared.com")
        const smtp = yield* Smtp
        // A provider's tenants, each with an MX name of its own on the provider's address.
        const names = Array.from({ length: 30 }, (_, i) => `tenant${i}.mx-shared.com`)
        yield* counts(mx, true)
        const scans = yield* Effect.forEach(names, (name) => smtp.tlsScan(name, mx), {
          concurrency: "unbounded"
        })
        const seen = yield* counts(mx)
        expect(scans[0]!.status).toBe("complete")
        expect(scans.every((scan) => scan === scans[0])).toBe(true)
        expect(seen.total).toBe(scans[0]!.handshakes)
        expect(seen.peak).toBeLessThanOrEqual(2)
      }).pipe(Effect.provide(world())),
    120_000
  )
})

describe.skipIf(!built)("a mail server that does not answer", () => {
  // No probe cache, so only the backoff can keep the later scans from knocking again.
  const settings = { PROBE_CACHE_TTL: "0", SMTP_BANNER_TIMEOUT_MS: "1000" }
  const domains = [...customers("mx-silent.com", 3), "mx-silent.com"]

  it.live(
    "is backed off: after the first scan timed out, the other domains on it are unknown without a knock",
    () =>
      Effect.gen(function* () {
        const mx = mxOf("mx-silent.com")
        yield* counts(mx, true)
        const first = yield* smtpTlsOf(domains[0]!)
        expect((yield* counts(mx)).total).toBe(1)
        const rest = yield* Effect.forEach(domains.slice(1), smtpTlsOf, { concurrency: "unbounded" })
        expect((yield* counts(mx)).total).toBe(1)
        for (const outcome of [first, ...rest]) {
          // Unknown, never missing or failed: the server's silence is not a verdict on the domain.
          const servers = (outcome.result as { servers: ReadonlyArray<Record<string, unknown>> }).servers
          expect(servers[0]).toMatchObject({ status: "unknown", stalledStage: "banner" })
        }
        const later = rest.map(
          (o) => (o.result as { servers: ReadonlyArray<{ error: string }> }).servers[0]!.error
        )
        for (const error of later) expect(error).toMatch(/backed off/)
      }).pipe(Effect.provide(world(settings))),
    120_000
  )

  it.live(
    "without backoff every scan knocks again",
    () =>
      Effect.gen(function* () {
        const mx = mxOf("mx-silent.com")
        yield* counts(mx, true)
        for (const domain of domains) yield* smtpTlsOf(domain)
        expect((yield* counts(mx)).total).toBe(domains.length)
      }).pipe(Effect.provide(world({ ...settings, DESTINATION_BACKOFF: "0" }))),
    120_000
  )
})
