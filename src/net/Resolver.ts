/**
 * Resolver: the one door to DNS. Speaks the wire protocol itself (dns-packet over UDP, TCP on
 * truncation) because node:dns hides TTLs, the AD bit and the DNSSEC types.
 *
 * - Upstreams: DNS_RESOLVERS, or the nameservers of /etc/resolv.conf; each try rotates to the next one.
 * - Outcomes: an answer, NODATA or NXDOMAIN settle a question (`DnsAnswer`); timeout, SERVFAIL, REFUSED,
 *   network and malformed replies are `DnsError`s, so no caller can read a failure as "no record".
 * - Concurrent identical questions share one query; answers are cached for their TTL, negative ones
 *   for the SOA minimum (RFC 2308 5), in a cache bounded by DNS_CACHE_SIZE (`DnsCache.ts`). `fresh`
 *   bypasses both.
 * - Two ways to ask, one engine: `ask`, callback style, for those who keep many questions in flight
 *   without a fiber each (a scan's Facts: a fiber costs ~3 KB, a scan asks ~170 questions), and
 *   `query`, the Effect over it, for everyone else.
 */
import * as fs from "node:fs"
import { Effect, Exit, Layer } from "effect"
import { AppConfig, parseUpstream, type Upstream } from "../Config.ts"
import { type DnsAnswer, DnsError, type DnsRecord, type RecordType } from "./DnsTypes.ts"
import { type Asked, DnsCache } from "./DnsCache.ts"
import type { DecodedReply } from "./DnsDecode.ts"
import { type Question, show, tcpQuery, type TransportFailure, UdpPool, type Waiter } from "./DnsTransport.ts"
import { formatData, type MxData, parseData, reverseName, txtOf } from "./DnsWire.ts"

export { type Asked, cacheSeconds } from "./DnsCache.ts"

export interface QueryOptions {
  /** Bypass our cache and in-flight sharing (propagation checks want what the upstream says now). */
  readonly fresh?: boolean
  /** Set the CD bit (RFC 4035 3.2.2): the upstream skips validation, which tells bogus from broken. */
  readonly checkingDisabled?: boolean
  /** Ask exactly this server, no rotation to others. */
  readonly upstream?: Upstream
}

/**
 * An in-memory zone for unit tests. Keys are `"name TYPE"` (e.g. `"example.com TXT"`), optionally
 * suffixed with ` @address` to answer differently when that upstream is asked. Values:
 * - an array of presentation-format rdata strings (TXT without a leading quote is one string);
 * - `"SERVFAIL"`, `"TIMEOUT"`, `"REFUSED"` or `"NXDOMAIN"` to stage a failure / non-existence;
 * - `{ rdata, ad?, ttl?, bogus?, rrsig? }`: `ad` sets the AD flag, `bogus` answers SERVFAIL unless CD
 *   is set, `rrsig` adds signatures to the answer.
 * An absent key is NODATA if anything exists at or below the name, else NXDOMAIN; CNAMEs are followed.
 */
export type FakeEntry =
  | ReadonlyArray<string>
  | "SERVFAIL"
  | "TIMEOUT"
  | "REFUSED"
  | "NXDOMAIN"
  | {
      readonly rdata: ReadonlyArray<string>
      readonly ad?: boolean
      readonly ttl?: number
      readonly bogus?: boolean
      /** RRSIG rdata returned beside the records (as the DO bit does). */
      readonly rrsig?: ReadonlyArray<string>
    }
export type FakeZone = Readonly<Record<string, FakeEntry>>

export type Query = (
  name: string,
  type: RecordType,
  options?: QueryOptions
) => Effect.Effect<DnsAnswer, DnsError>

/**
 * One question, callback style: `asked.done` hears its outcome exactly once. No fiber, no Effect:
 * the asker decides how to wait (`queryOver` resumes a fiber; a scan's Facts keeps a table).
 */
export type Ask = (name: string, type: RecordType, options: QueryOptions, asked: Asked) => void

/** `ask` as an Effect: the asking fiber waits; once it is interrupted, nobody does (no further attempt). */
export const queryOver =
  (ask: Ask): Query =>
  (name, type, options = {}) =>
    Effect.clockWith((clock) =>
      Effect.withFiberRuntime<DnsAnswer, DnsError>((fiber) =>
        // No interruption handler: Effect wraps an `async` that returns a canceller in an
        // `onInterrupt`, which tripled the Effect cost of a query (5-7 µs of ~15); an interrupted
        // fiber ignores a late resume, and `wanted` tells the question that nobody waits.
        Effect.async<DnsAnswer, DnsError>((resume) =>
          ask(name, type, options, {
            now: clock.unsafeCurrentTimeMillis(),
            wanted: () => fiber.unsafePoll() === null,
            done: resume
          })
        )
      )
    )

