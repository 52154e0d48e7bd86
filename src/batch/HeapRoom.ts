/**
 * Room on the heap for one more scan (docs/batch.md, "Memory and concurrency").
 *
 * `npm run batch` runs node under a heap cap (`MAX_HEAP_MB`), so that V8 collects its garbage
 * before the process grows past the cap: without one, 1,000 scans in flight took 0.9 GB of RSS
 * for ~0.3 GB of live heap (docs/bench.md). A cap is a hard limit, though: V8 ends the process when
 * the live heap reaches it. So a scan starts only while the heap in use is below `share` of the
 * cap, or when no other scan is in flight (one scan always runs: a list never stalls). The heap in
 * use counts garbage not yet collected; a scan held back waits in line for a collection or for
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

/** A scan held back: resumed when it is its turn, its room counted in flight from then on. */
interface Held {
  readonly scans: number
  resume: ((admitted: Effect.Effect<void>) => void) | undefined
  admitted: boolean
}

export class HeapRoom {
  private inFlight = 0
  /** Scans that waited for heap room. */
  held = 0
  /** Scans that waited for the DNS sweeps' window. */
  heldForDns = 0
  /** The scans held back, first come first served. */
  private readonly line: Array<Held> = []
  private polling = false

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

  /** Admits the scans held back, in turn, while there is room. */
  private drain() {
    while (this.line.length > 0 && this.hasRoom()) {
      const next = this.line.shift()!
      this.inFlight += next.scans
      next.admitted = true
      next.resume?.(Effect.void)
    }
  }

  private release(scans: number) {
    this.inFlight -= scans
    this.drain()
  }

  /**
   * One poll for the whole line, while scans are held: a collection frees the heap, and the
   * sweeps' window grows, without a scan ending. A poll per held scan woke ~900 fibers 20 times a
   * second at 1,000 in flight (docs/bench.md, the batch); a scan's end admits the next at once.
   */
  private readonly poll: Effect.Effect<void> = Effect.suspend(() =>
    Effect.zipRight(
      Effect.sleep(this.pollMs),
      Effect.suspend(() => {
        this.drain()
        if (this.line.length > 0) return this.poll
        this.polling = false
        return Effect.void
      })
    )
  )

  /** Runs `scan` (of `scans` domains: a chunk sent to the cluster) once there is room for it, counted in flight until it ends. */
  admit<A, E, R>(scan: Effect.Effect<A, E, R>, scans = 1): Effect.Effect<A, E, R> {
    return Effect.uninterruptibleMask((restore) => {
      const run = Effect.onExit(restore(scan), () => Effect.sync(() => this.release(scans)))
      return Effect.suspend(() => {
        this.drain()
        // the line is empty here unless there is no room (drain)
        if (this.hasRoom()) {
          this.inFlight += scans
          return run
        }
        if (this.heapRoom()) this.heldForDns++
        else this.held++
        const held: Held = { scans, resume: undefined, admitted: false }
        this.line.push(held)
        const wait = Effect.async<void>((resume) => {
          if (held.admitted) resume(Effect.void)
          else held.resume = resume
        })
        // Interrupted while held, or once admitted but before it ran: its place or its room is given back.
        const leave = Effect.sync(() => {
          if (held.admitted) this.release(scans)
          else {
            const at = this.line.indexOf(held)
            if (at >= 0) this.line.splice(at, 1)
          }
        })
        const poller = this.polling ? Effect.void : Effect.forkDaemon(Effect.interruptible(this.poll))
        this.polling = true
        return Effect.zipRight(
          poller,
          Effect.zipRight(
            Effect.onInterrupt(restore(wait), () => leave),
            run
          )
        )
      })
    })
  }
}
