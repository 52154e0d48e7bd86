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