export const normalizeName = (name: string): string => {
  const n = name.trim().toLowerCase().replace(/\.$/, "")
  return n === "" ? "." : n
}

const ofType = (answer: DnsAnswer, type: string): ReadonlyArray<DnsRecord> =>
  answer.answers.filter((r) => r.type === type)

/** The addresses of a host from its A and AAAA answers. */
export const addressesOf = (a: DnsAnswer, aaaa: DnsAnswer) => ({
  v4: ofType(a, "A").map((r) => String(r.data)),
  v6: ofType(aaaa, "AAAA").map((r) => String(r.data))
})

/**
 * The convenience lookups every check uses, built on `query` (a scan's Facts build them on its
 * memoised one). No span each: a span captures a stack trace and costs ~6 KB while it waits and
 * more CPU than the DNS exchange (scripts/bench/scanMemory.ts); a DKIM sweep made ~160 per scan.
 */
export const lookupsOver = (query: Query, upstreams: ReadonlyArray<Upstream>) => ({
  query,
  upstreams,
  /** TXT strings of each record, joined per RFC 7208 3.3; NODATA / NXDOMAIN give []. */
  txt: (name: string) => Effect.map(query(name, "TXT"), txtOf),
  /** A and AAAA concurrently; a failure of either fails the whole (unknown is not "no address"). */
  addresses: (host: string) =>
    Effect.zipWith(query(host, "A"), query(host, "AAAA"), addressesOf, { concurrent: true }),
  /** MX records by priority (RFC 5321 5.1); a null MX (RFC 7505) appears as exchange "". */
  mx: (domain: string) =>
    Effect.map(query(domain, "MX"), (answer) =>
      ofType(answer, "MX")
        .map((r) => r.data as MxData)
        .map((d) => ({ priority: d.priority, exchange: d.exchange }))
        .sort((x, y) => x.priority - y.priority || x.exchange.localeCompare(y.exchange))
    ),
  /** PTR names of an address (RFC 1035 3.5, RFC 3596 2.5). */
  ptr: (ip: string) => {
    const name = reverseName(ip)
    if (!name)
      return Effect.fail(
        new DnsError({ name: ip, type: "PTR", reason: "other", message: `${ip} is not an IP address` })
      )
    return Effect.map(query(name, "PTR"), (answer) => ofType(answer, "PTR").map((r) => String(r.data)))
  }
})

/** The Resolver's shape over an `ask`: `query` and the lookups derive from it. */
export const resolverOver = (ask: Ask, upstreams: ReadonlyArray<Upstream>) => ({
  ask,
  ...lookupsOver(queryOver(ask), upstreams)
})

/** The nameservers of /etc/resolv.conf (the default when DNS_RESOLVERS is empty). */
export const systemUpstreams = (text: string): Array<Upstream> =>
  text
    .split("\n")
    .map((line) => /^\s*nameserver\s+(\S+)/.exec(line)?.[1]?.replace(/%.*$/, ""))
    .flatMap((addr) => {
      const u = addr === undefined ? undefined : parseUpstream(addr)
      return u ? [u] : []
    })

const readSystemUpstreams = Effect.sync(() => {
  try {
    return systemUpstreams(fs.readFileSync("/etc/resolv.conf", "utf8"))
  } catch {
    return []
  }
})

const rcodeError = (rcode: string): DnsError["reason"] =>
  rcode === "SERVFAIL" ? "servfail" : rcode === "REFUSED" ? "refused" : "other"

/** A reply as an outcome (RFC 2308 2: NXDOMAIN vs NODATA) or a DnsError. */
export const classify = (
  packet: DecodedReply,
  name: string,
  type: RecordType,
  resolver: string,
  elapsedMs: number
): DnsAnswer | DnsError => {
  const rcode = packet.rcode
  if (rcode !== "NOERROR" && rcode !== "NXDOMAIN")
    return new DnsError({ name, type, reason: rcodeError(rcode), message: `${resolver} answered ${rcode}` })
  const answers = packet.answers
  const authority = packet.authority
  // A server that does not recurse hands out a referral: that is no statement about the name.
  if (
    rcode === "NOERROR" &&
    answers.length === 0 &&
    !packet.ra &&
    !authority.some((r) => r.type === "SOA") &&
    authority.some((r) => r.type === "NS")
  )
    return new DnsError({
      name,
      type,
      reason: "other",
      message: `${resolver} returned a referral (no recursion)`
    })
  return {
    name,
    type,
    outcome: rcode === "NXDOMAIN" ? "nxdomain" : answers.some((r) => r.type === type) ? "answer" : "nodata",
    rcode,
    flags: {
      aa: packet.aa,
      tc: packet.tc,
      ra: packet.ra,
      ad: packet.ad,
      cd: packet.cd
    },
    answers,
    authority,
    resolver,
    elapsedMs,
    fromCache: false
  }
}

