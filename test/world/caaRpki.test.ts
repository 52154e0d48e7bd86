/**
 * CAA against the certificates served and RPKI route-origin validation, in the world: its private
 * CA (world-ca.test through CAA_ISSUERS), its origin zones and its VRP file (WORLD_RPKI_VRPS).
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { Caa } from "../../src/checks/caa/Caa.ts"
import { Rpki } from "../../src/checks/rpki/Rpki.ts"
import { AppConfig } from "../../src/Config.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { RpkiVrps } from "../../src/net/RpkiVrps.ts"
import { Smtp } from "../../src/net/Smtp.ts"
import { Web } from "../../src/net/Web.ts"
import { runCheck } from "../../src/scan/Scanner.ts"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"
import { getJson } from "./world-http.ts"
import { domain } from "../support/domain.ts"

/** The net services over the world, with its settings and `extra` ones. */
const worldWith = (extra: Record<string, string>) =>
  Layer.mergeAll(Web.Default, Smtp.Default, RpkiVrps.Default.pipe(Layer.provide(Web.Default))).pipe(
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
    )
  )

const withVrps = () => worldWith({ RPKI_VRPS: worldEnv().WORLD_RPKI_VRPS ?? "" })

describe("CAA against the certificates served, in the world", () => {
  it.effect("perfect.com: its CAA permits the world's CA, which issued its web and MX certificates", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(Caa, domain("perfect.com"))
      expect(r.result.status).toBe("pass")
      const hosts = r.result.certificates.map((c) => [c.service, c.host, c.caaAt, c.verdict])
      expect(hosts).toContainEqual(["web", "perfect.com", "perfect.com", "permitted"])
      expect(hosts).toContainEqual(["mx", "mx.perfect.com", "perfect.com", "permitted"])
      for (const c of r.result.certificates) expect(c.caaIdentifiers).toEqual(["world-ca.test"])
    }).pipe(Effect.provide(worldWith({})))
  )

  it.effect(
    "caa-forbidden.com: CAA permits only letsencrypt.org, so both certificates' issuer is forbidden",
    () =>
      Effect.gen(function* () {
        const r = yield* runCheck(Caa, domain("caa-forbidden.com"))
        expect(r.result.status).toBe("fail")
        expect(r.result.certificates.map((c) => [c.service, c.verdict, c.tag, c.permitted])).toEqual([
          ["web", "forbidden", "issue", ["letsencrypt.org"]],
          ["mx", "forbidden", "issue", ["letsencrypt.org"]]
        ])
        expect(r.result.certificates[1]).toMatchObject({
          host: "mx.caa-forbidden.com",
          caaAt: "caa-forbidden.com"
        })
      }).pipe(Effect.provide(worldWith({})))
  )

  it.effect(
    "caa-params.com: RFC 8657 parameters shown and binding the permitted CA, a malformed issuewild reported",
    () =>
      Effect.gen(function* () {
        const r = yield* runCheck(Caa, domain("caa-params.com"))
        expect(r.result.status).toBe("pass")
        const [web] = r.result.certificates
        expect(web).toMatchObject({ service: "web", verdict: "permitted", tag: "issue" })
        expect(web!.message).toMatch(
          /only for ACME account https:\/\/acme\.world-ca\.test\/acct\/7, only by validation dns-01, http-01 \(RFC 8657\)$/
        )
        expect(
          // in the order the tags sort: DNS gives an RRset in no particular order
          [...web!.properties!]
            .sort((a, b) => a.tag.localeCompare(b.tag))
            .map((p) => [p.tag, p.issuer, p.validationMethods, p.problems.length])
        ).toEqual([
          ["issue", "world-ca.test", ["dns-01", "http-01"], 0],
          ["issuemail", "world-ca.test", [], 0],
          ["issuewild", "world-ca.test", ["dns-01"], 1]
        ])
        expect(r.result.parameterProblems).toEqual([
          "CAA issuewild at caa-params.com: a parameter list ends in ';' (RFC 8659 §4.2)"
        ])
        expect(Caa.about.findings?.(r)).toEqual(["caa_parameter_syntax"])
      }).pipe(Effect.provide(worldWith({})))
  )

  it.effect("without CAA_ISSUERS the world's CA is not known: unknown, not a failure", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(Caa, domain("caa-forbidden.com"))
      expect(r.result.status).toBe("unknown")
      expect(r.result.certificates.every((c) => c.verdict === "unknown")).toBe(true)
    }).pipe(Effect.provide(worldWith({ CAA_ISSUERS: "" })))
  )
})

