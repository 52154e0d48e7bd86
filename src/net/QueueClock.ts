/**
 * How long a scan waited on our own politeness: for a permit of a destination, of its prefix or of
 * the process (`Permits.ts`), or for another scan's probe of the same server (`ProbeCache.ts`).
 * A scan's budgets do not count that time (`scan/Scanner.ts`): 1,000 scans whose mail servers share
 * one /24 queue behind its 8 sessions at once, and none should end "unknown" for our own queue,
 * as none of the DNS sweeps does (`scan/SweepScheduler.ts`).
 *
 * The time counted is the wall time during which at least one of the scan's fibers waited, so
 * three MX addresses queued together count once.
 */
import { Effect, FiberRef } from "effect"

export class QueueClock {
  private waiting = 0
  private since = 0
  private total = 0

  enter(now = performance.now()) {
    if (this.waiting++ === 0) this.since = now
  }

  leave(now = performance.now()) {
    if (--this.waiting === 0) this.total += now - this.since
  }

  /** Milliseconds queued so far, a wait under way included. */
  ms(now = performance.now()) {
    return this.total + (this.waiting > 0 ? now - this.since : 0)
  }
}

/** The clock of the scan the current fiber works for (none outside a scan). */
export const CurrentQueueClock = FiberRef.unsafeMake<QueueClock | undefined>(undefined)

/** Runs `effect` counting its whole time as queued on the current scan's clock. */
export const queued = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(FiberRef.get(CurrentQueueClock), (clock) =>
    clock === undefined
      ? effect
      : Effect.acquireUseRelease(
          Effect.sync(() => clock.enter()),
          () => effect,
          () => Effect.sync(() => clock.leave())
        )
  )
