/**
 * The Scanner against the world: one full scan asks each DNS question once and probes each MX
 * address once; a deadline turns the slow parts into `unknown` and keeps the rest; interrupting a
 * scan stops its traffic.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { resolverOver } from "../../src/net/ResolverShape.ts"
import { Smtp } from "../../src/net/Smtp.ts"
import { Web } from "../../src/net/Web.ts"
import { scan } from "../../src/scan/Scanner.ts"
import { WorldConfig } from "./env.ts"
import { domain } from "../support/domain.ts"

/** The real net services over the world, with every DNS question and SMTP probe counted. */
const countedWorld = () => {
  const questions = new Map<string, number>()
  const probes = new Map<string, number>()
  let stopped = false
  let afterStop = 0
  const count = (table: Map<string, number>, key: string) => {
    table.set(key, (table.get(key) ?? 0) + 1)
    if (stopped) afterStop++
  }
  const resolver = Layer.effect(
    Resolver,
    Effect.map(Resolver, (inner) =>
      Resolver.make(
        resolverOver((name, type, options, asked) => {
          count(questions, `${name} ${type}${options.checkingDisabled ? " +cd" : ""}`)
          inner.ask(name, type, options, asked)
        }, inner.upstreams)
      )
    )
  ).pipe(Layer.provide(Resolver.Default))
  const smtp = Layer.effect(
    Smtp,
    Effect.map(Smtp, (inner) =>
      Smtp.make({
        ...inner,
        probe: (host, address) =>
          Effect.suspend(() => {
            count(probes, `${host} ${address}`)
            return inner.probe(host, address)
          })
      })
    )
  ).pipe(Layer.provide(Smtp.Default))
  const layer = Layer.mergeAll(Web.Default, smtp).pipe(
    Layer.provideMerge(resolver),
    Layer.provideMerge(AppConfig.Default),
    Layer.provide(WorldConfig)
  )
  return {
    layer,
    questions,
    probes,
    stop: () => void (stopped = true),
    afterStop: () => afterStop
  }
}

const repeated = (table: Map<string, number>) => [...table].filter(([, n]) => n > 1)

describe("Scanner in the world", () => {
  it.live(
    "a full scan of perfect.com asks each DNS question once and probes each MX address once",
    () => {
      const world = countedWorld()
      return Effect.gen(function* () {
        const result = yield* scan(domain("perfect.com"))
        for (const [id, outcome] of Object.entries(result.checks)) expect(outcome.status, id).toBe("done")
        expect(world.questions.size).toBeGreaterThan(5)
        expect(repeated(world.questions)).toEqual([])
        expect(repeated(world.probes)).toEqual([])
        expect(result.criticalPathMs).toBeLessThanOrEqual(result.durationMs + 1)
      }).pipe(Effect.provide(world.layer))
    },
    60_000
  )

  it.live(
    "a short deadline leaves the slow mail server and the slow site unknown, with the reason, and the rest complete",
    () => {
      const world = countedWorld()
      return Effect.gen(function* () {
        const deadlineMs = 2500
        const [mail, web] = yield* Effect.all(
          [scan(domain("mx-slow.com"), { deadlineMs }), scan(domain("web-slow.com"), { deadlineMs })],
          { concurrency: 2 }
        )
        for (const result of [mail, web]) {
          // The deadline is the scan's promise to its caller: allow scheduling slack, not a second deadline.
          expect(result.durationMs).toBeLessThan(deadlineMs + 1500)
          const unknown = Object.values(result.checks).filter((c) => c.status === "unknown")
          for (const c of unknown) expect(c.reason).toMatch(/did not finish within 2500 ms/)
          const done = Object.values(result.checks).filter((c) => c.status === "done")
          expect(done.length).toBeGreaterThan(0)
        }
        const unknownIds = (r: typeof mail) =>
          Object.values(r.checks)
            .filter((c) => c.status === "unknown")
            .map((c) => c.id)
        if ("smtp-tls" in mail.checks) expect(unknownIds(mail)).toContain("smtp-tls")
        if ("headers" in web.checks) expect(unknownIds(web)).toContain("headers")
        if ("spf" in mail.checks) expect(mail.checks.spf.status).toBe("done")
      }).pipe(Effect.provide(world.layer))
    },
    60_000
  )

  it.live(
    "interrupting a scan sends no further question or probe",
    () => {
      const world = countedWorld()
      return Effect.gen(function* () {
        const fiber = yield* Effect.fork(scan(domain("mx-slow.com")))
        yield* Effect.sleep("300 millis")
        yield* Fiber.interrupt(fiber)
        world.stop()
        yield* Effect.sleep("1500 millis")
        expect(world.afterStop()).toBe(0)
      }).pipe(Effect.provide(world.layer))
    },
    60_000
  )
})
