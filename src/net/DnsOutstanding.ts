/**
 * The queries outstanding on one connection (a UDP socket or a pipelined TCP stream): a table by
 * transaction id and one timer for all of them. The id is unique per connection, which is all a
 * reply can be matched by (RFC 1035 4.1.1; RFC 7766 7: per connection over TCP).
 */
import type { DecodedReply } from "./DnsDecode.ts"
import { checkReply, type Question, randomId, type TransportFailure, type Waiter } from "./DnsTransport.ts"

/**
 * One outstanding query. A class rather than closures: a query is the hot path, and a plain
 * object with prototype methods costs less to allocate and collect (scripts/bench/resolver).
 */
export class Pending {
  malformed: string | undefined = undefined
  constructor(
    readonly q: Question,
    readonly id: number,
    readonly timeoutMs: number,
    readonly deadline: number,
    readonly waiter: Waiter
  ) {}
}

/**
 * The table and its timer. One timer armed for the oldest deadline, instead of a timer per query;
 * like a per-query timer, it keeps the process alive only while a query is outstanding.
 */
export class Outstanding {
  readonly byId = new Map<number, Pending>()
  private timer: NodeJS.Timeout | undefined
  /** When the armed timer fires (performance.now() time). */
  private armedFor = Infinity

  /**
   * `label` names the connection in a timeout's message ("127.0.0.1:53", "TCP 127.0.0.1:53");
   * `timedOut`, if given, hears once per expiry that at least one query timed out.
   */
  constructor(
    private readonly label: string,
    private readonly timedOut?: () => void
  ) {}

  get size(): number {
    return this.byId.size
  }

  /** A new outstanding query under a fresh random id (RFC 5452 9.2) not in use on this connection. */
  add(q: Question, timeoutMs: number, waiter: Waiter): Pending {
    let id = randomId()
    while (this.byId.has(id)) id = randomId()
    const p = new Pending(q, id, timeoutMs, performance.now() + timeoutMs, waiter)
    this.byId.set(id, p)
    if (this.byId.size === 1) this.timer?.ref()
    // Usually armed already, for an older query; a shorter timeout than that one re-arms earlier.
    if (p.deadline < this.armedFor) this.arm(timeoutMs)
    return p
  }

  /**
   * A reply that arrived on this connection, octets `start` to `end` of `buf`: it settles the
   * query of its id when DnsTransport.ts accepts it (RFC 5452 9.1); a malformed one is kept for
   * the timeout's message, others ignored.
   */
  reply(buf: Buffer, start = 0, end = buf.length) {
    if (end - start < 12) return
    const p = this.byId.get((buf[start]! << 8) | buf[start + 1]!)
    if (!p) return
    const verdict = checkReply(buf, start, end, p.id, p.q)
    if (verdict === undefined) return
    if (typeof verdict === "string") p.malformed = verdict
    else this.finish(p, undefined, verdict)
  }

  /** Settles `p` once: a later reply, timeout or failure for the same query is ignored. */
  finish(p: Pending, failure: TransportFailure | undefined, reply?: DecodedReply) {
    if (this.byId.get(p.id) !== p) return
    this.byId.delete(p.id)
    if (this.byId.size === 0) this.timer?.unref()
    p.waiter.settle(failure, reply)
  }

  /** Takes every outstanding query off the table, unsettled (the caller fails or re-sends them). */
  drain(): Array<Pending> {
    const all = [...this.byId.values()]
    this.byId.clear()
    this.timer?.unref()
    return all
  }

  /** Fails every query past its deadline, then re-arms for the oldest one left (if any). */
  private expire() {
    this.timer = undefined
    this.armedFor = Infinity
    const now = performance.now()
    let next = Infinity
    let expired = false
    for (const p of [...this.byId.values()]) {
      if (p.deadline > now) {
        next = Math.min(next, p.deadline)
        continue
      }
      expired = true
      this.finish(
        p,
        p.malformed
          ? { reason: "malformed", message: `malformed reply from ${this.label}: ${p.malformed}` }
          : { reason: "timeout", message: `no reply from ${this.label} within ${p.timeoutMs} ms` }
      )
    }
    if (next !== Infinity) this.arm(next - now)
    if (expired) this.timedOut?.()
  }

  private arm(delayMs: number) {
    if (this.timer) clearTimeout(this.timer)
    const delay = Math.max(1, Math.ceil(delayMs))
    this.armedFor = performance.now() + delay
    this.timer = setTimeout(() => this.expire(), delay)
  }

  close() {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    this.armedFor = Infinity
  }
}