/** The real engine: UDP pool, TCP fallback, retries rotating over upstreams, cache. */
const makeLive = Effect.gen(function* () {
  const config = yield* AppConfig
  const configured = config.dnsResolvers.length > 0 ? config.dnsResolvers : yield* readSystemUpstreams
  const upstreams: ReadonlyArray<Upstream> =
    configured.length > 0 ? configured : [{ address: "127.0.0.1", port: 53 }]
  const timeoutMs = Math.max(1, config.dnsTimeoutMs)
  const retries = Math.max(0, config.dnsRetries)
  const pool = yield* Effect.acquireRelease(
    Effect.sync(() => new UdpPool()),
    (p) => Effect.sync(() => p.close())
  )
  let rotation = 0

  /**
   * One question: UDP to an upstream, TCP to the same server when truncated (RFC 7766 5), the next
   * upstream on timeout, network error or (when there is another) SERVFAIL / REFUSED.
   * The whole loop runs in an `Asking`, callback style: per-attempt Effects, and even per-query
   * closures, cost more CPU than the exchange itself (scripts/bench/resolver). Before each further
   * attempt it asks whether anybody still waits; the datagram already sent keeps its slot until
   * its reply or timeout (DNS_TIMEOUT_MS at most).
   */
  class Asking implements Waiter {
    readonly q: Question
    readonly began = performance.now()
    private readonly start = rotation++
    private i = 0
    private tcp = false
    private done = false
    private upstream: Upstream = upstreams[0]!
    constructor(
      readonly name: string,
      readonly type: RecordType,
      readonly options: QueryOptions,
      readonly asked: Asked
    ) {
      this.q = { name, type, checkingDisabled: options.checkingDisabled === true }
    }

    attempt() {
      this.upstream = this.options.upstream ?? upstreams[(this.start + this.i) % upstreams.length]!
      this.tcp = false
      pool.send(this.upstream, this.q, timeoutMs, this)
    }

    settle(failure: TransportFailure | undefined, reply: DecodedReply | undefined) {
      if (this.done) return
      const { name, type } = this
      if (failure || !reply) {
        const f = failure ?? { reason: "network" as const, message: `no reply from ${show(this.upstream)}` }
        if (this.i < retries && this.asked.wanted()) {
          this.i++
          return this.attempt()
        }
        return this.finish(new DnsError({ name, type, reason: f.reason, message: f.message }))
      }
      if (reply.tc && !this.tcp) {
        // A truncated reply is no answer: ask over TCP, unless nobody waits any more.
        if (!this.asked.wanted())
          return this.finish(
            new DnsError({ name, type, reason: "other", message: "truncated; nobody waits for the rest" })
          )
        this.tcp = true
        tcpQuery(this.upstream, this.q, timeoutMs, (f, r) => this.settle(f, r))
        return
      }
      const result = classify(
        reply,
        name,
        type,
        show(this.upstream),
        Math.round(performance.now() - this.began)
      )
      // Rotating helps only when there is another server to ask; a fixed upstream retries timeouts only.
      const canRotate = this.options.upstream === undefined && upstreams.length > 1
      if (
        result instanceof DnsError &&
        canRotate &&
        this.i < retries &&
        result.reason !== "other" &&
        this.asked.wanted()
      ) {
        this.i++
        return this.attempt()
      }
      this.finish(result)
    }

    private finish(result: DnsAnswer | DnsError) {
      this.done = true
      this.asked.done(result instanceof DnsError ? Exit.fail(result) : Exit.succeed(result))
    }
  }

  const cache = new DnsCache(Math.max(1, config.dnsCacheSize))
  const ask: Ask = (name, type, options, asked) => {
    const n = normalizeName(name)
    if (options.fresh) return new Asking(n, type, options, asked).attempt()
    const id = `${options.checkingDisabled ? "cd" : ""}|${options.upstream ? show(options.upstream) : ""}|${type}|${n}`
    cache.ask(id, asked, (flight) => new Asking(n, type, options, flight).attempt())
  }
  // No span per query: a span costs more CPU than the whole DNS exchange (measured with
  // scripts/bench/resolver); every check's gather carries the spans.
  return resolverOver(ask, upstreams)
})

