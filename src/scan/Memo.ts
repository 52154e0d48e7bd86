/**
 * The memo of a scan's Facts (`FactsLive.ts`): fetches, probes, questions and derived facts, each
 * forked into the scan's scope once per key, its outcome shared by every asker.
 */
import { Effect, type Exit, type Scope } from "effect"
import type { Pending } from "../kernel/Facts.ts"

/**
 * A memoised work's outcome to be (kernel/Facts.ts `Pending`): set from its fiber's exit by an
 * observer, not by a step of the work (`intoDeferred`'s region), and heard by callbacks as well as
 * awaited.
 */
class Settling<A, E> implements Pending<A, E> {
  exit: Exit.Exit<A, E> | undefined = undefined
  private heard: Array<(exit: Exit.Exit<A, E>) => void> | undefined = undefined
  settle(exit: Exit.Exit<A, E>) {
    if (this.exit !== undefined) return
    this.exit = exit
    const heard = this.heard
    this.heard = undefined
    if (heard) for (const f of heard) f(exit)
  }
  listen(heard: (exit: Exit.Exit<A, E>) => void) {
    if (this.exit !== undefined) {
      heard(this.exit)
      return () => {}
    }
    ;(this.heard ??= []).push(heard)
    return () => {
      const at = this.heard?.indexOf(heard) ?? -1
      if (at >= 0) this.heard!.splice(at, 1)
    }
  }
  private readonly waiting = Effect.async<A, E>((resume) => Effect.sync(this.listen(resume)))
  // An Exit is an Effect: a known outcome is returned as it is, with no wait.
  readonly await: Effect.Effect<A, E> = Effect.suspend(() => this.exit ?? this.waiting)
}

/**
 * Memoises effects by key in `scope`: the first `start` forks the work and every `start` returns
 * its outcome to be; `get` starts and awaits.
 */
export const memoIn = (scope: Scope.Scope) => {
  const table = new Map<unknown, Settling<any, any>>()
  const start = <A, E>(key: unknown, work: () => Effect.Effect<A, E>): Effect.Effect<Settling<A, E>> =>
    // The table entry and the fork happen together: an interruption between them would leave an
    // entry that nobody completes.
    Effect.uninterruptible(
      Effect.suspend(() => {
        const known = table.get(key) as Settling<A, E> | undefined
        if (known) return Effect.succeed(known)
        const outcome = new Settling<A, E>()
        table.set(key, outcome)
        // A fiber forked here would inherit the mask: the work itself must stay interruptible.
        return Effect.map(Effect.forkIn(Effect.interruptible(Effect.suspend(work)), scope), (fiber) => {
          fiber.addObserver((exit) => outcome.settle(exit))
          return outcome
        })
      })
    )
  const get = <A, E>(key: unknown, work: () => Effect.Effect<A, E>): Effect.Effect<A, E> =>
    Effect.flatMap(start(key, work), (outcome) => outcome.await)
  return { start, get }
}
