/**
 * A counting semaphore whose waiters give up at a deadline, callback style: the web client waits
 * for its permits within the fetch's one budget, in the fetch's own fiber. `Effect.Semaphore` plus
 * `Effect.timeoutFail` forked two more fibers per fetch, ~26 MB at 1,000 scans in flight
 * (docs/bench.md, the batch). Like the server's admission gate (`http/edge/Admission.ts`), a
 * permit passes straight from the leaving holder to the first waiter, and an interrupted waiter
 * never leaks one.
 */
import { Effect } from "effect"
import { CurrentQueueClock } from "./QueueClock.ts"

interface Waiter {
  granted: boolean
  readonly grant: () => void
  timer?: ReturnType<typeof setTimeout>
}

export class Permits {
  /** Waiting, in arrival order (a Set keeps it, and a waiter that gives up leaves in O(1)). */
  private readonly waiting = new Set<Waiter>()

  constructor(private free: number) {}

  /**
   * Holds a permit while `effect` runs; fails with `onTimeout()` if none comes before `deadlineAt`
   * (`performance.now()` milliseconds; `Infinity` waits as long as it takes).
   */
  around<A, E, R, E2>(
    effect: Effect.Effect<A, E, R>,
    deadlineAt: number,
    onTimeout: () => E2
  ): Effect.Effect<A, E | E2, R> {
    return Effect.uninterruptibleMask((restore) =>
      Effect.zipRight(
        restore(this.take(deadlineAt, onTimeout)),
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

  /** Waiting counts on the scan's queue clock (`QueueClock.ts`): its budgets do not count our own queue. */
  private take<E>(deadlineAt: number, onTimeout: () => E): Effect.Effect<void, E> {
    return Effect.withFiberRuntime((fiber) => {
      const clock = fiber.getFiberRef(CurrentQueueClock)
      return Effect.async<void, E>((resume) => {
        if (this.free > 0 && this.waiting.size === 0) {
          this.free--
          return resume(Effect.void)
        }
        const left = deadlineAt - performance.now()
        if (left <= 0) return resume(Effect.fail(onTimeout()))
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
            resume(Effect.fail(onTimeout()))
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

  private release() {
    for (const next of this.waiting) {
      this.waiting.delete(next)
      return next.grant()
    }
    this.free++
  }
}
