import { describe, expect, it } from "@effect/vitest"
import * as DnsPacket from "dns-packet"
import { ConfigProvider, Effect, Fiber, Layer, TestClock } from "effect"
import { DnsError } from "../../src/net/DnsTypes.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { fakeDnsServer, reply } from "./FakeDnsServer.ts"

const resolverFor = (ports: ReadonlyArray<number>, extra: Record<string, string> = {}) =>
  Resolver.Default.pipe(
    Layer.provide(
      Layer.setConfigProvider(
        ConfigProvider.fromMap(
          new Map(
            Object.entries({
              DNS_RESOLVERS: ports.map((p) => `127.0.0.1:${p}`).join(","),
              DNS_TIMEOUT_MS: "300",
              DNS_RETRIES: "1",
              ...extra
            })
          )
        )
      )
    ),
    Layer.orDie
  )

const a = (name: string, data: string, ttl = 300): DnsPacket.Answer => ({ type: "A", name, ttl, data })
const soa = (name: string, minimum: number): DnsPacket.Answer => ({
  type: "SOA",
  name,
  ttl: 3600,
  data: {
    mname: `ns.${name}`,
    rname: `hostmaster.${name}`,
    serial: 1,
    refresh: 1,
    retry: 1,
    expire: 1,
    minimum
  }
})