/** The fake engine behind `Resolver.Test`. */
const makeFake = (zone: FakeZone) => {
  const entries = new Map<string, FakeEntry>()
  for (const [key, value] of Object.entries(zone)) {
    const [name = "", type = "", at] = key.trim().split(/\s+/)
    entries.set(`${normalizeName(name)} ${type.toUpperCase()}${at ? ` ${at}` : ""}`, value)
  }
  const names = [...entries.keys()].map((k) => k.split(" ")[0]!)
  const exists = (name: string) => names.some((n) => n === name || n.endsWith(`.${name}`))
  const upstream: Upstream = { address: "192.0.2.53", port: 53 }
  const record = (name: string, type: string, text: string, ttl: number): DnsRecord => {
    const data = parseData(type, text)
    return { name, type, ttl, data, text: formatData(type, data) }
  }
  /** The enclosing zone's SOA for a negative answer (RFC 2308 3), when the zone has one. */
  const negativeSoa = (name: string): ReadonlyArray<DnsRecord> => {
    const labels = name.split(".")
    for (let i = 0; i < labels.length; i++) {
      const owner = labels.slice(i).join(".")
      const soa = entries.get(`${owner} SOA`)
      if (Array.isArray(soa) && soa.length > 0) return [record(owner, "SOA", soa[0] as string, 300)]
      if (
        soa &&
        typeof soa === "object" &&
        !Array.isArray(soa) &&
        "rdata" in soa &&
        soa.rdata[0] !== undefined
      )
        return [record(owner, "SOA", soa.rdata[0], 300)]
    }
    return []
  }
  const query: Query = (rawName, type, options = {}) =>
    Effect.suspend(() => {
      const resolver = show(options.upstream ?? upstream)
      const at = options.upstream ? ` @${options.upstream.address}` : ""
      const lookup = (n: string, t: string) => entries.get(`${n} ${t}${at}`) ?? entries.get(`${n} ${t}`)
      const fail = (name: string, reason: DnsError["reason"], message: string) =>
        Effect.fail(new DnsError({ name, type, reason, message }))
      const chain: Array<DnsRecord> = []
      let name = normalizeName(rawName)
      let ad = true
      for (let hop = 0; hop < 9; hop++) {
        const entry = lookup(name, type) ?? (type === "CNAME" ? undefined : lookup(name, "CNAME"))
        const isCname = lookup(name, type) === undefined && entry !== undefined
        const base = {
          name: normalizeName(rawName),
          type,
          rcode: "NOERROR",
          authority: negativeSoa(name),
          resolver,
          elapsedMs: 0,
          fromCache: false
        }
        const flags = (ok: boolean) => ({
          aa: false,
          tc: false,
          ra: true,
          ad: ok,
          cd: options.checkingDisabled === true
        })
        if (entry === "TIMEOUT") return fail(name, "timeout", `no reply from ${resolver} (fake)`)
        if (entry === "SERVFAIL") return fail(name, "servfail", `${resolver} answered SERVFAIL (fake)`)
        if (entry === "REFUSED") return fail(name, "refused", `${resolver} answered REFUSED (fake)`)
        if (entry === "NXDOMAIN" || (entry === undefined && !exists(name)))
          return Effect.succeed<DnsAnswer>({
            ...base,
            rcode: "NXDOMAIN",
            outcome: "nxdomain",
            flags: flags(false),
            answers: chain
          })
        if (entry === undefined)
          return Effect.succeed<DnsAnswer>({
            ...base,
            outcome: "nodata",
            flags: flags(false),
            answers: chain
          })
        const detail = Array.isArray(entry)
          ? { rdata: entry as ReadonlyArray<string> }
          : (entry as Exclude<FakeEntry, string | ReadonlyArray<string>>)
        if (detail.bogus && !options.checkingDisabled)
          return fail(name, "servfail", `${resolver} answered SERVFAIL (fake, bogus)`)
        ad = ad && detail.ad === true && !detail.bogus
        const records = detail.rdata.map((text) =>
          record(name, isCname ? "CNAME" : type, text, detail.ttl ?? 300)
        )
        chain.push(
          ...records,
          ...(detail.rrsig ?? []).map((text) => record(name, "RRSIG", text, detail.ttl ?? 300))
        )
        if (!isCname || records.length === 0)
          return Effect.succeed<DnsAnswer>({
            ...base,
            outcome: records.length > 0 ? "answer" : "nodata",
            authority: records.length > 0 ? [] : base.authority,
            flags: flags(ad),
            answers: chain
          })
        name = String(records[0]!.data)
      }
      return fail(name, "servfail", "CNAME chain too long (fake)")
    })
  // The fake answers at once: its Effect runs to its end synchronously.
  const ask: Ask = (name, type, options, asked) => asked.done(Effect.runSyncExit(query(name, type, options)))
  return resolverOver(ask, [upstream])
}

export class Resolver extends Effect.Service<Resolver>()("Resolver", {
  scoped: makeLive,
  dependencies: [AppConfig.Default]
}) {
  /** An in-memory resolver answering from `zone` (see FakeZone), for unit tests of checks. */
  static Test = (zone: FakeZone): Layer.Layer<Resolver> =>
    Layer.sync(Resolver, () => Resolver.make(makeFake(zone)))
}
