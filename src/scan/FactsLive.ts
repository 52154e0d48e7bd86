/**
 * The live Facts of one scan (the interface and its reasons: `src/checks/Facts.ts`).
 *
 * Every question is memoised for the scan, keyed by what it asks: a DNS question by name, type and
 * CD bit; a fetch by URL and options; a probe by host and address; a derived fact by the Fact
 * object itself. The first asker starts the work and every asker, the first included, awaits its
 * outcome: a check that gives up (its timeout, the scan's deadline) stops waiting without
 * cancelling the work for the others, and closing the scan's scope (the scan ends, or its client
 * went away) stops whatever is still running, so nothing outlives the scan.
 *
 * DNS questions, ~170 of a scan's ~190 (DKIM's selectors are most), are a table of callbacks over
 * the Resolver's `ask`, not a fiber each: a parked fiber costs ~3 KB and a scan in flight held
 * ~390 of them (scripts/bench/scanMemory.ts, docs/bench.md). Fetches, probes and derived facts,
 * a few dozen, are forked into the scan's scope.
 */
import { Cause, Context, Deferred, Effect, Either, Exit, FiberId, FiberRef, Option, Scope } from "effect"
import { AppConfig } from "../Config.ts"
import { traced } from "../checks/Check.ts"
import { type Fact, Facts, type FactsShape } from "../checks/Facts.ts"
import { type DnsAnswer, DnsError, type DnsRecord, type RecordType } from "../net/Dns.ts"
import {
  addressesOf,
  type Asked,
  lookupsOver,
  normalizeName,
  type QueryOptions,
  Resolver
} from "../net/Resolver.ts"
import { Smtp } from "../net/Smtp.ts"
import { Web, type WebRequestOptions } from "../net/Web.ts"

/**
 * Memoises effects by key in `scope`: the first `start` forks the work and every `start` returns
 * its outcome to be; `get` starts and awaits.
 */
export const memoIn = (scope: Scope.Scope) => {
  const table = new Map<unknown, Deferred.Deferred<any, any>>()
  const start = <A, E>(
    key: unknown,
    work: () => Effect.Effect<A, E>
  ): Effect.Effect<Deferred.Deferred<A, E>> =>
    // The table entry and the fork happen together: an interruption between them would leave an
    // entry that nobody completes.
    Effect.uninterruptible(
      Effect.suspend(() => {
        const known = table.get(key) as Deferred.Deferred<A, E> | undefined
        if (known) return Effect.succeed(known)
        const done = Deferred.unsafeMake<A, E>(FiberId.none)
        table.set(key, done)
        // A fiber forked here would inherit the mask: the work itself must stay interruptible.
        return Effect.as(
          Effect.forkIn(Effect.interruptible(Effect.intoDeferred(Effect.suspend(work), done)), scope),
          done
        )
      })
    )
  const get = <A, E>(key: unknown, work: () => Effect.Effect<A, E>): Effect.Effect<A, E> =>
    Effect.flatMap(start(key, work), Deferred.await)
  return { start, get }
}

/** A scan's Facts (starting a derived fact without waiting, which the Scanner needs, is in FactsShape). */
export type LiveFacts = FactsShape

type Outcome = Exit.Exit<DnsAnswer, DnsError>

/**
 * What a scan's DNS questions share: whether the scan is still open, and one instance of each
 * authority record. A negative answer carries the zone's SOA, its RRSIG and the covering NSEC3s
 * (RFC 2308 3, RFC 5155 7.2); DKIM's ~160 selectors in a signed zone bring the same few records
 * again and again, and the memo keeps every answer until the scan ends (docs/bench.md, the 512 MB
 * goal). Records are immutable data: sharing an equal one changes no answer.
 */
class ScanState {
  open = true
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
class ScanQuestion implements Asked {
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

/**
 * Slots for the sweeps' questions in flight (`facts.sweep`), shared by every scan of the process.
 * A sweep's own window (DKIM's 64) keeps one scan quick, but a thousand scans in flight would keep
 * 64,000 questions in flight, ~1 KB of state each on its way, where a few thousand keep any
 * resolver busy (15,000 answers a second at 200 ms each is 3,000). A sweep that finds every slot
 * taken waits its turn, first come first served. `queryEach` is not held: other checks wait on its
 * questions (an MX host's addresses).
 */
class SweepSlots {
  /** The sweeps waiting: a queue read from `head`, compacted now and then. */
  private waiting: Array<(() => void) | undefined> = []
  private head = 0
  constructor(private free: number) {}

  take(): boolean {
    if (this.free === 0) return false
    this.free--
    return true
  }