describe("Resolver over UDP/TCP", () => {
  it.scoped("sends EDNS0 (1232, DO) and returns records with TTLs and flags", () =>
    Effect.gen(function* () {
      const server = yield* fakeDnsServer((q) =>
        reply(q, [a("example.com", "192.0.2.1", 123)], {
          flags: DnsPacket.RECURSION_AVAILABLE | DnsPacket.AUTHENTIC_DATA
        })
      )
      const answer = yield* Effect.flatMap(Resolver, (r) => r.query("Example.COM.", "A")).pipe(
        Effect.provide(resolverFor([server.port]))
      )
      expect(answer.outcome).toBe("answer")
      expect(answer.flags.ad).toBe(true)
      expect(answer.answers).toEqual([
        { name: "example.com", type: "A", ttl: 123, data: "192.0.2.1", text: "192.0.2.1" }
      ])
      expect(answer.resolver).toBe(`127.0.0.1:${server.port}`)
      const opt = server.queries[0]!.packet.additionals?.find((x) => x.type === "OPT") as DnsPacket.OptAnswer
      expect(opt.udpPayloadSize).toBe(1232)
      expect(opt.flag_do).toBe(true)
    })
  )

  it.scoped("bulk work: past 16 outstanding over UDP, the rest go over one pipelined TCP connection", () =>
    Effect.gen(function* () {
      const server = yield* fakeDnsServer((q) => reply(q, [a(q.questions![0]!.name, "192.0.2.7")]))
      const names = Array.from({ length: 40 }, (_, i) => `h${i}.example.com`)
      const answers = yield* Effect.flatMap(Resolver, (r) =>
        Effect.forEach(names, (name) => r.query(name, "A", { fresh: true }), { concurrency: "unbounded" })
      ).pipe(Effect.provide(resolverFor([server.port])))
      expect(answers.map((x) => x.answers[0]!.name)).toEqual(names)
      const transports = server.queries.map((q) => q.transport)
      expect(transports.filter((t) => t === "udp")).toHaveLength(16)
      expect(transports.filter((t) => t === "tcp")).toHaveLength(24)
    })
  )

  it.scoped("retries over TCP when the UDP answer is truncated", () =>
    Effect.gen(function* () {
      const server = yield* fakeDnsServer((q, transport) =>
        transport === "udp"
          ? reply(q, [], { flags: DnsPacket.TRUNCATED_RESPONSE | DnsPacket.RECURSION_AVAILABLE })
          : reply(q, [
              { type: "TXT", name: "big.example", ttl: 60, data: ["a".repeat(255), "b".repeat(255)] },
              { type: "TXT", name: "big.example", ttl: 60, data: ["c"] }
            ])
      )
      const txt = yield* Effect.flatMap(Resolver, (r) => r.txt("big.example")).pipe(
        Effect.provide(resolverFor([server.port]))
      )
      expect(txt).toEqual(["a".repeat(255) + "b".repeat(255), "c"])
      expect(server.queries.map((q) => q.transport)).toEqual(["udp", "tcp"])
    })
  )

  it.scoped("drops replies with a wrong transaction id or question and takes the genuine one", () =>
    Effect.gen(function* () {
      const server = yield* fakeDnsServer((q) => {
        const spoofId = DnsPacket.encode(
          reply({ ...q, id: (q.id! + 1) % 65536 }, [a("example.com", "6.6.6.6")])
        )
        const spoofQuestion = DnsPacket.encode(
          reply({ ...q, questions: [{ type: "A", name: "evil.com", class: "IN" }] }, [
            a("evil.com", "6.6.6.7")
          ])
        )
        const genuine = DnsPacket.encode(reply(q, [a("example.com", "192.0.2.7")]))
        return { raw: [spoofId, spoofQuestion, genuine] }
      })
      const addrs = yield* Effect.flatMap(Resolver, (r) => r.query("example.com", "A")).pipe(
        Effect.provide(resolverFor([server.port]))
      )
      expect(addrs.answers.map((r) => r.data)).toEqual(["192.0.2.7"])
    })
  )

  it.scoped("a spoofed reply alone is a timeout, never an answer", () =>
    Effect.gen(function* () {
      const server = yield* fakeDnsServer((q) => ({
        raw: [DnsPacket.encode(reply({ ...q, id: (q.id! + 7) % 65536 }, [a("example.com", "6.6.6.6")]))]
      }))
      const error = yield* Effect.flatMap(Resolver, (r) => r.query("example.com", "A")).pipe(
        Effect.provide(resolverFor([server.port], { DNS_RETRIES: "0", DNS_TIMEOUT_MS: "150" })),
        Effect.flip
      )
      expect(error).toBeInstanceOf(DnsError)
      expect(error.reason).toBe("timeout")
    })
  )

  it.scoped("times out every query on a channel, also those sent after its timer was armed", () =>
    Effect.gen(function* () {
      const silent = yield* fakeDnsServer(() => undefined)
      const layer = resolverFor([silent.port], { DNS_RETRIES: "0", DNS_TIMEOUT_MS: "150" })
      const errors = yield* Effect.gen(function* () {
        const resolver = yield* Resolver
        const ask = (i: number) => Effect.flip(resolver.query(`q${i}.example`, "A", { fresh: true }))
        const first = yield* Effect.fork(ask(0))
        // A real pause: the later queries share channels whose timers are armed for earlier ones.
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 60)))
        const later = yield* Effect.all([1, 2, 3, 4, 5].map(ask), { concurrency: "unbounded" })
        return [yield* Fiber.join(first), ...later]
      }).pipe(Effect.provide(layer))
      expect(errors).toHaveLength(6)
      for (const e of errors) expect(e.reason).toBe("timeout")
      expect(silent.queries).toHaveLength(6)
    })
  )

  it.scoped("rotates to the next upstream after a timeout", () =>
    Effect.gen(function* () {
      const silent = yield* fakeDnsServer(() => undefined)
      const good = yield* fakeDnsServer((q) => reply(q, [a("example.com", "192.0.2.9")]))
      const answer = yield* Effect.flatMap(Resolver, (r) => r.query("example.com", "A")).pipe(
        Effect.provide(resolverFor([silent.port, good.port], { DNS_TIMEOUT_MS: "150" }))
      )
      expect(answer.resolver).toBe(`127.0.0.1:${good.port}`)
      expect(silent.queries).toHaveLength(1)
      expect(good.queries).toHaveLength(1)
    })
  )

  it.scoped("an interrupted question returns at once and asks no further upstream", () =>
    Effect.gen(function* () {
      const first = yield* fakeDnsServer(() => undefined)
      const second = yield* fakeDnsServer(() => undefined)
      const layer = resolverFor([first.port, second.port], { DNS_RETRIES: "2", DNS_TIMEOUT_MS: "100" })
      const pause = (ms: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)))
      yield* Effect.gen(function* () {
        const resolver = yield* Resolver
        const asking = yield* Effect.fork(resolver.query("example.com", "A", { fresh: true }))
        yield* pause(30)
        yield* Fiber.interrupt(asking)
        // Long past every retry's timeout: had it gone on, the second upstream would have been asked.
        yield* pause(400)
      }).pipe(Effect.provide(layer))
      expect(first.queries.length + second.queries.length).toBe(1)
    })
  )

  it.scoped("a closed port is a network error (ICMP on the connected socket), not a long timeout", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flatMap(Resolver, (r) => r.query("example.com", "A")).pipe(
        Effect.provide(resolverFor([9], { DNS_RETRIES: "0", DNS_TIMEOUT_MS: "20000" })),
        Effect.flip
      )
      expect(error.reason).toBe("network")
    })
  )

  it.scoped("keeps NODATA, NXDOMAIN, SERVFAIL and REFUSED distinct", () =>
    Effect.gen(function* () {
      const server = yield* fakeDnsServer((q) => {
        const name = q.questions![0]!.name
        if (name === "nodata.example") return reply(q, [], { authorities: [soa("example", 60)] })
        if (name === "nx.example")
          return reply(q, [], { authorities: [soa("example", 60)], rcode: "NXDOMAIN" })
        if (name === "fail.example") return reply(q, [], { rcode: "SERVFAIL" })
        return reply(q, [], { rcode: "REFUSED" })
      })
      const results = yield* Effect.flatMap(Resolver, (r) =>
        Effect.all(
          ["nodata.example", "nx.example", "fail.example", "refused.example"].map((n) =>
            Effect.either(r.query(n, "TXT"))
          )
        )
      ).pipe(Effect.provide(resolverFor([server.port], { DNS_RETRIES: "0" })))
      const summary = results.map((e) => (e._tag === "Right" ? e.right.outcome : e.left.reason))
      expect(summary).toEqual(["nodata", "nxdomain", "servfail", "refused"])
      const txt = yield* Effect.flatMap(Resolver, (r) => Effect.either(r.txt("fail.example"))).pipe(
        Effect.provide(resolverFor([server.port], { DNS_RETRIES: "0" }))
      )
      expect(txt._tag).toBe("Left")
    })
  )

  it.scoped("100 concurrent identical lookups send one query; answers are cached for their TTL", () =>
    Effect.gen(function* () {
      const server = yield* fakeDnsServer((q) => reply(q, [a("example.com", "192.0.2.1", 300)]))
      yield* Effect.gen(function* () {
        const resolver = yield* Resolver
        const answers = yield* Effect.all(
          Array.from({ length: 100 }, () => resolver.query("example.com", "A")),
          { concurrency: "unbounded" }
        )
        expect(answers.every((x) => x.answers[0]?.data === "192.0.2.1")).toBe(true)
        expect(server.queries).toHaveLength(1)
        const again = yield* resolver.query("example.com", "A")
        expect(again.fromCache).toBe(true)
        expect(server.queries).toHaveLength(1)
        yield* TestClock.adjust("299 seconds")
        const old = yield* resolver.query("example.com", "A")
        expect(old.answers[0]?.ttl).toBe(1)
        expect(server.queries).toHaveLength(1)
        yield* TestClock.adjust("2 seconds")
        yield* resolver.query("example.com", "A")
        expect(server.queries).toHaveLength(2)
        yield* resolver.query("example.com", "A", { fresh: true })
        yield* resolver.query("example.com", "A", { fresh: true })
        expect(server.queries).toHaveLength(4)
      }).pipe(Effect.provide(resolverFor([server.port])))
    })
  )

  it.scoped("caches negative answers by the SOA minimum and does not cache failures", () =>
    Effect.gen(function* () {
      const server = yield* fakeDnsServer((q) =>
        q.questions![0]!.name === "fail.example"
          ? reply(q, [], { rcode: "SERVFAIL" })
          : reply(q, [], { authorities: [soa("example", 30)], rcode: "NXDOMAIN" })
      )
      yield* Effect.gen(function* () {
        const resolver = yield* Resolver
        yield* resolver.query("nx.example", "A")
        yield* TestClock.adjust("29 seconds")
        yield* resolver.query("nx.example", "A")
        expect(server.queries).toHaveLength(1)
        yield* TestClock.adjust("2 seconds")
        yield* resolver.query("nx.example", "A")
        expect(server.queries).toHaveLength(2)
        yield* Effect.either(resolver.query("fail.example", "A"))
        yield* Effect.either(resolver.query("fail.example", "A"))
        expect(server.queries).toHaveLength(4)
      }).pipe(Effect.provide(resolverFor([server.port], { DNS_RETRIES: "0" })))
    })
  )

  it.scoped("sets CD when asked and keys the cache by it", () =>
    Effect.gen(function* () {
      const server = yield* fakeDnsServer((q) =>
        q.flag_cd ? reply(q, [a("bogus.example", "192.0.2.66")]) : reply(q, [], { rcode: "SERVFAIL" })
      )
      yield* Effect.gen(function* () {
        const resolver = yield* Resolver
        const plain = yield* Effect.either(resolver.query("bogus.example", "A"))
        const cd = yield* resolver.query("bogus.example", "A", { checkingDisabled: true })
        expect(plain._tag).toBe("Left")
        expect(cd.answers[0]?.data).toBe("192.0.2.66")
      }).pipe(Effect.provide(resolverFor([server.port], { DNS_RETRIES: "0" })))
    })
  )

  it.scoped("mx, ptr and addresses helpers", () =>
    Effect.gen(function* () {
      const server = yield* fakeDnsServer((q) => {
        const { name, type } = q.questions![0]!
        if (type === "MX")
          return reply(q, [
            { type: "MX", name, ttl: 60, data: { preference: 20, exchange: "b.mx.example" } },
            { type: "MX", name, ttl: 60, data: { preference: 10, exchange: "a.mx.example" } }
          ])
        if (type === "PTR") return reply(q, [{ type: "PTR", name, ttl: 60, data: `ptr-for.${name}` }])
        if (type === "AAAA") return reply(q, [{ type: "AAAA", name, ttl: 60, data: "2001:db8::1" }])
        return reply(q, [a(name, "192.0.2.1")])
      })
      yield* Effect.gen(function* () {
        const resolver = yield* Resolver
        expect(yield* resolver.mx("example.com")).toEqual([
          { priority: 10, exchange: "a.mx.example" },
          { priority: 20, exchange: "b.mx.example" }
        ])
        expect(yield* resolver.ptr("192.0.2.5")).toEqual(["ptr-for.5.2.0.192.in-addr.arpa"])
        expect(yield* resolver.addresses("example.com")).toEqual({ v4: ["192.0.2.1"], v6: ["2001:db8::1"] })
      }).pipe(Effect.provide(resolverFor([server.port])))
    })
  )
})

