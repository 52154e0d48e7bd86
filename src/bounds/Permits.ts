/**
 * The one permit pool: a counting semaphore whose waiters give up at a deadline, callback style.
 * It bounds the network clients (the web client waits for its permits within the fetch's one
 * budget, in the fetch's own fiber; the SMTP sessions, the handshakes, each destination) and the
 * server's admission gate (`http/edge/Admission.ts`: a bounded queue, refused at once when full).
 * `Effect.Semaphore` plus `Effect.timeoutFail` forked two more fibers per fetch, ~26 MB at 1,000
 * scans in flight (docs/bench.md, the batch), and could not bound its queue. A permit passes
 * straight from the leaving holder to the first waiter, and an interrupted waiter never leaks one.
 */
import { Effect } from "effect"
import { CurrentQueueClock } from "./QueueClock.ts"

interface Waiter {
  granted: boolean
  readonly grant: () => void
  timer?: ReturnType<typeof setTimeout>
}

/** Why a waiter got no permit: the queue was full when it came, or its deadline passed. */
export type Refusal = "queue-full" | "queue-wait"

/** A type, not an interface, so that it passes where a record of labels is asked for (the metrics). */
export type PermitStats = { readonly active: number; readonly waiting: number }

export interface PermitsOptions {
  /** At most this many wait; one more is refused at once (`queue-full`). Unbounded by default. */
  readonly maxWaiting?: number
  /** Told of every refusal as it happens, with the pool's state then (the edge's metrics). */
  readonly onRefuse?: (why: Refusal, stats: PermitStats) => void
}

export class Permits {
  /** Waiting, in arrival order (a Set keeps it, and a waiter that gives up leaves in O(1)). */
  private readonly waiting = new Set<Waiter>()
  private active = 0

  constructor(
    readonly size: number,
    private readonly options: PermitsOptions = {}
  ) {}

  /**
   * Holds a permit while `effect` runs; fails with `onRefused()` if none comes before `deadlineAt`
   * (`performance.now()` milliseconds; `Infinity` waits as long as it takes) or the queue is full.
   */
  around<A, E, R, E2>(
    effect: Effect.Effect<A, E, R>,
    deadlineAt: number,
    onRefused: () => E2
  ): Effect.Effect<A, E | E2, R> {
    return Effect.uninterruptibleMask((restore) =>
      Effect.zipRight(
        restore(this.take(deadlineAt, onRefused)),
        Effect.ensuring(
          restore(effect),
          Effect.sync(() => this.release())
        )
      )
    )
  }

  /** Holds a permit while `effect` runs, waiting for one as long as it takes. */
  holding<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
    return this.around(effect, Infinity, () => undefined as never)
  }

  stats(): PermitStats {
    return { active: this.active, waiting: this.waiting.size }
  }

  /** Every permit held and the queue full: one more would be refused at once. */
  full(): boolean {
    return this.active >= this.size && this.waiting.size >= (this.options.maxWaiting ?? Infinity)
  }

  private refuse<E>(why: Refusal, onRefused: () => E) {
    this.options.onRefuse?.(why, this.stats())
    return Effect.fail(onRefused())
  }

  /** Waiting counts on the scan's queue clock (`QueueClock.ts`): its budgets do not count our own queue. */
  private take<E>(deadlineAt: number, onRefused: () => E): Effect.Effect<void, E> {
    return Effect.withFiberRuntime((fiber) => {
      const clock = fiber.getFiberRef(CurrentQueueClock)
      return Effect.async<void, E>((resume) => {
        if (this.active < this.size && this.waiting.size === 0) {
          this.active++
          return resume(Effect.void)
        }
        if (this.waiting.size >= (this.options.maxWaiting ?? Infinity))
          return resume(this.refuse("queue-full", onRefused))
        const left = deadlineAt - performance.now()
        if (left <= 0) return resume(this.refuse("queue-wait", onRefused))
        clock?.enter()
        let waited = true
        const stop = () => {
          if (waited) clock?.leave()
          waited = false
        }
        const waiter: Waiter = {
          granted: false,
          grant: () => {
            waiter.granted = true
            clearTimeout(waiter.timer)
            stop()
            resume(Effect.void)
          }
        }
        // setTimeout would fire at once for Infinity (it overflows to 1 ms): no deadline, no timer.
        if (Number.isFinite(left))
          waiter.timer = setTimeout(() => {
            this.waiting.delete(waiter)
            stop()
            resume(this.refuse("queue-wait", onRefused))
          }, left)
        this.waiting.add(waiter)
        return Effect.sync(() => {
          clearTimeout(waiter.timer)
          stop()
          // Granted as the waiter was interrupted: the permit is passed on, not lost.
          if (!this.waiting.delete(waiter) && waiter.granted) this.release()
        })
      })
    })
  }

  /** The permit passes to the first waiter (still held: `active` stays), or is put back. */
  private release() {
    for (const next of this.waiting) {
      this.waiting.delete(next)
      return next.grant()
    }
    this.active--
  }
}
