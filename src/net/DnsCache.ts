/**
 * The Resolver's answers by question: the DNS policy over the transport cache (TransportCache.ts,
 * callback style, no fiber or Effect per entry: a batch keeps tens of thousands of questions in
 * flight, `docs/bench.md`):
 *
 * - an answer is kept for its TTL, a negative one (NXDOMAIN, NODATA) for the SOA minimum (RFC 2308
 *   5), capped at a day; a zero TTL and every failure serve only the askers already waiting;
 * - a served answer's TTLs count down from when it was asked (RFC 1035 3.2.1), with `fromCache`;
 * - concurrent askers of one question share one flight, and at most `capacity` answers are kept,
 *   the least recently used evicted first (both the transport cache's);
 * - each question is counted by where its answer came from (`domain_audit_dns_questions_total`).
 */
import { Exit } from "effect"
import type { DnsAnswer, DnsError, DnsRecord } from "./DnsTypes.ts"
import * as M from "../observe/Metrics.ts"
import { type Asker, type Source, TransportCache } from "./TransportCache.ts"

/**
 * One asker of a question, callback style (see `Ask` in `Resolver.ts`); when nobody waits any
 * more, the question makes no further attempt.
 */
export type Asked = Asker<DnsAnswer, DnsError>

const MAX_CACHE_SECONDS = 86_400

/** How long an answer may be reused: min TTL of the answer, or the SOA minimum for negatives. */
export const cacheSeconds = (answer: DnsAnswer): number => {
  const ttls =
    answer.outcome === "answer"
      ? answer.answers.map((r) => r.ttl)
      : answer.authority
          .filter((r) => r.type === "SOA")
          .map((r) => Math.min(r.ttl, (r.data as { minimum: number }).minimum))
  if (ttls.length === 0) return 0
  // A day at most: RFC 2308 5 found longer negative caching problematic, and the same bound keeps a
  // positive answer with a huge TTL (RFC 2181 8 allows up to 2^31 - 1 s) from outliving a change.
  return Math.max(0, Math.min(MAX_CACHE_SECONDS, ...ttls))
}

/** A kept answer as a cache serves it: TTLs counted down by its age (RFC 1035 3.2.1). */
const aged = (answer: DnsAnswer, at: number, now: number): DnsAnswer => {
  const age = Math.max(0, Math.floor((now - at) / 1000))
  const older = (records: ReadonlyArray<DnsRecord>) =>
    age === 0 ? records : records.map((r) => ({ ...r, ttl: Math.max(0, r.ttl - age) }))
  return {
    ...answer,
    answers: older(answer.answers),
    authority: older(answer.authority),
    fromCache: true,
    elapsedMs: 0
  }
}

const FROM_CACHE = M.labels({ source: "cache" })
const SHARED = M.labels({ source: "shared" })
/** Asked upstream: a cache miss, or a question that must not be answered from the cache. */
export const UPSTREAM = M.labels({ source: "upstream" })

const BY_SOURCE: Record<Source, ReturnType<typeof M.labels>> = {
  cache: FROM_CACHE,
  shared: SHARED,
  upstream: UPSTREAM
}

/** The DNS policy over the transport cache: an answer kept for its TTL, no failure kept. */
export class DnsCache {
  private readonly cache: TransportCache<DnsAnswer, DnsError>
  constructor(capacity: number) {
    this.cache = new TransportCache<DnsAnswer, DnsError>({
      capacity,
      keepMs: (exit) => (Exit.isSuccess(exit) ? cacheSeconds(exit.value) * 1000 : 0),
      served: aged
    })
  }

  /** Answers `asked` from the cache or a flight under way; else starts a flight with `start`. */
  ask(id: string, asked: Asked, start: (flight: Asked) => void): void {
    M.dnsQuestions.unsafeUpdate(1, BY_SOURCE[this.cache.ask(id, asked, start)])
  }
}
