/**
 * How long a scan waited on our own politeness: for a permit of a destination, of its prefix or of
 * the process (`Permits.ts`), including while it waited for another scan's probe of the same
 * server that was itself waiting for one (`TransportCache.ts`). A scan's budgets do not count that
 * time (`scan/Scanner.ts`): 1,000 scans whose mail servers share one /24 queue behind its 8
 * sessions at once, and none should end "unknown" for our own queue, as none of the DNS sweeps
 * does (`scan/SweepScheduler.ts`).
 *
 * The time counted is the wall time during which at least one of the scan's fibers waited, so
 * three MX addresses queued together count once.
 */
import { FiberRef } from "effect"

export class QueueClock {
  private waiting = 0
  private since = 0
  private total = 0
  /** Clocks that count this one's waits too (`forward`). */
  private readonly followers = new Set<QueueClock>()

  enter(now = performance.now()) {
    if (this.waiting++ > 0) return
    this.since = now
    for (const f of this.followers) f.enter(now)
  }

  leave(now = performance.now()) {
    if (--this.waiting > 0) return
    this.total += now - this.since
    for (const f of this.followers) f.leave(now)
  }

  /** Milliseconds queued so far, a wait under way included. */
  ms(now = performance.now()) {
    return this.total + (this.waiting > 0 ? now - this.since : 0)
  }

  /**
   * Counts this clock's waits on `other` as well, a wait under way from now, until the returned
   * function is called: a probe's own clock forwards to the scans that wait for the probe, so
   * they count the time it queued, not the time it worked.
   */
  forward(other: QueueClock, now = performance.now()): () => void {
    this.followers.add(other)
    if (this.waiting > 0) other.enter(now)
    return () => {
      if (this.followers.delete(other) && this.waiting > 0) other.leave()
    }
  }
}

/** The clock of the scan the current fiber works for (none outside a scan). */
export const CurrentQueueClock = FiberRef.unsafeMake<QueueClock | undefined>(undefined)
