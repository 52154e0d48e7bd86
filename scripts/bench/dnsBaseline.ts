/**
 * The DNS baseline the benchmarks share: the world's resolver address, cache-hot questions (every
 * scenario domain's A, MX and TXT), and the bare node:dgram rate against it (send, match the id,
 * send the next: what a Node resolver would reach if decoding, checking and Effect were free).
 * Used by scripts/bench/resolver.ts and scripts/bench/batch.ts.
 */
import * as dgram from "node:dgram"
import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { ConfigProvider, Effect } from "effect"
import type { RecordType } from "../../src/net/DnsTypes.ts"
import { queryPacket } from "../../src/net/DnsTransport.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { worldEnv, worldEnvFile } from "../../test/world/env.ts"

export type Question = [string, RecordType]

/** The world's settings, with shell quoting taken off the values. */
export const benchEnv = (): Record<string, string> =>
  Object.fromEntries(
    Object.entries(worldEnv()).map(([k, v]) => [k, v.replace(/^'(.*)'$/, "$1").replace(/^"(.*)"$/, "$1")])
  )

/**
 * The CPU time (µs, user + system, from /proc/PID/stat at the kernel's 10 ms tick) the world's
 * validating Unbound has used so far, or undefined without its pid file: how much each way of
 * asking costs the server (over UDP it answers for less than over a pipelined TCP connection).
 */
export const upstreamCpu = (): (() => number) | undefined => {
  const file = worldEnvFile()
  const pidFile = file === undefined ? undefined : join(dirname(file), "unbound", "unbound.pid")
  if (pidFile === undefined || !existsSync(pidFile)) return undefined
  const stat = `/proc/${readFileSync(pidFile, "utf8").trim()}/stat`
  if (!existsSync(stat)) return undefined
  return () => {
    // Fields after the command's closing parenthesis; utime and stime are the 14th and 15th.
    const fields = readFileSync(stat, "utf8").split(") ")[1]!.split(" ")
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100
  }
}

/** The world's validating resolver (the first of DNS_RESOLVERS). */
export const worldResolver = (env: Record<string, string>): string =>
  (env.DNS_RESOLVERS ?? "127.53.1.1").split(",")[0]!.replace(/:53$/, "")

/** Every regular scenario domain (not the synthetic ones) with the types most checks ask. */
export const scenarioQuestions = (env: Record<string, string>): Array<Question> => {
  const manifest = JSON.parse(readFileSync(env.WORLD_MANIFEST ?? "", "utf8")) as {
    scenarios: Array<{ domain: string; synthetic?: boolean }>
  }
  const domains = manifest.scenarios
    .filter((s) => s.synthetic !== true)
    .map((s) => s.domain)
    .filter((d) => /^[a-z0-9.-]+$/.test(d))
  return domains.flatMap((d) => (["A", "MX", "TXT"] as const).map((t): Question => [d, t]))
}

/** Warms the resolver's cache and keeps the questions that settle (bogus zones SERVFAIL). */
export const warm = (questions: ReadonlyArray<Question>) =>
  Effect.gen(function* () {
    const resolver = yield* Resolver
    const settled: Array<Question> = []
    for (const [name, type] of questions) {
      const r = yield* Effect.either(resolver.query(name, type, { fresh: true }))
      if (r._tag === "Right") settled.push([name, type])
    }
    return settled
  })

/**
 * The platform's baseline: one connected node:dgram socket, `outstanding` queries in flight, each
 * reply matched by its id only and the next query sent at once. No decoding, no checks, no Effect:
 * roughly the most a Node process asking one datagram per send gets from the same resolver.
 */
export const bareNode = (
  server: string,
  settled: ReadonlyArray<Question>,
  seconds: number,
  outstanding: number
) =>
  Effect.async<{ qps: number; cpuPerQuery: number; lost: number; answered: number }>((resume) => {
    const socket = dgram.createSocket("udp4")
    const packets = settled.map(([name, type]) => queryPacket(0, { name, type, checkingDisabled: false }))
    const waiting = new Set<number>()
    let ok = 0
    let next = 0
    let id = 0
    let start = 0
    let cpu = process.cpuUsage()
    const deadline = () => performance.now() + seconds * 1000
    let end = Infinity
    let over = false
    let lastReply = 0
    let straggler: NodeJS.Timeout | undefined
    const stop = () => {
      if (over) return
      over = true
      clearTimeout(straggler)
      const used = process.cpuUsage(cpu)
      socket.close()
      // Up to the last reply: the second spent waiting for a lost datagram is not the loop's rate.
      const elapsed = (lastReply - start) / 1000
      resume(
        Effect.succeed({
          qps: ok / elapsed,
          cpuPerQuery: (used.user + used.system) / Math.max(1, ok),
          answered: ok,
          // Each lost query also took one of the loop's slots for the rest of the run.
          lost: waiting.size
        })
      )
    }
    const ask = () => {
      if (performance.now() >= end) {
        if (waiting.size === 0) stop()
        return
      }
      const packet = packets[next++ % packets.length]!
      id = (id + 1) & 0xffff
      packet[0] = id >> 8
      packet[1] = id & 0xff
      waiting.add(id)
      socket.send(packet)
    }
    socket.on("message", (msg) => {
      if (!over && waiting.delete((msg[0]! << 8) | msg[1]!)) {
        ok++
        lastReply = performance.now()
        ask()
      }
    })
    socket.connect(53, server, () => {
      start = performance.now()
      cpu = process.cpuUsage()
      end = deadline()
      // A datagram lost on a loaded machine never answers: wait a second for stragglers, no more.
      straggler = setTimeout(stop, seconds * 1000 + 1000)
      for (let i = 0; i < outstanding; i++) ask()
    })
  })

/** The Resolver's settings for a bench: the world's Unbound only, no retry. */
export const benchResolverConfig = (server: string) =>
  ConfigProvider.fromMap(
    new Map([
      ["DNS_RESOLVERS", server],
      ["DNS_TIMEOUT_MS", "2000"],
      ["DNS_RETRIES", "0"]
    ])
  )

/**
 * `outstanding` fibers asking `settled` in turn through `query` (a Resolver's, our cache bypassed)
 * for `seconds`: the answers, the failures, the elapsed seconds and this process's CPU (µs, user +
 * system) per answer.
 */
export const askInLoop = <E>(
  query: (name: string, type: RecordType) => Effect.Effect<unknown, E>,
  settled: ReadonlyArray<Question>,
  outstanding: number,
  seconds: number
) =>
  Effect.gen(function* () {
    let ok = 0
    let failed = 0
    let next = 0
    const deadline = performance.now() + seconds * 1000
    const worker = Effect.gen(function* () {
      while (performance.now() < deadline) {
        const [name, type] = settled[next++ % settled.length]!
        const r = yield* Effect.either(query(name, type))
        if (r._tag === "Right") ok++
        else failed++
      }
    })
    const start = performance.now()
    const cpu = process.cpuUsage()
    yield* Effect.all(
      Array.from({ length: outstanding }, () => worker),
      { concurrency: "unbounded" }
    )
    const used = process.cpuUsage(cpu)
    return {
      ok,
      failed,
      elapsed: (performance.now() - start) / 1000,
      cpuPerQuery: (used.user + used.system) / Math.max(1, ok)
    }
  })