  wait(launch: () => void) {
    this.waiting.push(launch)
  }

  /** A slot back: the sweeps waiting launch in turn while slots are free (one given up takes none). */
  release() {
    this.free++
    while (this.free > 0 && this.head < this.waiting.length) {
      const launch = this.waiting[this.head]!
      this.waiting[this.head++] = undefined
      if (this.head > 1024 && this.head * 2 > this.waiting.length) {
        this.waiting = this.waiting.slice(this.head)
        this.head = 0
      }
      launch()
    }
  }
}

/** The sweeps' questions in flight at once, all scans of the process together. */
export const SWEEP_QUESTIONS_IN_FLIGHT = 4096
const sweepSlots = new SweepSlots(SWEEP_QUESTIONS_IN_FLIGHT)

/** A sweep's question (`facts.sweep`): wanted while the scan is open; its outcome goes to one reader, not the memo. */
class SweepQuestion implements Asked {
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
const dnsKey = (name: string, type: RecordType, cd: boolean) => `${name}\u0000${type}\u0000${cd}`

/** An outcome as the fans return it: a failure that is not a DnsError (a defect) becomes one. */
const eitherOf = (outcome: Outcome, name: string, type: RecordType): Either.Either<DnsAnswer, DnsError> =>
  Exit.isSuccess(outcome)
    ? Either.right(outcome.value)
    : Either.left(
        Option.getOrElse(
          Cause.failureOption(outcome.cause),
          () => new DnsError({ name, type, reason: "other", message: "the question failed unexpectedly" })
        )
      )

/** Options that change the answer; `timeoutMs` is the asker's budget, not part of the question. */
const fetchKey = (url: string, { timeoutMs: _t, lookup: _l, ...rest }: WebRequestOptions) =>
  `${url}\u0000${JSON.stringify(rest, Object.keys(rest).sort())}`

/** The services a scan's Facts are built over. */
export type ScanContext = Resolver | Web | Smtp | AppConfig

/** Facts for `domain`, memoised in `scope` (the scan's), over the net services. */
export const makeFacts = (domain: string, scope: Scope.Scope) =>
  Effect.gen(function* () {
    const resolver = yield* Resolver
    const web = yield* Web
    const smtp = yield* Smtp
    const config = yield* AppConfig
    const memo = memoIn(scope)
    // The scan's questions are wanted while its scope is open: one finalizer, not one per question.
    const scan = new ScanState()
    yield* Scope.addFinalizer(
      scope,
      Effect.sync(() => void (scan.open = false))
    )
    const asked = new Map<string, ScanQuestion>()
    /** The question under `key`, asked now (at `now` of the Clock) unless the scan asked it before. */
    const question = (key: string, name: string, type: RecordType, options: QueryOptions, now: number) => {
      let known = asked.get(key)
      if (known === undefined) {
        const fresh = new ScanQuestion(now, scan)
        asked.set(key, fresh)
        resolver.ask(name, type, options, fresh)
        known = fresh
      }
      return known
    }
    const dnsQuestion = (name: string, type: RecordType, cd: boolean, now: number) => {
      const n = normalizeName(name)
      return question(dnsKey(n, type, cd), n, type, cd ? { checkingDisabled: true } : {}, now)
    }
    const query = (name: string, type: RecordType, options: { readonly checkingDisabled?: boolean } = {}) =>
      Effect.clockWith((clock) =>
        dnsQuestion(name, type, options.checkingDisabled === true, clock.unsafeCurrentTimeMillis()).await()
      )
    const lookups = lookupsOver(query, resolver.upstreams)
    /**
     * A fan of `count` questions in one fiber: a window of `concurrency` in flight, refilled by
     * callbacks; `ask(i, settle)` asks the i-th, and each outcome is kept as `keep` makes it. With
     * `slots`, each question in flight also holds one of those.
     */
    const fan = <A>(
      count: number,
      concurrency: number,
      ask: (i: number, now: number, settle: (outcome: Outcome) => void) => void,
      keep: (outcome: Outcome, i: number) => A,
      slots?: SweepSlots
    ) =>
      Effect.clockWith((clock) =>
        Effect.async<ReadonlyArray<A>>((resume) => {
          const now = clock.unsafeCurrentTimeMillis()
          const results = new Array<A>(count)
          let next = 0
          let inFlight = 0
          let settled = 0
          let gone = false
          let queued = false
          const launch = () => {
            // `queued` also stops this loop when an answer at hand (read synchronously) relaunched
            // the fan and it queued there.
            while (!queued && !gone && inFlight < Math.max(1, concurrency) && next < count && scan.open) {
              if (slots !== undefined && !slots.take()) {
                queued = true
                return slots.wait(() => {
                  queued = false
                  launch()
                })
              }
              const i = next++
              inFlight++
              ask(i, now, (outcome) => {
                results[i] = keep(outcome, i)
                inFlight--
                slots?.release()
                if (++settled === count) resume(Effect.succeed(results))
                else launch()
              })
            }
          }
          if (count === 0) resume(Effect.succeed(results))
          else launch()
          // A fan given up (its check's fiber interrupted) asks nothing more; what it asked settles.
          return Effect.sync(() => void (gone = true))
        })
      )
    const queryEach: FactsShape["queryEach"] = (questions, { concurrency }) =>
      fan(
        questions.length,
        concurrency,
        (i, now, settle) => dnsQuestion(questions[i]!.name, questions[i]!.type, false, now).listen(settle),
        (outcome, i) => eitherOf(outcome, questions[i]!.name, questions[i]!.type)
      )
    const sweep: FactsShape["sweep"] = (type, names, keep, { concurrency }) =>
      fan(
        names.length,
        concurrency,
        (i, now, settle) => {
          const n = normalizeName(names[i]!)
          const known = asked.get(dnsKey(n, type, false))
          if (known) known.listen(settle)
          else resolver.ask(n, type, {}, new SweepQuestion(now, scan, settle))
        },
        (outcome, i) => keep(eitherOf(outcome, names[i]!, type), i),
        sweepSlots
      )
    /** A and AAAA as one fan (one fiber; `lookups.addresses` would fork one per question). */
    const addresses = (host: string) =>
      Effect.flatMap(
        queryEach(
          [
            { name: host, type: "A" },
            { name: host, type: "AAAA" }
          ],
          { concurrency: 2 }
        ),
        // An Either is an Effect: the first failure, A's or AAAA's, fails the whole.
        (answers) => Effect.map(Effect.all(answers), ([a, aaaa]) => addressesOf(a!, aaaa!))
      )
    const startFetch = (url: string, options: WebRequestOptions = {}) =>
      Effect.map(
        memo.start(`fetch\u0000${fetchKey(url, options)}`, () =>
          web.get(url, { ...options, lookup: addresses })
        ),
        Deferred.await
      )
    // Every derived fact runs in a fiber of its own (the memo forks it), so its services are set
    // for that fiber rather than provided in a region: each region adds frames to the stack of a
    // fact's fiber while it waits on a question (docs/bench.md, the 512 MB goal).
    // Facts are forked from the scan's fibers, which mostly share one context: its extension is
    // kept, not rebuilt (a Context is a Map) for each fact.
    let last: readonly [Context.Context<never>, Context.Context<never>] | undefined
    const services = (context: Context.Context<never>) => {
      if (last?.[0] !== context)
        last = [
          context,
          Context.add(Context.add(context, Facts, facts), AppConfig, config) as Context.Context<never>
        ]
      return last[1]
    }
    const start = <A, E>(fact: Fact<A, E>) =>
      memo.start(fact, () => {
        const compute = Effect.zipRight(
          FiberRef.update(FiberRef.currentContext, services),
          fact.compute as Effect.Effect<A, E>
        )
        return fact.span ? traced(`Fact.${fact.name}`, {})(compute) : compute
      })
    const facts: LiveFacts = {
      domain: normalizeName(domain),
      query,
      txt: lookups.txt,
      queryEach,
      sweep,
      addresses,
      mx: lookups.mx,
      ptr: lookups.ptr,
      queryAt: (upstream, name, type) =>
        Effect.clockWith((clock) => {
          const n = normalizeName(name)
          const key = `@${upstream.address}\u0000${upstream.port}\u0000${n}\u0000${type}`
          return question(key, n, type, { upstream, fresh: true }, clock.unsafeCurrentTimeMillis()).await()
        }),
      fetch: (url, options = {}) => Effect.flatten(startFetch(url, options)),
      startFetch,
      prefetch: (questions) =>
        Effect.clockWith((clock) =>
          Effect.sync(() => {
            const now = clock.unsafeCurrentTimeMillis()
            for (const { name, type } of questions) if (scan.open) dnsQuestion(name, type, false, now)
          })
        ),
      probe: (host, address) =>
        memo.get(`probe\u0000${normalizeName(host)}\u0000${address}`, () => smtp.probe(host, address)),
      get: <A, E>(fact: Fact<A, E>): Effect.Effect<A, E> => Effect.flatMap(start(fact), Deferred.await),
      start
    }
    return facts
  })
