/**
 * Benchmark: one full scan (every check of the registry) of a world domain, from a cold resolver
 * cache (a new Resolver each round), beside the critical path of its own fiber graph: the longest
 * chain of dependent checks, each counted by its own work. The ratio wall / critical path says how
 * much the scan loses to scheduling and shared limits (goal: <= 1.2). It also counts the distinct
 * DNS questions the checks asked and the queries that actually left for the resolver, through a
 * counting UDP relay in front of the world's Unbound (goal: equal: every question asked once), and
 * the DKIM check's share of the scan (its selector look-ups dominate a domain without DKIM).
 * `latency` delays every query in the relay by that many ms, as a resolver across a network would.
 *   npx tsx scripts/bench/scan.ts [domain=perfect.com] [rounds=3] [latency ms=0]
 * Figures: docs/bench.md.
 */
import * as dgram from "node:dgram"
import { ConfigProvider, Effect, Either, Layer } from "effect"
import { normaliseDomain } from "../../src/records/DomainName.ts"
import { AppConfig } from "../../src/Config.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { resolverOver } from "../../src/net/ResolverShape.ts"
import { Smtp } from "../../src/net/Smtp.ts"
import { NameServers } from "../../src/net/NameServers.ts"
import { Web } from "../../src/net/Web.ts"
import { scan } from "../../src/scan/Scanner.ts"
import { worldEnv } from "../../test/world/env.ts"

const domain = Either.getOrThrow(normaliseDomain(process.argv[2] ?? "perfect.com"))
const rounds = Number(process.argv[3] ?? 3)
const latencyMs = Number(process.argv[4] ?? 0)
const env = worldEnv()
const upstream = (env.DNS_RESOLVERS ?? "127.53.1.1").split(",")[0]!.replace(/:53$/, "")

/**
 * A UDP relay that forwards every query to the world's resolver and counts them. The Resolver asks
 * from several sockets, each with its own transaction ids, so the relay gives every query it
 * forwards an id of its own (ids alone would collide and send an answer to the wrong socket).
 */
const relay = async () => {
  const front = dgram.createSocket("udp4")
  const back = dgram.createSocket("udp4")
  const clients = new Map<number, { port: number; address: string; id: number }>()
  let nextId = 0
  let sent = 0
  front.on("message", (msg, from) => {
    sent++
    do nextId = (nextId + 1) & 0xffff
    while (clients.has(nextId))
    const id = nextId
    clients.set(id, { port: from.port, address: from.address, id: msg.readUInt16BE(0) })
    const out = Buffer.from(msg)
    out.writeUInt16BE(id, 0)
    if (latencyMs > 0) setTimeout(() => back.send(out, 53, upstream), latencyMs)
    else back.send(out, 53, upstream)
  })
  back.on("message", (msg) => {
    const id = msg.readUInt16BE(0)
    const to = clients.get(id)
    if (!to) return
    clients.delete(id)
    const out = Buffer.from(msg)
    out.writeUInt16BE(to.id, 0)
    front.send(out, to.port, to.address)
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
  console.log(
    `full scan of ${domain}, ${rounds} rounds, each from a cold resolver cache${latencyMs > 0 ? `, ${latencyMs} ms added per query` : ""}`
  )
  console.log(
    "round  wall ms  critical path ms  wall/path  questions  queries sent  dkim ms  dkim share  unknown checks"
  )
  for (let round = 1; round <= rounds; round++) {
    const asked = new Set<string>()
    const config = Layer.setConfigProvider(
      ConfigProvider.fromMap(
        new Map(Object.entries({ ...env, DNS_RESOLVERS: dns.address, DNS_RETRIES: "0" }))
      )
    )
    // Facts asks through the callback door (`ask`); `query` and the lookups are rebuilt over it.
    const resolver = Layer.effect(
      Resolver,
      Effect.map(Resolver, (inner) =>
        Resolver.make(
          resolverOver((name, type, options, question) => {
            asked.add(`${name} ${type} ${options.checkingDisabled === true}`)
            inner.ask(name, type, options, question)
          }, inner.upstreams)
        )
      )
    ).pipe(Layer.provide(Resolver.Default))
    const layer = Layer.mergeAll(Web.Default, Smtp.Default, NameServers.Default).pipe(
      Layer.provideMerge(resolver),
      Layer.provideMerge(AppConfig.Default),
      Layer.provide(config)
    )
    dns.take()
    const result = await Effect.runPromise(scan(domain).pipe(Effect.provide(layer)))
    const unknown = Object.values(result.checks)
      .filter((c) => c.status === "unknown")
      .map((c) => c.id)
    const dkimMs = result.checks["dkim"]?.durationMs ?? 0
    console.log(
      [
        String(round).padStart(5),
        String(result.durationMs).padStart(8),
        String(result.criticalPathMs).padStart(17),
        (result.durationMs / Math.max(1, result.criticalPathMs)).toFixed(2).padStart(10),
        String(asked.size).padStart(10),
        String(dns.take()).padStart(13),
        String(dkimMs).padStart(8),
        `${((100 * dkimMs) / Math.max(1, result.durationMs)).toFixed(0)}%`.padStart(10),
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
