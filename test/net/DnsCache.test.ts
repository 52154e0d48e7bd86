import { describe, expect, it } from "@effect/vitest"
import { Exit } from "effect"
import type { DnsAnswer } from "../../src/net/DnsTypes.ts"
import { type Asked, DnsCache } from "../../src/net/DnsCache.ts"

const answer = (name: string, ttl: number): DnsAnswer => ({
  name,
  type: "A",
  outcome: "answer",
  rcode: "NOERROR",
  flags: { aa: false, tc: false, ra: true, ad: false, cd: false },
  answers: [{ name, type: "A", ttl, data: "192.0.2.1", text: "192.0.2.1" }],
  authority: [],
  resolver: "192.0.2.53:53",
  elapsedMs: 1,
  fromCache: false
})

/** An asker at `now` that records what it heard. */
const asker = (now: number, wanted = () => true) => {
  const heard: Array<Exit.Exit<DnsAnswer, unknown>> = []
  const asked: Asked = { now, wanted, done: (exit) => void heard.push(exit) }
  return { asked, heard }
}

describe("DnsCache", () => {
  it("askers of a question in flight share it; nobody waiting is seen by the flight", () => {
    const cache = new DnsCache(10)
    const flights: Array<Asked> = []
    const first = asker(0, () => false)
    const second = asker(0)
    cache.ask("q", first.asked, (f) => flights.push(f))
    cache.ask("q", second.asked, (f) => flights.push(f))
    expect(flights).toHaveLength(1)
    expect(flights[0]!.wanted()).toBe(true) // the second still waits
    flights[0]!.done(Exit.succeed(answer("a.example", 60)))
    expect(first.heard).toHaveLength(1)
    expect(second.heard).toHaveLength(1)
  })

  it("serves an answer for its TTL, aged, and evicts the least recently used beyond capacity", () => {
    const cache = new DnsCache(2)
    let started = 0
    const ask = (id: string, now: number) => {
      const a = asker(now)
      cache.ask(id, a.asked, (f) => {
        started++
        f.done(Exit.succeed(answer(id, 60)))
      })
      return a.heard[0]!
    }
    ask("a", 0)
    ask("b", 0)
    const aged = ask("a", 30_000) // a hit: a is now the most recently used
    expect(Exit.isSuccess(aged) && aged.value.fromCache && aged.value.answers[0]!.ttl).toBe(30)
    ask("c", 30_000) // evicts b
    expect(started).toBe(3)
    ask("a", 30_000)
    expect(started).toBe(3)
    ask("b", 30_000)
    expect(started).toBe(4)
    ask("a", 60_000) // expired
    expect(started).toBe(5)
  })

  it("keeps no failure and no zero TTL", () => {
    const cache = new DnsCache(10)
    let started = 0
    const outcomes = [Exit.fail("servfail"), Exit.succeed(answer("z", 0))] as const
    for (const outcome of [...outcomes, ...outcomes])
      cache.ask("q", asker(0).asked, (f) => {
        started++
        f.done(outcome as Exit.Exit<DnsAnswer, never>)
      })
    expect(started).toBe(4)
  })
})
