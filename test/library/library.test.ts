/**
 * The library's two doors over the sources: plain options read as the service's settings (options
 * over an env file over the environment), the Effect Scanner over a resolver of one's own, and
 * `scan` / `scanMany` against the world, graded by the same `score` as every other front end.
 */
import { ConfigProvider, Effect, Either, FastCheck, Layer, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { AppConfig } from "../../src/Config.ts"
import { ScanResult } from "../../src/scan/ScanResult.ts"
import {
  bandOf,
  catalogue,
  gradeScale,
  netLayer,
  preview,
  registry,
  Resolver,
  rules,
  scan,
  type ScanEntry,
  scanMany,
  Scanner,
  type ScanScore,
  score
} from "../../src/lib/DomainAudit.ts"
import { catalogue as engineCatalogue } from "../../src/score/Catalogue.ts"
import { specsOf } from "../../src/score/Rules.ts"
import { configProviderOf, settingsOf } from "../../src/lib/LibraryOptions.ts"
import { scanResult } from "../../src/lib/Testing.ts"
import { worldEnvFile } from "../world/env.ts"
import { runs } from "../support/runs.ts"

const settings = (provider: ConfigProvider.ConfigProvider) =>
  Effect.runPromise(
    Effect.flatMap(AppConfig, (config) => Effect.succeed(config)).pipe(
      Effect.provide(AppConfig.Default),
      Effect.withConfigProvider(provider)
    )
  )

describe("the library's options", () => {
  it("stand for the service's settings, lists joined as the environment writes them", () => {
    expect(
      settingsOf({
        resolvers: ["127.53.1.1", "[::1]:5353"],
        allowTargets: ["127.0.0.0/8"],
        httpAllowedPorts: [443, "8443-8444"],
        scanDeadlineMs: 5000
      })
    ).toEqual(
      new Map([
        ["DNS_RESOLVERS", "127.53.1.1,[::1]:5353"],
        ["SCAN_DEADLINE_MS", "5000"],
        ["ALLOW_TARGETS", "127.0.0.0/8"],
        ["HTTP_ALLOWED_PORTS", "443,8443-8444"]
      ])
    )
  })

  it("win over the env file, which wins over the environment; the rest keep the service's defaults", async () => {
    const file = worldEnvFile()!
    const read = await settings(
      configProviderOf({
        scanDeadlineMs: 1234,
        envFile: file,
        env: { DNS_RESOLVERS: "192.0.2.1", SCAN_DEADLINE_MS: "999", DNS_TIMEOUT_MS: "777" }
      })
    )
    expect(read.scanDeadlineMs).toBe(1234)
    expect(read.dnsResolvers).toEqual([{ address: "127.53.1.1", port: 53 }]) // the world's, from the file
    expect(read.dnsTimeoutMs).toBe(777)
    expect(read.allowTargets).toEqual(["127.0.0.0/8", "::1/128"])
    expect(read.checkTimeoutMs).toBe(20_000)
    expect(read.logLevel.label).toBe("WARN")
  })

  it("refuse an invalid value with the service's message, and a non-domain with the API's", async () => {
    await expect(scan("perfect.com", { resolvers: ["not-an-ip"], env: {} })).rejects.toThrow(
      /DNS_RESOLVERS.*'not-an-ip' is not an IP address/
    )
    await expect(scan("printer.local", { resolvers: ["192.0.2.1"], env: {} })).rejects.toThrow(
      /printer\.local/
    )
  })
})

describe("the Effect door", () => {
  it("scans over the resolver it is given: a name that does not exist is unscannable", async () => {
    const layer = Scanner.DefaultWithoutDependencies.pipe(
      Layer.provide(netLayer(Resolver.Test({ "elsewhere.com A": ["192.0.2.1"] }))),
      Layer.provide(AppConfig.Default),
      Layer.provide(
        Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["DNS_RESOLVERS", "192.0.2.1"]])))
      )
    )
    const graded = await Effect.runPromise(
      Effect.flatMap(Scanner, (scanner) => scanner.scan("HTTPS://Nowhere.COM/path")).pipe(
        Effect.provide(layer)
      )
    )
    expect(graded.domain).toBe("nowhere.com")
    expect(Schema.is(ScanResult)(graded.scan)).toBe(true)
    expect(graded.score).toEqual(score(graded.scan))
    expect(graded.score.unscannable).toContain("does not exist")
  })

  it("examines the names it is given for takeover, and refuses one outside the domain", async () => {
    const layer = Scanner.DefaultWithoutDependencies.pipe(
      Layer.provide(
        netLayer(
          Resolver.Test({
            "elsewhere.com A": ["192.0.2.1"],
            "shop.elsewhere.com CNAME": ["gone.elsewhere.net."],
            "elsewhere.net NS": ["ns.elsewhere.net."]
          })
        )
      ),
      Layer.provide(AppConfig.Default),
      Layer.provide(
        Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["DNS_RESOLVERS", "192.0.2.1"]])))
      )
    )
    const run = (names: ReadonlyArray<string>) =>
      Effect.runPromise(
        Effect.flatMap(Scanner, (scanner) =>
          scanner.scan("elsewhere.com", { names, deadlineMs: 5_000 })
        ).pipe(Effect.either, Effect.provide(layer))
      )
    const listed = await run(["Shop.Elsewhere.com."])
    expect(Either.isRight(listed) && listed.right.scan.checks.takeover.result?.aliases).toEqual([
      expect.objectContaining({ name: "shop.elsewhere.com", risk: "dangling" })
    ])
    const outside = await run(["shop.elsewhere.net"])
    expect(Either.isLeft(outside) && outside.left.message).toMatch(
      /'shop\.elsewhere\.net' is not elsewhere\.com or a name under it/
    )
  })
})

