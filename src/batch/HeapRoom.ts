/**
 * Room on the heap for one more scan (docs/batch.md, "Memory and concurrency").
 *
 * `npm run batch` runs node under a heap cap (`MAX_HEAP_MB`), so that V8 collects its garbage
 * before the process grows past the cap: without one, 1,000 scans in flight took 0.9 GB of RSS
 * for ~0.3 GB of live heap (docs/bench.md). A cap is a hard limit, though: V8 ends the process when
 * the live heap reaches it. So a scan starts only while the heap in use is below `share` of the
 * cap, or when no other scan is in flight (one scan always runs: a list never stalls). The heap in
 * use counts garbage not yet collected; a scan held back waits, polling, for a collection or for
 * other scans to end. `--concurrency` stays the upper bound.
 *
 * The same room holds a scan while the scans in flight fill the DNS sweeps' window
 * (`src/scan/SweepScheduler.ts`): how many scans the resolver serves with every DKIM sweep ending
 * within its target. A scan held has not started, so its checks' budgets have not either: against a
 * resolver that cannot keep up, scans wait their turn here instead of running out of time in flight.
 */
import { getHeapStatistics } from "node:v8"
import { Effect } from "effect"
import { sweepScheduler } from "../scan/SweepScheduler.ts"

export interface HeapMeter {
  /** Bytes of heap in use now, garbage included. */
  readonly used: () => number
  /** The heap's hard limit in bytes. */
  readonly limit: number
}

/** V8's own figures for this process. */
export const v8Heap = (): HeapMeter => ({
  used: () => getHeapStatistics().used_heap_size,
  limit: getHeapStatistics().heap_size_limit
})

/** How many scans the DNS sweeps serve in time (`SweepScheduler.window`). */
export interface SweepWindow {
  readonly window: number
}

export class HeapRoom {
  private inFlight = 0
  /** Scans that waited for heap room. */
  held = 0
  /** Scans that waited for the DNS sweeps' window. */
  heldForDns = 0

  constructor(
    private readonly meter: HeapMeter,
    private readonly share = 0.8,
    private readonly pollMs = 50,
    private readonly sweeps: SweepWindow = sweepScheduler
  ) {}

  private heapRoom() {
    return this.meter.used() < this.share * this.meter.limit
  }

  private hasRoom() {
    return this.inFlight === 0 || (this.inFlight < this.sweeps.window && this.heapRoom())
  }

  private readonly wait: Effect.Effect<void> = Effect.suspend(() =>
    this.hasRoom() ? Effect.void : Effect.zipRight(Effect.sleep(this.pollMs), this.wait)
  )

  /** Runs `scan` (of `scans` domains: a chunk sent to the cluster) once there is room for it, counted in flight until it ends. */
  admit<A, E, R>(scan: Effect.Effect<A, E, R>, scans = 1): Effect.Effect<A, E, R> {
    return Effect.suspend(() => {
      const run = Effect.uninterruptibleMask((restore) =>
        Effect.zipRight(
          Effect.sync(() => void (this.inFlight += scans)),
          Effect.onExit(restore(scan), () => Effect.sync(() => void (this.inFlight -= scans)))
        )
      )
      if (this.hasRoom()) return run
      if (this.heapRoom()) this.heldForDns++
      else this.held++
      return Effect.zipRight(this.wait, run)
    })
  }
}
