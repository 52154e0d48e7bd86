/**
 * The takeover check at the names an owner lists (`Facts.names`): each is probed as www is, its
 * CNAME targets join the dependencies with the listed name as `alias`, and without names nothing
 * in the result changes. Over the fakes (test/checks/facts.ts), through a real scan.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Registration } from "../../../src/checks/registration/Registration.ts"
import { Takeover } from "../../../src/checks/takeover/Takeover.ts"
import { webError } from "../../../src/net/WebTypes.ts"
import { dependencyMap } from "../../../src/report/DependencyMap.ts"
import { scan } from "../../../src/scan/Scanner.ts"
import { fakeNet } from "../facts.ts"
import { domain } from "../../support/domain.ts"

const zone = {
  "example.com A": ["192.0.2.1"],
  "example.com NS": ["ns1.example.com."],
  "www.example.com A": ["192.0.2.1"],
  "shop.example.com CNAME": ["closed-shop.hosting.example.net."],
  "docs.example.com CNAME": ["example-docs.github.io."],
  "example-docs.github.io A": ["192.0.2.7"],
  "github.io NS": ["ns1.github.io."],
  "hosting.example.net NS": ["ns1.hosting.example.net."],
  "example.net NS": ["ns1.example.net."]
}
const web = (url: string) =>
  url === "https://docs.example.com/"
    ? { status: 404, body: new TextEncoder().encode("<p>There isn't a GitHub Pages site here.</p>") }
    : webError(url, "connect", "no such test site")

const takeoverOf = (names?: ReadonlyArray<string>) =>
  scan(domain("example.com"), { checks: [Takeover, Registration], ...(names ? { names } : {}) }).pipe(
    Effect.map((s) => ({ takeover: s.checks.takeover.result!, registration: s.checks.registration.result! })),
    Effect.provide(fakeNet({ zone, web }))
  )

describe("takeover at the names an owner lists", () => {
  it.effect("without names, shop. and docs. are not probed and the result carries no names", () =>
    Effect.gen(function* () {
      const { takeover } = yield* takeoverOf()
      expect(takeover.aliases).toEqual([])
      expect(takeover.dependencies).toEqual([])
      expect("names" in takeover).toBe(false)
      expect(takeover.status).toBe("not-applicable")
    })
  )

  it.effect("a listed dangling CNAME and a listed unclaimed hosting site both fail, naming the record", () =>
    Effect.gen(function* () {
      const { takeover, registration } = yield* takeoverOf([
        "docs.example.com",
        "shop.example.com",
        "quiet.example.com"
      ])
      expect(takeover.names).toEqual(["docs.example.com", "shop.example.com", "quiet.example.com"])
      // quiet. has no CNAME: probed, and left out of aliases as any plain name is.
      expect(takeover.aliases.map((a) => [a.name, a.risk, a.remove])).toEqual([
        ["docs.example.com", "unclaimed", "docs.example.com. CNAME example-docs.github.io."],
        ["shop.example.com", "dangling", "shop.example.com. CNAME closed-shop.hosting.example.net."]
      ])
      expect(takeover.status).toBe("fail")
      const hosting = takeover.dependencies.find((d) => d.domain === "example.net")!
      expect(hosting.uses).toEqual([
        { reason: "CNAME target", name: "closed-shop.hosting.example.net", alias: "shop.example.com" }
      ])
      expect(hosting.remove).toEqual([
        "the CNAME at shop.example.com leading to closed-shop.hosting.example.net"
      ])
      // The registration check reads the same dependencies.
      expect(registration.dependencies.map((d) => d.domain)).toEqual(["example.net", "github.io"])
      const map = dependencyMap({
        domain: domain("example.com"),
        computedAt: "2026-01-01T00:00:00.000Z",
        checks: { takeover: { result: takeover }, registration: { result: registration } }
      })
      expect(map.names).toEqual(takeover.names)
      expect(map.dependencies.find((d) => d.domain === "github.io")!.uses).toEqual([
        { reason: "CNAME target", name: "example-docs.github.io", alias: "docs.example.com" }
      ])
    })
  )

  it.effect("a listed name the scan probes anyway (www) is probed once and marked as listed", () =>
    Effect.gen(function* () {
      const { takeover } = yield* takeoverOf(["www.example.com"])
      expect(takeover.names).toEqual(["www.example.com"])
      expect(takeover.aliases).toEqual([])
    })
  )

  it.effect("a name outside the domain that reaches Facts (a library caller) is not probed", () =>
    Effect.gen(function* () {
      const { takeover } = yield* takeoverOf(["docs.example.org"])
      expect(takeover.aliases).toEqual([])
      expect(takeover.names).toBeUndefined()
    })
  )
})