describe("scan and scanMany against the world", () => {
  const envFile = () => worldEnvFile()!

  it("scan grades a domain as the score of its scan", async () => {
    const graded = await scan("perfect.com", { envFile: envFile() })
    expect(graded.score).toEqual(score(graded.scan))
    expect([graded.score.grade, graded.score.percentage]).toEqual(["A+", 100])
  }, 60_000)

  it("preview scores records before they are published, beside the live score, and names a bad one", async () => {
    const previewed = await preview("dmarc-none.com", ["_dmarc.dmarc-none.com TXT v=DMARC1; p=none"], {
      envFile: envFile()
    })
    expect(previewed.score.preview).toBe(true)
    expect(previewed.score.compared.changes).toEqual([])
    expect(previewed.score.compared.live.grade).toBe(previewed.score.grade)
    await expect(
      preview(
        "dmarc-none.com",
        [{ name: "_dmarc.dmarc-none.com", type: "TXT", value: "v=DMARC1; p=maybe" }],
        {
          envFile: envFile()
        }
      )
    ).rejects.toThrow(/_dmarc\.dmarc-none\.com TXT/)
  }, 60_000)

  it("scanMany yields an entry per input, each told to onResult before it is yielded", async () => {
    const told: Array<string> = []
    const yielded: Array<ScanEntry> = []
    const inputs = ["perfect.com", "not a domain", "dmarc-none.com"]
    for await (const entry of scanMany(inputs, {
      envFile: envFile(),
      concurrency: 2,
      onResult: (e) => void told.push(e.input)
    })) {
      expect(told.at(-1)).toBe(entry.input)
      yielded.push(entry)
    }
    expect(yielded.map((e) => e.input).sort()).toEqual([...inputs].sort())
    const bad = yielded.find((e) => !e.ok)
    expect(bad).toMatchObject({ ok: false, input: "not a domain" })
    for (const e of yielded) if (e.ok) expect(e.score).toEqual(score(e.scan))
  }, 60_000)

  it("scanMany reads an async iterable, and stops when the loop breaks", async () => {
    let pulled = 0
    async function* endless() {
      for (;;) {
        pulled++
        yield "perfect.com"
      }
    }
    let seen = 0
    for await (const entry of scanMany(endless(), { envFile: envFile(), concurrency: 2 })) {
      expect(entry.ok).toBe(true)
      if (++seen === 3) break
    }
    expect(seen).toBe(3)
    // the list is pulled as the scans need it, not drained
    expect(pulled).toBeLessThan(50)
  }, 60_000)
})

describe("the scoring as data", () => {
  it("holds the engine's rules and catalogue as frozen copies: a script cannot change a score", () => {
    expect(rules).toEqual(specsOf(registry))
    expect(catalogue).toEqual(engineCatalogue)
    expect(() => ((rules[0] as { maxPoints: number }).maxPoints = 99)).toThrow(TypeError)
    expect(() => ((catalogue["dmarc_missing"] as { severity: string }).severity = "info")).toThrow(TypeError)
    expect(engineCatalogue["dmarc_missing"]!.severity).not.toBe("info")
  })

  it("gives the grade scale best first, the bands adjoining from 100 down to 0", () => {
    expect(gradeScale.map((g) => g.grade)).toEqual(["A+", "A", "B", "C", "D", "F"])
    expect(gradeScale[0]!.maxPercentage).toBe(100)
    expect(gradeScale.at(-1)!.minPercentage).toBe(0)
    for (const [better, worse] of gradeScale.slice(0, -1).map((g, i) => [g, gradeScale[i + 1]!] as const))
      expect(worse.maxPercentage).toBe(better.minPercentage - 1)
    for (const { grade, minPercentage, maxPercentage } of gradeScale.slice(1))
      expect([bandOf(minPercentage), bandOf(maxPercentage)]).toEqual([grade, grade])
  })
})

describe("the testing arbitraries", () => {
  it("prove the policy docs/library.md shows: a ticket below 80 % is a ticket below B", () => {
    const needsTicket = (s: ScanScore) => s.unscannable === null && s.percentage < 80
    FastCheck.assert(
      FastCheck.property(scanResult({ gradable: true }), (scan) => {
        const s = score(scan)
        return needsTicket(s) === !["A+", "A", "B"].includes(s.grade)
      }),
      { numRuns: runs(50) }
    )
  })
})