describe("RPKI route-origin validation, in the world", () => {
  it.effect("perfect.com: every web, name server and MX address is RPKI-valid", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(Rpki, domain("perfect.com"))
      expect(r.result.source).toMatchObject({ status: "loaded", vrps: 2 })
      expect(r.result.status).toBe("pass")
      const services = new Set(r.result.addresses.map((a) => a.service))
      expect([...services].sort()).toEqual(["mx", "ns", "web"])
      for (const a of r.result.addresses) expect(a.state).toBe("valid")
      expect(r.result.addresses.some((a) => a.ip === "::1")).toBe(true)
    }).pipe(Effect.provide(withVrps()))
  )

  it.effect("rpki-invalid.com: the MX route is a /32 announced by AS64511: invalid", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(Rpki, domain("rpki-invalid.com"))
      expect(r.result.status).toBe("fail")
      const mx = r.result.addresses.filter((a) => a.service === "mx")
      expect(mx).toHaveLength(1)
      expect(mx[0]).toMatchObject({ state: "invalid", routes: [{ asn: 64511, state: "invalid" }] })
      expect(mx[0]!.routes[0]!.prefix).toBe(`${mx[0]!.ip}/32`)
      for (const a of r.result.addresses.filter((x) => x.service !== "mx")) expect(a.state).toBe("valid")
    }).pipe(Effect.provide(withVrps()))
  )

  it.effect("off without RPKI_VRPS: unknown, nothing validated", () =>
    Effect.gen(function* () {
      const r = yield* runCheck(Rpki, domain("rpki-invalid.com"))
      expect(r.result).toMatchObject({ status: "unknown", source: { status: "off" }, addresses: [] })
    }).pipe(Effect.provide(worldWith({})))
  )
})

const record = (r: any, id: string) =>
  Object.values(r.categories as Record<string, any>)
    .flatMap((c: any) => c.checks)
    .find((c: any) => c.id === id)

describe("the score", () => {
  layer(testApp(worldEnv()), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("without an RPKI source nothing is scored as failed; CAA's verdict is scored", () =>
      Effect.gen(function* () {
        const invalid = yield* getJson("/api/scan/quick?domain=rpki-invalid.com")
        expect(record(invalid, "security.rpki")).toMatchObject({ status: "not-applicable", maxPoints: 0 })
        expect(invalid.issues.map((i: any) => i.id)).not.toContain("rpki_invalid")
        const forbidden = yield* getJson("/api/scan/quick?domain=caa-forbidden.com")
        expect(record(forbidden, "security.caa.issuer")).toMatchObject({ status: "fail" })
        expect(forbidden.issues.map((i: any) => i.id)).toContain("caa_forbids_issuer")
      })
    )
  })

  layer(testApp({ ...worldEnv(), RPKI_VRPS: worldEnv().WORLD_RPKI_VRPS ?? "" }), {
    timeout: 120_000,
    excludeTestServices: true
  })((it) => {
    it.effect("with the world's VRPs the invalid MX route is scored and reported", () =>
      Effect.gen(function* () {
        const r = yield* getJson("/api/scan/quick?domain=rpki-invalid.com")
        expect(record(r, "security.rpki")).toMatchObject({ status: "fail", points: 0, maxPoints: 2 })
        expect(r.issues.map((i: any) => i.id)).toContain("rpki_invalid")
        const perfect = yield* getJson("/api/scan/quick?domain=perfect.com")
        expect(record(perfect, "security.rpki")).toMatchObject({ status: "pass", points: 2 })
        expect(perfect.grade).toBe("A+")
      })
    )
  })
})
