/**
 * An Effect program that composes the Scanner with a resolver of its own: every DNS question the
 * scan asks goes through a counting wrapper around the live resolver before it is sent, and the
 * program prints the grade and what was asked, by record type.
 *
 *   set -a; . data/world/world.env; set +a
 *   node custom-resolver.js perfect.com
 *
 * The same shape serves a resolver that logs, refuses some names, or answers from a fixture.
 */
import { Effect, Layer } from "effect"
import { AppConfig, type Ask, netLayer, Resolver, resolverOver, Scanner } from "domain-audit"

/** How many questions the scan asked, by record type. */
const asked = new Map<string, number>()

/** The live resolver (its cache, retries and upstreams), with every question counted first. */
const CountingResolver = Layer.effect(
  Resolver,
  Effect.map(Resolver, (live) => {
    const ask: Ask = (name, type, options, answer) => {
      asked.set(type, (asked.get(type) ?? 0) + 1)
      live.ask(name, type, options, answer)
    }
    return Resolver.make(resolverOver(ask, live.upstreams))
  })
).pipe(Layer.provide(Resolver.Default))

/** The Scanner over the counting resolver; the HTTPS client and the MX prober ask it too. */
const ScannerLive = Scanner.DefaultWithoutDependencies.pipe(
  Layer.provide(netLayer(CountingResolver)),
  Layer.provide(AppConfig.Default)
)

const program = (domain: string) =>
  Effect.gen(function* () {
    const scanner = yield* Scanner
    const { score } = yield* scanner.scan(domain)
    const total = [...asked.values()].reduce((a, b) => a + b, 0)
    const byType = [...asked].sort(([a], [b]) => a.localeCompare(b)).map(([type, n]) => `${type}=${n}`)
    yield* Effect.sync(() =>
      console.log(
        `${score.domain}: ${score.grade} (${score.percentage}%) after ${total} DNS questions: ${byType.join(" ")}`
      )
    )
  })

Effect.runPromise(program(process.argv[2] ?? "perfect.com").pipe(Effect.provide(ScannerLive))).catch(
  (error) => {
    console.error(String(error))
    process.exit(1)
  }
)
