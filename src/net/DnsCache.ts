/**
 * The Resolver's answers by question, callback style (no fiber or Effect per entry: a batch keeps
 * tens of thousands of questions in flight, `docs/bench.md`):
 *
 * - an answer is kept for its TTL, a negative one (NXDOMAIN, NODATA) for the SOA minimum (RFC 2308
 *   5), capped at a day; a zero TTL and every failure serve only the askers already waiting;
 * - a served answer's TTLs count down from when it was asked (RFC 1035 3.2.1), with `fromCache`;
 * - concurrent askers of one question share one flight: one query, one outcome for all;
 * - at most `capacity` answers, the least recently used evicted first (a Map keeps insertion
 *   order; a hit moves its entry to the end).
 */
import { Exit } from "effect"
import type { DnsAnswer, DnsError, DnsRecord } from "./DnsTypes.ts"
import * as M from "../observe/Metrics.ts"

/** One asker of a question, callback style (see `Ask` in `Resolver.ts`). */
export interface Asked {
  /** The asker's clock (Effect's `Clock`, ms): cache ages count from it, so tests can move it. */
  readonly now: number
  /** Whether the asker still waits; when nobody does, the question makes no further attempt. */
  readonly wanted: () => boolean
  /** Called exactly once, with the outcome (also when nobody waits any more). */
  readonly done: (exit: Exit.Exit<DnsAnswer, DnsError>) => void
}

/** How long an answer may be reused: min TTL of the answer, or the SOA minimum for negatives. */
export const cacheSeconds = (answer: DnsAnswer): number => {
  const ttls =
    answer.outcome === "answer"
      ? answer.answers.map((r) => r.ttl)
      : answer.authority
          .filter((r) => r.type === "SOA")
          .map((r) => Math.min(r.ttl, (r.data as { minimum: number }).minimum))
  if (ttls.length === 0) return 0
  return Math.max(0, Math.min(86_400, ...ttls))
}

interface Stored {
  readonly answer: DnsAnswer
  /** When it was asked, and until when it may be served (ms of the askers' clock). */
  readonly at: number
  readonly until: number
}

/** A cached answer as a cache serves it: TTLs counted down by its age. */
const aged = (stored: Stored, now: number): DnsAnswer => {
  const age = Math.max(0, Math.floor((now - stored.at) / 1000))
  const older = (records: ReadonlyArray<DnsRecord>) =>
    age === 0 ? records : records.map((r) => ({ ...r, ttl: Math.max(0, r.ttl - age) }))
  return {
    ...stored.answer,
    answers: older(stored.answer.answers),
    authority: older(stored.answer.authority),
    fromCache: true,
    elapsedMs: 0
  }
}

const FROM_CACHE = M.labels({ source: "cache" })
const SHARED = M.labels({ source: "shared" })
/** Asked upstream: a cache miss, or a question that must not be answered from the cache. */
export const UPSTREAM = M.labels({ source: "upstream" })

export class DnsCache {
  private readonly answers = new Map<string, Stored>()
  private readonly flights = new Map<string, Array<Asked>>()
  constructor(private readonly capacity: number) {}

  /** Answers `asked` from the cache or a flight under way; else starts a flight with `start`. */
  ask(id: string, asked: Asked, start: (flight: Asked) => void): void {
    const stored = this.answers.get(id)
    if (stored) {
      this.answers.delete(id)
      if (asked.now < stored.until) {
        this.answers.set(id, stored)
        M.dnsQuestions.unsafeUpdate(1, FROM_CACHE)
        return asked.done(Exit.succeed(aged(stored, asked.now)))
      }
    }
    const waiting = this.flights.get(id)
    if (waiting) {
      M.dnsQuestions.unsafeUpdate(1, SHARED)
      return void waiting.push(asked)
    }
    M.dnsQuestions.unsafeUpdate(1, UPSTREAM)
    const flight = new Flight(this, id, asked)
    this.flights.set(id, flight.askers)
    start(flight)
  }

  /** A flight's outcome: stored (if it may be reused), then told to every asker. */
  landed(id: string, askers: ReadonlyArray<Asked>, exit: Exit.Exit<DnsAnswer, DnsError>) {
    this.flights.delete(id)
    if (Exit.isSuccess(exit)) this.store(id, exit.value, askers[0]!.now)
    for (const a of askers) a.done(exit)
  }

  private store(id: string, answer: DnsAnswer, at: number) {
    const seconds = cacheSeconds(answer)
    if (seconds === 0) return
    this.answers.set(id, { answer, at, until: at + seconds * 1000 })
    while (this.answers.size > this.capacity) this.answers.delete(this.answers.keys().next().value!)
  }
}

/**
 * One question on its way for all its askers. A class rather than closures: a batch keeps tens of
 * thousands in flight, and two closures and their context cost more than this object.
 */
class Flight implements Asked {
  readonly now: number
  readonly askers: Array<Asked>
  constructor(
    private readonly cache: DnsCache,
    private readonly id: string,
    first: Asked
  ) {
    this.now = first.now
    this.askers = [first]
  }

  wanted() {
    return this.askers.some((a) => a.wanted())
  }

  done(exit: Exit.Exit<DnsAnswer, DnsError>) {
    this.cache.landed(this.id, this.askers, exit)
  }
}
