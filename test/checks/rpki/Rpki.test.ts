import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import fc from "fast-check"
import { analyse, Rpki, RpkiReport, type RpkiInput, type RpkiTarget } from "../../../src/checks/rpki/Rpki.ts"
import { RpkiVrps, type VrpLoad } from "../../../src/net/RpkiVrps.ts"
import { parsePrefix } from "../../../src/records/RouteOrigin.ts"
import { runCheck } from "../../../src/scan/Scanner.ts"
import { type FakeNet, fakeNet, runFake } from "../facts.ts"
import { domain } from "../../support/domain.ts"

const now = new Date("2026-12-01T00:00:00Z")
const loaded: VrpLoad = {
  status: "loaded",
  source: "vrps.json",
  vrps: [{ asn: 64500, prefix: parsePrefix("192.0.2.0/24")!, maxLength: 24 }],
  skipped: 0,
  loadedAt: now.toISOString()
}
const target = (
  ip: string,
  texts: ReadonlyArray<string>,
  service: RpkiTarget["service"] = "mx"
): RpkiTarget => ({
  service,
  host: "mx.example.com",
  ip,
  origin: { outcome: "answer", texts }
})
const input = (targets: ReadonlyArray<RpkiTarget>, source: VrpLoad = loaded): RpkiInput => ({
  domain: "example.com",
  source,
  targets,
  unresolved: []
})

describe("analyse", () => {
  it("valid, invalid and not-found per address, as RFC 6811 defines them", () => {
    const r = analyse(
      input([
        target("192.0.2.25", ["64500 | 192.0.2.0/24 | ZZ | world | 2026-01-01"]),
        target("192.0.2.26", ["64666 | 192.0.2.0/24 | ZZ | world | 2026-01-01"]),
        target("203.0.113.5", ["64500 | 203.0.113.0/24 | ZZ | world | 2026-01-01"])
      ]),
      now
    )
    expect(r.result.addresses.map((a) => [a.ip, a.state, a.status])).toEqual([
      ["192.0.2.25", "valid", "pass"],
      ["192.0.2.26", "invalid", "fail"],
      ["203.0.113.5", "not-found", "warning"]
    ])
    expect(r.result.addresses[0]!.routes[0]!.vrp).toBe("AS64500 192.0.2.0/24-24")
    expect(r.result.status).toBe("fail")
    expect(r.result.source).toMatchObject({ status: "loaded", vrps: 1 })
  })

  it("without a source: unknown, nothing validated, never a failure", () => {
    const r = analyse(input([target("192.0.2.26", ["64666 | 192.0.2.0/24"])], { status: "off" }), now)
    expect(r.result.status).toBe("unknown")
    expect(r.result.addresses).toEqual([])
    expect(r.result.source.status).toBe("off")
  })

  it("an origin lookup that failed, or no route, is unknown", () => {
    const failed: RpkiTarget = {
      ...target("192.0.2.25", []),
      origin: { outcome: "unknown", reason: "timeout" }
    }
    expect(analyse(input([failed]), now).result.addresses[0]!.state).toBe("unknown")
    expect(analyse(input([target("192.0.2.25", [])]), now).result.status).toBe("unknown")
  })

  it("is total and its result encodes through its Schema (property)", () =>
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            ip: fc.constantFrom("192.0.2.25", "2001:db8::1", "198.51.100.1"),
            texts: fc.array(
              fc.oneof(fc.string(), fc.constantFrom("64500 | 192.0.2.0/24 | x", "1 2 | 2001:db8::/32"))
            ),
            service: fc.constantFrom("web" as const, "mx" as const, "ns" as const)
          }),
          { maxLength: 5 }
        ),
        (ts) => {
          const r = analyse(input(ts.map((t) => target(t.ip, t.texts, t.service))), now)
          Schema.encodeSync(RpkiReport)(r)
          expect(r.result.addresses).toHaveLength(ts.length)
        }
      )
    ))
})

describe("the check over fakes, with VRPs from a file", () => {
  const dir = mkdtempSync(join(tmpdir(), "rpki-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, "vrps.json")
  writeFileSync(
    file,
    JSON.stringify({ roas: [{ asn: "AS64500", prefix: "192.0.2.0/24", maxLength: 24, ta: "t" }] })
  )
  const zone: FakeNet["zone"] = {
    "example.com A": ["192.0.2.80"],
    "example.com NS": ["ns1.example.com."],
    "ns1.example.com A": ["192.0.2.53"],
    "example.com MX": ["10 mx.example.com."],
    "mx.example.com A": ["198.51.100.25"],
    "80.2.0.192.origin.asn.cymru.com TXT": ['"64500 | 192.0.2.0/24 | ZZ | t | 2026-01-01"'],
    "53.2.0.192.origin.asn.cymru.com TXT": ['"64500 | 192.0.2.0/24 | ZZ | t | 2026-01-01"'],
    "25.100.51.198.origin.asn.cymru.com TXT": ['"64511 | 198.51.100.0/24 | ZZ | t | 2026-01-01"']
  }
  const withVrps = (env: Record<string, string>) => {
    const net = fakeNet({ zone, env })
    return runCheck(Rpki, domain("example.com")).pipe(
      Effect.provide(Layer.merge(net, RpkiVrps.Default.pipe(Layer.provide(net)))),
      Effect.orDie
    )
  }

  it.effect("validates the web, name server and MX addresses", () =>
    Effect.gen(function* () {
      const r = yield* withVrps({ RPKI_VRPS: file })
      expect(r.result.addresses.map((a) => [a.service, a.ip, a.state])).toEqual([
        ["web", "192.0.2.80", "valid"],
        ["ns", "192.0.2.53", "valid"],
        ["mx", "198.51.100.25", "not-found"]
      ])
      expect(r.result.status).toBe("warning")
    })
  )

  it.effect("a source that cannot be read is unknown, with the reason", () =>
    Effect.gen(function* () {
      const r = yield* withVrps({ RPKI_VRPS: join(dir, "missing.json") })
      expect(r.result.status).toBe("unknown")
      expect(r.result.source.status).toBe("unavailable")
      expect(r.result.source.reason).toMatch(/ENOENT/)
    })
  )

  it.effect("a file beyond RPKI_VRPS_MAX_BYTES is not read", () =>
    Effect.gen(function* () {
      const r = yield* withVrps({ RPKI_VRPS: file, RPKI_VRPS_MAX_BYTES: "10" })
      expect(r.result.source.reason).toMatch(/RPKI_VRPS_MAX_BYTES/)
    })
  )

  it.effect("off by default: no source, no question asked", () =>
    Effect.gen(function* () {
      const r = yield* withVrps({})
      expect(r.result.source.status).toBe("off")
      expect(r.result.addresses).toEqual([])
      const plain = yield* runFake(Rpki, "example.com", { zone })
      expect(plain.result.status).toBe("unknown")
    })
  )
})
