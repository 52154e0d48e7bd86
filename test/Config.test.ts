import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { AppConfig, isCidrText, parseUpstream } from "../src/Config.ts"

const withEnv = (env: Record<string, string>) =>
  AppConfig.Default.pipe(
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
  )

describe("AppConfig", () => {
  it.effect("has the documented defaults", () =>
    Effect.gen(function* () {
      const config = yield* AppConfig
      expect(config.port).toBe(8080)
      expect(config.dataDir).toBe("./data")
      expect(config.smtpPort).toBe(25)
      expect(config.dnsblZones.map((z) => z.zone)).toEqual([
        "zen.spamhaus.org",
        "bl.spamcop.net",
        "b.barracudacentral.org"
      ])
    }).pipe(Effect.provide(withEnv({})))
  )

  it.effect(
    "politeness: documented defaults, durations or 0, and the former name of the per-address bound",
    () =>
      Effect.gen(function* () {
        const defaults = yield* AppConfig.pipe(Effect.provide(withEnv({})))
        expect(defaults).toMatchObject({
          probeCacheTtlMs: 600_000,
          perDestinationConcurrency: 2,
          perDestinationHttp: 4,
          perPrefixConcurrency: 8,
          perPrefixHttp: 16,
          destinationBackoffMs: 1_800_000
        })
        const off = yield* AppConfig.pipe(
          Effect.provide(withEnv({ PROBE_CACHE_TTL: "0", DESTINATION_BACKOFF: "PT0S" }))
        )
        expect([off.probeCacheTtlMs, off.destinationBackoffMs]).toEqual([0, 0])
        const former = yield* AppConfig.pipe(Effect.provide(withEnv({ SMTP_PER_ADDRESS_CONCURRENCY: "3" })))
        expect(former.perDestinationConcurrency).toBe(3)
        const both = yield* AppConfig.pipe(
          Effect.provide(withEnv({ SMTP_PER_ADDRESS_CONCURRENCY: "3", PER_DESTINATION_CONCURRENCY: "1" }))
        )
        expect(both.perDestinationConcurrency).toBe(1)
        const bad = yield* Effect.either(
          AppConfig.pipe(Effect.provide(withEnv({ PROBE_CACHE_TTL: "10 minutes" })))
        )
        expect(bad._tag).toBe("Left")
      })
  )

  it.effect("durations once fixed in code: documented defaults, and each read from its setting", () =>
    Effect.gen(function* () {
      const defaults = yield* AppConfig.pipe(Effect.provide(withEnv({})))
      expect(defaults).toMatchObject({
        rdapFailureTtlMs: 60_000,
        rdapBootstrapRefreshMs: 600_000,
        rpkiVrpsRetryMs: 60_000,
        cspCacheTtlMs: 600_000,
        apiKeysRefreshMs: 10_000,
        domainRecheckMs: 86_400_000,
        housekeepingIntervalMs: 3_600_000,
        healthPublishMs: 100,
        costlySliceMs: 5
      })
      const set = yield* AppConfig.pipe(
        Effect.provide(
          withEnv({
            RDAP_FAILURE_TTL: "PT5M",
            RDAP_BOOTSTRAP_REFRESH: "PT1H",
            RPKI_VRPS_RETRY_MS: "30000",
            CSP_CACHE_TTL_MS: "60000",
            API_KEYS_REFRESH_MS: "2000",
            DOMAIN_RECHECK: "PT12H",
            HOUSEKEEPING_INTERVAL: "PT15M",
            HEALTH_PUBLISH_MS: "250",
            COSTLY_SLICE_MS: "2"
          })
        )
      )
      expect(set).toMatchObject({
        rdapFailureTtlMs: 300_000,
        rdapBootstrapRefreshMs: 3_600_000,
        rpkiVrpsRetryMs: 30_000,
        cspCacheTtlMs: 60_000,
        apiKeysRefreshMs: 2_000,
        domainRecheckMs: 43_200_000,
        housekeepingIntervalMs: 900_000,
        healthPublishMs: 250,
        costlySliceMs: 2
      })
      // A duration that is not one, or is none, is refused at start-up rather than spinning a loop.
      for (const env of [{ HOUSEKEEPING_INTERVAL: "1 hour" }, { RDAP_FAILURE_TTL: "PT0S" }]) {
        const bad = yield* Effect.either(AppConfig.pipe(Effect.provide(withEnv(env))))
        expect(bad._tag).toBe("Left")
      }
    })
  )

  it.effect("reads the world's resolver lists", () =>
    Effect.gen(function* () {
      const config = yield* AppConfig
      expect(config.dnsResolvers).toEqual([{ address: "127.53.0.2", port: 5353 }])
      expect(config.propagationResolvers[0]).toEqual({
        address: "127.53.1.1",
        port: 53,
        name: "World East",
        location: "Amsterdam",
        country: "NL"
      })
    }).pipe(
      Effect.provide(
        withEnv({
          DNS_RESOLVERS: "127.53.0.2:5353",
          PROPAGATION_RESOLVERS: "127.53.1.1|World East|Amsterdam|NL"
        })
      )
    )
  )

  it.effect("rejects a resolver that is not an address", () =>
    Effect.gen(function* () {
      const result = yield* Effect.either(AppConfig)
      expect(result._tag).toBe("Left")
    }).pipe(
      Effect.provide(withEnv({ DNS_RESOLVERS: "dns.google" })),
      Effect.catchAll(() => Effect.void)
    )
  )

  it("parses IPv6 upstreams with and without ports", () => {
    expect(parseUpstream("[::1]:5300")).toEqual({ address: "::1", port: 5300 })
    expect(parseUpstream("2001:db8::53")).toEqual({ address: "2001:db8::53", port: 53 })
    expect(parseUpstream("example.com")).toBeUndefined()
  })

  it("takes TRUSTED_PROXIES as addresses or CIDRs and refuses anything else at start-up", () => {
    for (const ok of ["10.0.0.0/8", "192.0.2.1", "::1", "2001:db8::/32", "127.0.0.1/32"])
      expect(isCidrText(ok), ok).toBe(true)
    for (const bad of ["10.0.0.0/33", "::/129", "example.com", "10.0.0.0/8/1", "10.0.0.0/x", ""])
      expect(isCidrText(bad), bad).toBe(false)
    const refused = Effect.runSyncExit(
      Effect.provide(AppConfig, withEnv({ TRUSTED_PROXIES: "10.0.0.0/8,proxy" }))
    )
    expect(refused._tag).toBe("Failure")
  })
})
