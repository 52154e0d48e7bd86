/** The guarded client against the world: trust via EXTRA_CA_FILE, and the address policy switched on. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { AppConfig } from "../../src/Config.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { Web } from "../../src/net/Web.ts"
import { worldEnv } from "./env.ts"

const world = (overrides: Record<string, string> = {}) =>
  Web.Default.pipe(
    Layer.provide(Resolver.Default),
    Layer.provide(AppConfig.Default),
    Layer.provide(
      Layer.unwrapEffect(
        Effect.sync(() =>
          Layer.setConfigProvider(
            ConfigProvider.fromMap(new Map(Object.entries({ ...worldEnv(), ...overrides })))
          )
        )
      )
    )
  )

describe("Web in the world", () => {
  it.live("fetches an MTA-STS policy over verified TLS (world CA via EXTRA_CA_FILE)", () =>
    Effect.gen(function* () {
      const web = yield* Web
      const res = yield* web.get("https://mta-sts.perfect.com/.well-known/mta-sts.txt", {
        followRedirects: false
      })
      expect(res.status).toBe(200)
      expect(new TextDecoder().decode(res.body)).toMatch(/^version: STSv1\r\nmode: enforce/)
      expect(res.tls?.authorized).toBe(true)
      expect(res.address).toMatch(/^127\.80\./)
    }).pipe(Effect.provide(world()))
  )

  it.live("follows the world's HTTP -> HTTPS redirect", () =>
    Effect.gen(function* () {
      const web = yield* Web
      const res = yield* web.get("http://perfect.com/")
      expect(res.finalUrl).toBe("https://perfect.com/")
      expect(res.redirects).toHaveLength(1)
    }).pipe(Effect.provide(world()))
  )

  it.live("without the world's CA the same host is a TLS failure", () =>
    Effect.gen(function* () {
      const web = yield* Web
      const err = yield* Effect.flip(web.get("https://perfect.com/"))
      expect(err.reason).toBe("tls")
    }).pipe(Effect.provide(world({ EXTRA_CA_FILE: "" })))
  )

  describe("with the world's allowance switched off (ALLOW_TARGETS empty)", () => {
    it.live.each([
      "https://perfect.com/",
      "https://127.0.0.1/",
      "https://10.0.0.1/",
      "http://169.254.169.254/latest/meta-data/",
      "https://[::1]/",
      "https://0x7f.1/",
      "https://2130706433/",
      "https://0177.0.0.1/",
      "https://[::ffff:127.0.0.1]/"
    ])("refuses %s before connecting", (url) =>
      Effect.gen(function* () {
        const web = yield* Web
        const err = yield* Effect.flip(web.get(url))
        expect(err.reason, err.message).toBe("refused-address")
      }).pipe(Effect.provide(world({ ALLOW_TARGETS: "" })))
    )

    it.live("a world name resolving to 127.80.x is refused as loopback", () =>
      Effect.gen(function* () {
        const web = yield* Web
        const err = yield* Effect.flip(web.get("https://csp-weak.com/"))
        expect(err.refusal).toBe("loopback")
        expect(err.address).toMatch(/^127\.80\./)
      }).pipe(Effect.provide(world({ ALLOW_TARGETS: "" })))
    )
  })

  it.live("a redirect from an allowed host to a world name on a refused address is refused", () =>
    Effect.gen(function* () {
      // a local plain-HTTP redirector on 127.0.0.1 (allowed) pointing at perfect.com (127.80.x, not allowed)
      const server = http.createServer((_req, res) =>
        res.writeHead(302, { location: "https://perfect.com/" }).end()
      )
      const port = yield* Effect.async<number>((resume) => {
        server.listen(0, "127.0.0.1", () => resume(Effect.succeed((server.address() as AddressInfo).port)))
      })
      const web = yield* Effect.provide(
        Web,
        world({ ALLOW_TARGETS: "127.0.0.1/32", HTTP_ALLOWED_PORTS: `443,${port}` })
      )
      const err = yield* Effect.flip(web.get(`http://127.0.0.1:${port}/`)).pipe(
        Effect.ensuring(Effect.sync(() => server.close()))
      )
      expect(err.reason).toBe("refused-address")
      expect(err.address).toMatch(/^127\.80\./)
    })
  )
})
