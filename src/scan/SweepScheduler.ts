/**
 * How the sweeps of every scan in the process share the resolver (`facts.sweep`: DKIM's 9
 * selectors a domain, and ~150 more where `_domainkey` exists). A thousand scans in flight against
 * a resolver that has never seen their domains may ask it ~160,000 questions; if every sweep
 * advances at the same pace, all of them run out of their check's budget together (docs/bench.md,
 * the batch). So:
 *
 * - **A bound across the process** (`capacity` questions in flight): a few hundred keep a resolver
 *   busy (Little's law: 10,000 answers a second at 50 ms each is 500), and a recursive resolver
 *   drops what it cannot hold (Unbound's `num-queries-per-thread`), which costs a retry's timeout.
 * - **Oldest scan first.** A sweep that finds no room waits with its scan's ticket (the scan's
 *   start order), and room is given to the oldest waiting sweep; a running sweep yields to an older
 *   one waiting. Scans finish in arrival order instead of together. Nothing starves: every ticket
 *   becomes the oldest in turn.
 * - **A bound per zone while crowded.** Alone, a sweep asks its own window (DKIM's 64: three round
 *   trips to the resolver); while sweeps wait for room, a zone has at most `crowdedZone` questions in
 *   flight, so the capacity is spread over many zones: 64 questions at once to one zone's
 *   authoritative servers slowed a cold resolver by a third (docs/bench.md).
 * - **Its pace, measured** (`window`): how many scans a batch should keep in flight so that a
 *   sweep, queue included, ends within `targetMs`. Additive increase (one per sweep of
 *   `growthQuestions` in time, a share for a smaller one), multiplicative decrease (half, at most
 *   once per `targetMs`, on a sweep over it), as TCP's congestion window. The batch admits scans within it (`src/batch/HeapRoom.ts`); a scan held
 *   there has not started, so its budget has not started either.
 */

/** A sweep as the scheduler sees it: its scan's ticket, its zone, and how to resume it. */
export interface SweepTurn {
  readonly ticket: number
  readonly zone: string
  /** Called when the sweep may ask again; it takes room with `take` (and may wait again). */
  readonly launch: () => void
}

export interface SweepSchedulerOptions {
  /** Sweep questions in flight across the process. */
  readonly capacity: number
  /** Questions in flight per zone while sweeps wait for room. */
  readonly crowdedZone: number
  /** How long a sweep may take, queue included, before `window` shrinks. */
  readonly targetMs: number
  /** The questions of a sweep that grows the window by one when it ends in time (smaller ones by their share). */
  readonly growthQuestions: number
  /** The window to start with, and the least it shrinks to. */
  readonly initialWindow: number
  readonly minWindow: number
}

export class SweepScheduler {
  private free: number
  /** Questions in flight per zone. */
  private readonly zones = new Map<string, number>()
  /** Sweeps waiting for room: a binary min-heap by ticket, then by arrival. */
  private readonly heap: Array<{ readonly turn: SweepTurn; readonly seq: number }> = []
  /** Sweeps waiting for their zone: resumed when that zone has a question back. */
  private readonly zoneWaiting = new Map<string, Array<SweepTurn>>()
  private seq = 0
  /** Scans a batch may keep in flight (see above). */
  window: number
  private shrunkAt = Number.NEGATIVE_INFINITY
  /** Growth earned by sweeps in time, short of a whole scan. */
  private growth = 0
  /** Sweeps that took longer than `targetMs` (a figure for benches and tests). */
  late = 0

  constructor(readonly options: SweepSchedulerOptions) {
    this.free = options.capacity
    this.window = options.initialWindow
  }

  /** Sweeps waiting for room. */
  get waiting() {
    return this.heap.length
  }

  /** Questions in flight now. */
  get inFlight() {
    return this.options.capacity - this.free
  }

