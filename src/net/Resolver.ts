/**
 * Resolver: the one door to DNS. Speaks the wire protocol itself (dns-packet over UDP, TCP on
 * truncation) because node:dns hides TTLs, the AD bit and the DNSSEC types.
 *
 * - Upstreams: DNS_RESOLVERS, or the nameservers of /etc/resolv.conf; each try rotates to the next one.
 * - Transports: UDP, and one pipelined TCP connection per upstream for bulk work (`DnsLinks.ts`).
 * - Outcomes: an answer, NODATA or NXDOMAIN settle a question (`DnsAnswer`); timeout, SERVFAIL, REFUSED,
 *   network and malformed replies are `DnsError`s, so no caller can read a failure as "no record".
 * - Concurrent identical questions share one query; answers are cached for their TTL, negative ones
 *   for the SOA minimum (RFC 2308 5), in a cache bounded by DNS_CACHE_SIZE (`DnsCache.ts`). `fresh`
 *   bypasses both.
 * - Two ways to ask, one engine: `ask`, callback style, for those who keep many questions in flight
 *   without a fiber each (a scan's Facts: a fiber costs ~3 KB, a scan asks ~170 questions), and
 *   `query`, the Effect over it, for everyone else.
 */
import { normaliseName } from "../records/DomainName.ts"
import { type FakeZone, makeFake } from "./ResolverFake.ts"
import { type Ask, type QueryOptions, resolverOver } from "./ResolverShape.ts"
import * as fs from "node:fs"
import { Effect, Exit, Layer, type MetricLabel } from "effect"
import { AppConfig, parseUpstream, type Upstream } from "../Config.ts"
import { type DnsAnswer, DnsError, type DnsRecord, type RecordType } from "./DnsTypes.ts"
import { type Asked, DnsCache, UPSTREAM } from "./DnsCache.ts"
import type { DecodedReply } from "./DnsDecode.ts"
import { type Question, show, type TransportFailure, type Waiter } from "./DnsTransport.ts"
import { tcpQuery } from "./DnsTcp.ts"
import { DnsLinks } from "./DnsLinks.ts"
import * as M from "../observe/Metrics.ts"

export { type Asked, cacheSeconds } from "./DnsCache.ts"
export type { FakeEntry, FakeZone } from "./ResolverFake.ts"

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

/** Whether a record of `type` is among `records` (a loop: no closure per reply). */
const hasType = (records: ReadonlyArray<DnsRecord>, type: string) => {
  for (let i = 0; i < records.length; i++) if (records[i]!.type === type) return true
  return false
}

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
    outcome: rcode === "NXDOMAIN" ? "nxdomain" : hasType(answers, type) ? "answer" : "nodata",
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

const RESULTS = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()
/** The metric labels of an upstream question's end: its outcome, or its failure's reason. */
const upstreamResult = (result: DnsAnswer | DnsError) => {
  const name = result instanceof DnsError ? result.reason : result.outcome
  let tags = RESULTS.get(name)
  if (tags === undefined) RESULTS.set(name, (tags = M.labels({ result: name })))
  return tags
}

/** The real engine: UDP pool, TCP fallback, retries rotating over upstreams, cache. */
const makeLive = Effect.gen(function* () {
  const config = yield* AppConfig
  const configured = config.dnsResolvers.length > 0 ? config.dnsResolvers : yield* readSystemUpstreams
  const upstreams: ReadonlyArray<Upstream> =
    configured.length > 0 ? configured : [{ address: "127.0.0.1", port: 53 }]
  const timeoutMs = Math.max(1, config.dnsTimeoutMs)
  const retries = Math.max(0, config.dnsRetries)
  const links = yield* Effect.acquireRelease(
    Effect.sync(() => new DnsLinks()),
    (l) => Effect.sync(() => l.close())
  )
  let rotation = 0

  /**
   * One question: UDP (or the bulk pipe) to an upstream, TCP to the same server when truncated (RFC 7766 5), the next
   * upstream on timeout, network error or (when there is another) SERVFAIL / REFUSED.
   * The whole loop runs in an `Asking`, callback style: per-attempt Effects, and even per-query
   * closures, cost more CPU than the exchange itself (scripts/bench/resolver). Before each further
   * attempt it asks whether anybody still waits; the datagram already sent keeps its slot until
   * its reply or timeout (DNS_TIMEOUT_MS at most).
   */
  class Asking implements Waiter, Question {
    readonly checkingDisabled: boolean
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
      // The question itself (Question's fields), not a separate object per query.
      this.checkingDisabled = options.checkingDisabled === true
    }

    attempt() {
      this.upstream = this.options.upstream ?? upstreams[(this.start + this.i) % upstreams.length]!
      this.tcp = false
      links.send(this.upstream, this, timeoutMs, this)
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
        tcpQuery(this.upstream, this, timeoutMs, (f, r) => this.settle(f, r))
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
      M.dnsUpstreamAnswers.unsafeUpdate(1, upstreamResult(result))
      this.asked.done(result instanceof DnsError ? Exit.fail(result) : Exit.succeed(result))
    }
  }

  const cache = new DnsCache(Math.max(1, config.dnsCacheSize))
  const ask: Ask = (name, type, options, asked) => {
    const n = normaliseName(name)
    if (options.fresh) {
      M.dnsQuestions.unsafeUpdate(1, UPSTREAM)
      return new Asking(n, type, options, asked).attempt()
    }
    const id = `${options.checkingDisabled ? "cd" : ""}|${options.upstream ? show(options.upstream) : ""}|${type}|${n}`
    cache.ask(id, asked, (flight) => new Asking(n, type, options, flight).attempt())
  }
  // No span per query: a span costs more CPU than the whole DNS exchange (measured with
  // scripts/bench/resolver); every check's gather carries the spans.
  return resolverOver(ask, upstreams)
})

export class Resolver extends Effect.Service<Resolver>()("Resolver", {
  scoped: makeLive,
  dependencies: [AppConfig.Default]
}) {
  /** An in-memory resolver answering from `zone` (see FakeZone), for unit tests of checks. */
  static Test = (zone: FakeZone): Layer.Layer<Resolver> =>
    Layer.sync(Resolver, () => Resolver.make(makeFake(zone)))
}
