/**
 * Benchmark: one full scan (every check of the registry) of a world domain, from a cold resolver
 * cache (a new Resolver each round), beside the critical path of its own fiber graph: the longest
 * chain of dependent checks, each counted by its own work. The ratio wall / critical path says how
 * much the scan loses to scheduling and shared limits (goal: <= 1.2). It also counts the distinct
 * DNS questions the checks asked and the queries that actually left for the resolver, through a
 * counting UDP relay in front of the world's Unbound (goal: equal: every question asked once).
 *   npx tsx scripts/bench/scan.ts [domain=perfect.com] [rounds=3]
 * Figures: docs/bench.md.
 */
import * as dgram from "node:dgram"
import { ConfigProvider, Effect, Layer } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { Smtp } from "../../src/net/Smtp.ts"
import { Web } from "../../src/net/Web.ts"
import { scan } from "../../src/scan/Scanner.ts"
import { worldEnv } from "../../test/world/env.ts"

const domain = process.argv[2] ?? "perfect.com"
const rounds = Number(process.argv[3] ?? 3)
const env = worldEnv()
const upstream = (env.DNS_RESOLVERS ?? "127.53.1.1").split(",")[0]!.replace(/:53$/, "")

/** A UDP relay that forwards every query to the world's resolver and counts them. */
const relay = async () => {
  const front = dgram.createSocket("udp4")
  const back = dgram.createSocket("udp4")
  const clients = new Map<number, { port: number; address: string }>()
  let sent = 0
  front.on("message", (msg, from) => {
    sent++
    clients.set(msg.readUInt16BE(0), { port: from.port, address: from.address })
    back.send(msg, 53, upstream)
  })
  back.on("message", (msg) => {
    const to = clients.get(msg.readUInt16BE(0))
    if (to) front.send(msg, to.port, to.address)
  })
  await new Promise<void>((ok) => front.bind(0, "127.0.0.1", ok))
  await new Promise<void>((ok) => back.bind(0, "0.0.0.0", ok))
  return {
    address: `127.0.0.1:${front.address().port}`,
    take: () => {
      const n = sent
      sent = 0
      return n
    },
    close: () => (front.close(), back.close())
  }
}

const main = async () => {
  const dns = await relay()
  console.log(`full scan of ${domain}, ${rounds} rounds, each from a cold resolver cache`)
  console.log("round  wall ms  critical path ms  wall/path  questions  queries sent  unknown checks")
  for (let round = 1; round <= rounds; round++) {
    const asked = new Set<string>()
    const config = Layer.setConfigProvider(
      ConfigProvider.fromMap(
        new Map(Object.entries({ ...env, DNS_RESOLVERS: dns.address, DNS_RETRIES: "0" }))
      )
    )
    const resolver = Layer.effect(
      Resolver,
      Effect.map(Resolver, (inner) =>
        Resolver.make({
          ...inner,
          query: (name, type, options) =>
            Effect.suspend(() => {
              asked.add(`${name} ${type} ${options?.checkingDisabled === true}`)
              return inner.query(name, type, options)
            })
        })
      )
    ).pipe(Layer.provide(Resolver.Default))
    const layer = Layer.mergeAll(Web.Default, Smtp.Default).pipe(
      Layer.provideMerge(resolver),
      Layer.provideMerge(AppConfig.Default),
      Layer.provide(config)
    )
    dns.take()
    const result = await Effect.runPromise(scan(domain).pipe(Effect.provide(layer)))
    const unknown = Object.values(result.checks)
      .filter((c) => c.status === "unknown")
      .map((c) => c.id)
    console.log(
      [
        String(round).padStart(5),
        String(result.durationMs).padStart(8),
        String(result.criticalPathMs).padStart(17),
        (result.durationMs / Math.max(1, result.criticalPathMs)).toFixed(2).padStart(10),
        String(asked.size).padStart(10),
        String(dns.take()).padStart(13),
        `  ${unknown.join(", ") || "none"}`
      ].join(" ")
    )
    if (round === rounds)
      for (const c of Object.values(result.checks))
        console.log(
          `  ${c.id.padEnd(20)} ${String(c.durationMs).padStart(6)} ms  needs: ${c.needs.join(", ") || "-"}`
        )
  }
  dns.close()
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