  /**
   * One more question for `turn`: true when it may ask now (and holds room until `release`), false
   * when it waits (its `launch` is called when it may try again).
   */
  take(turn: SweepTurn): boolean {
    const top = this.heap[0]
    if (this.free === 0 || (top !== undefined && top.turn.ticket < turn.ticket)) {
      this.push(turn)
      return false
    }
    const n = this.zones.get(turn.zone) ?? 0
    if (top !== undefined && n >= this.options.crowdedZone) {
      const list = this.zoneWaiting.get(turn.zone)
      if (list) list.push(turn)
      else this.zoneWaiting.set(turn.zone, [turn])
      return false
    }
    this.free--
    this.zones.set(turn.zone, n + 1)
    return true
  }

  /**
   * A question of `zone` settled. The room goes to `self` (the sweep it was for, when it has more
   * to ask) unless an older sweep waits, then to the zone's waiters, then to the oldest sweeps
   * waiting while room lasts.
   */
  release(zone: string, self?: SweepTurn) {
    this.free++
    const n = (this.zones.get(zone) ?? 1) - 1
    if (n === 0) this.zones.delete(zone)
    else this.zones.set(zone, n)
    const top = this.heap[0]
    if (self !== undefined && (top === undefined || self.ticket <= top.turn.ticket)) self.launch()
    // All of them: one given up in the meantime takes nothing, and must not strand the others.
    const list = this.zoneWaiting.get(zone)
    if (list !== undefined) {
      this.zoneWaiting.delete(zone)
      for (const turn of list) turn.launch()
    }
    // The popped sweep is older than every one left, so its `take`s do not queue it again while
    // room lasts: the loop ends.
    while (this.free > 0 && this.heap.length > 0) this.pop().launch()
  }

  /**
   * A sweep of `questions` ended after `durationMs` (from its first question to its last answer).
   * One in time grows the window by its share of `growthQuestions`: a sweep of a few questions (DKIM
   * where `_domainkey` does not exist asks 9) says little about whether the resolver keeps up with
   * the sweeps of ~150, and counted whole, thousands of them grew the window until those ran late.
   */
  finished(durationMs: number, now: number, questions = this.options.growthQuestions) {
    const { targetMs, minWindow, growthQuestions } = this.options
    if (durationMs <= targetMs) {
      this.growth += Math.min(1, questions / growthQuestions)
      if (this.growth >= 1) {
        this.growth--
        this.window++
      }
      return
    }
    this.late++
    if (now - this.shrunkAt < targetMs) return
    this.shrunkAt = now
    this.window = Math.max(minWindow, Math.floor(this.window / 2))
  }

  private push(turn: SweepTurn) {
    const heap = this.heap
    const item = { turn, seq: this.seq++ }
    let i = heap.push(item) - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!before(item, heap[parent]!)) break
      heap[i] = heap[parent]!
      i = parent
    }
    heap[i] = item
  }

  private pop(): SweepTurn {
    const heap = this.heap
    const top = heap[0]!
    const last = heap.pop()!
    if (heap.length > 0) {
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        if (l >= heap.length) break
        const r = l + 1
        const child = r < heap.length && before(heap[r]!, heap[l]!) ? r : l
        if (!before(heap[child]!, last)) break
        heap[i] = heap[child]!
        i = child
      }
      heap[i] = last
    }
    return top.turn
  }
}

const before = (
  a: { readonly turn: SweepTurn; readonly seq: number },
  b: { readonly turn: SweepTurn; readonly seq: number }
) => a.turn.ticket < b.turn.ticket || (a.turn.ticket === b.turn.ticket && a.seq < b.seq)

/** The sweeps' questions in flight at once, all scans of the process together. */
export const SWEEP_QUESTIONS_IN_FLIGHT = 1024
/** A zone's questions in flight while sweeps wait for room. */
export const CROWDED_ZONE_IN_FLIGHT = 8

/** The process's scheduler, shared by every scan's sweeps. */
export const sweepScheduler = new SweepScheduler({
  capacity: SWEEP_QUESTIONS_IN_FLIGHT,
  crowdedZone: CROWDED_ZONE_IN_FLIGHT,
  // A quarter of a check's default budget (CHECK_TIMEOUT_MS, 20 s): room for the rest of DKIM.
  targetMs: 5_000,
  growthQuestions: 64,
  initialWindow: 32,
  minWindow: 16
})

/** A scan's ticket: its start order, the sweeps' priority (older first). */
let tickets = 0
export const nextTicket = () => tickets++
