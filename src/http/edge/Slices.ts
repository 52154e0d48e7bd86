/**
 * The scheduler of costly work (Edge.ts): every fiber that yields waits in one queue, in order, and
 * the queue is run in slices of about `sliceMs`, one slice per turn of node's event loop. Between
 * two slices node reads its sockets, so a probe of `/health` on a held connection waits for one
 * slice, not for all the work that was ready.
 *
 * Why not Effect's own: its schedulers give every fiber a runner of its own, each with its own
 * `setTimeout`, and node runs every timer that is due in one turn. A crowd's admitted requests,
 * each yielding after its 2,048 operations, were then all run in one turn: over half of the busy
 * time of a 500-client burst, in turns of 60-250 ms (docs/bench.md). Here one `setImmediate`
 * stands for the whole queue and a slice stops once its time is spent. Fiber priorities are not
 * kept: the service sets none.
 */
import { Scheduler } from "effect"

/** The clock and the deferral a slicer uses: node's by default, a test's own in tests. */
export interface SliceClock {
  readonly now: () => number
  readonly later: (run: () => void) => void
}

const nodeClock: SliceClock = {
  now: () => performance.now(),
  // After the poll phase of the same turn (nodejs.org/en/learn/asynchronous-work/event-loop-timers-and-nexttick):
  // the sockets ready by then are read before the next slice.
  later: (run) => setImmediate(run)
}

/**
 * Run queued tasks in order, a slice at a time: at least one task a slice, then more while less
 * than `sliceMs` has passed since the slice began. A task scheduled during a slice joins the end of
 * the queue. `shouldYield` is Effect's: a fiber yields after its `maxOpsBeforeYield` operations.
 */
export class SlicedScheduler extends Scheduler.MixedScheduler {
  private queue: Array<Scheduler.Task | undefined> = []
  private head = 0
  private pending = false

  constructor(
    readonly sliceMs: number,
    private readonly clock: SliceClock = nodeClock
  ) {
    super(1)
  }

  override scheduleTask(task: Scheduler.Task, _priority: number): void {
    this.queue.push(task)
    if (!this.pending) {
      this.pending = true
      this.clock.later(this.slice)
    }
  }

  /** Tasks waiting for a slice. */
  get waiting(): number {
    return this.queue.length - this.head
  }

  private readonly slice = () => {
    const ends = this.clock.now() + this.sliceMs
    try {
      do {
        const task = this.queue[this.head]!
        this.queue[this.head++] = undefined
        task()
      } while (this.head < this.queue.length && this.clock.now() < ends)
    } finally {
      // Even when a task threw, the rest of the queue still runs.
      if (this.head >= this.queue.length) {
        this.queue = []
        this.head = 0
        this.pending = false
      } else {
        if (this.head >= 1024) {
          this.queue = this.queue.slice(this.head)
          this.head = 0
        }
        this.clock.later(this.slice)
      }
    }
  }
}