describe("Resolver.Test", () => {
  const zone = Resolver.Test({
    "example.com TXT": ["v=spf1 include:_spf.example.net -all", '"part one " "part two"'],
    "example.com MX": ["10 mx.example.com."],
    "www.example.com CNAME": ["example.com."],
    "example.com A": { rdata: ["192.0.2.10"], ad: true },
    "example.com A @9.9.9.9": ["192.0.2.99"],
    "_dmarc.example.com TXT": "SERVFAIL",
    "slow.example.com A": "TIMEOUT",
    "bogus.example.com A": { rdata: ["192.0.2.66"], bogus: true }
  })

  it.effect("answers, follows CNAMEs, stages failures and per-upstream answers", () =>
    Effect.gen(function* () {
      const r = yield* Resolver
      expect(yield* r.txt("example.com")).toEqual([
        "v=spf1 include:_spf.example.net -all",
        "part one part two"
      ])
      expect(yield* r.mx("example.com")).toEqual([{ priority: 10, exchange: "mx.example.com" }])
      const www = yield* r.query("www.example.com", "A")
      expect(www.answers.map((x) => x.type)).toEqual(["CNAME", "A"])
      expect(www.flags.ad).toBe(false)
      expect((yield* r.query("example.com", "A")).flags.ad).toBe(true)
      const quad9 = yield* r.query("example.com", "A", { upstream: { address: "9.9.9.9", port: 53 } })
      expect(quad9.answers[0]?.data).toBe("192.0.2.99")
      expect((yield* Effect.flip(r.txt("_dmarc.example.com"))).reason).toBe("servfail")
      expect((yield* Effect.flip(r.query("slow.example.com", "A"))).reason).toBe("timeout")
      expect((yield* Effect.flip(r.query("bogus.example.com", "A"))).reason).toBe("servfail")
      expect((yield* r.query("bogus.example.com", "A", { checkingDisabled: true })).answers).toHaveLength(1)
      expect((yield* r.query("example.com", "AAAA")).outcome).toBe("nodata")
      expect((yield* r.query("nothing.example.org", "A")).outcome).toBe("nxdomain")
      expect(yield* r.txt("nothing.example.org")).toEqual([])
    }).pipe(Effect.provide(zone))
  )
})
