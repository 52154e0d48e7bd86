/**
 * A scan's DNS questions as the live Facts hold them (`FactsLive.ts`): callback objects over the
 * Resolver's `ask`, not fibers, since a batch keeps ~1,000 scans of ~175 questions in flight
 * (docs/bench.md, the batch). A memoised question keeps its answer for the scan; a sweep's
 * goes to its one reader (the sweeps of all scans share `SweepScheduler.ts`).
 */
import { Cause, Effect, Either, Exit, Option } from "effect"
import { type DnsAnswer, DnsError, type DnsRecord, type RecordType } from "../net/DnsTypes.ts"
import type { Asked } from "../net/Resolver.ts"
import { nextTicket } from "./SweepScheduler.ts"

export type Outcome = Exit.Exit<DnsAnswer, DnsError>

/**
 * What a scan's DNS questions share: whether the scan is still open, and one instance of each
 * authority record. A negative answer carries the zone's SOA, its RRSIG and the covering NSEC3s
 * (RFC 2308 3, RFC 5155 7.2); DKIM's ~160 selectors in a signed zone bring the same few records
 * again and again, and the memo keeps every answer until the scan ends (docs/bench.md, the batch).
 * Records are immutable data: sharing an equal one changes no answer.
 */
export class ScanState {
  open = true
  /** The scan's start order: older scans' sweeps go first (`SweepScheduler.ts`). */
  readonly ticket = nextTicket()
  private readonly authority = new Map<string, Array<DnsRecord>>()

  /** The answer, its authority records replaced by equal ones the scan already holds. */
  shared(answer: DnsAnswer): DnsAnswer {
    if (answer.authority.length === 0) return answer
    let replaced = false
    const authority = answer.authority.map((record) => {
      const known = this.authority.get(record.name)
      const same = known?.find(
        (k) => k.type === record.type && k.ttl === record.ttl && k.text === record.text
      )
      if (same !== undefined) {
        replaced = true
        return same
      }
      if (known) known.push(record)
      else this.authority.set(record.name, [record])
      return record
    })
    return replaced ? { ...answer, authority } : answer
  }
}

/**
 * One DNS question of a scan: its outcome once known, and who waits for it meanwhile. It is the
 * Resolver's `asked` itself, with methods rather than closures: tsx's esbuild transform (keepNames)
 * gives every named closure instance a 256-byte property array, and a scan asks ~175 questions.
 */
export class ScanQuestion implements Asked {
  outcome: Outcome | undefined
  /** Made on the first wait: most questions are read once, many by `queryEach`'s one listener. */
  private listeners: Array<(outcome: Outcome) => void> | undefined
  constructor(
    readonly now: number,
    private readonly scan: ScanState
  ) {}

  /** Wanted while the scan's scope is open, whoever of its checks still waits. */
  wanted() {
    return this.scan.open
  }

  done(answered: Outcome) {
    const outcome = Exit.isSuccess(answered) ? Exit.succeed(this.scan.shared(answered.value)) : answered
    this.outcome = outcome
    const listeners = this.listeners
    this.listeners = undefined
    if (listeners) for (const listener of listeners) listener(outcome)
  }

  /** Calls `listener` with the outcome: now if it is known, else when it is. */
  listen(listener: (outcome: Outcome) => void) {
    if (this.outcome) listener(this.outcome)
    else (this.listeners ??= []).push(listener)
  }

  /** Waits for the outcome; an interrupted waiter leaves (the question goes on for the others). */
  await(): Effect.Effect<DnsAnswer, DnsError> {
    return (
      this.outcome ??
      Effect.async<DnsAnswer, DnsError>((resume) => {
        this.listen(resume)
        return Effect.sync(() => {
          const at = this.listeners?.indexOf(resume) ?? -1
          if (at >= 0) this.listeners!.splice(at, 1)
        })
      })
    )
  }
}

/** A sweep's question (`facts.sweep`): wanted while the scan is open; its outcome goes to one reader, not the memo. */
export class SweepQuestion implements Asked {
  constructor(
    readonly now: number,
    private readonly scan: ScanState,
    private readonly settle: (outcome: Outcome) => void
  ) {}

  wanted() {
    return this.scan.open
  }

  done(outcome: Outcome) {
    this.settle(outcome)
  }
}

/** The memo's key of a DNS question (`name` normalised). */
export const dnsKey = (name: string, type: RecordType, cd: boolean) => `${name}\u0000${type}\u0000${cd}`

/** An outcome as the fans return it: a failure that is not a DnsError (a defect) becomes one. */
export const eitherOf = (
  outcome: Outcome,
  name: string,
  type: RecordType
): Either.Either<DnsAnswer, DnsError> =>
  Exit.isSuccess(outcome)
    ? Either.right(outcome.value)
    : Either.left(
        Option.getOrElse(
          Cause.failureOption(outcome.cause),
          () => new DnsError({ name, type, reason: "other", message: "the question failed unexpectedly" })
        )
      )
