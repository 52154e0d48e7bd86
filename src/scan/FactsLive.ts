/**
 * The live Facts of one scan (the interface and its reasons: `src/kernel/Facts.ts`).
 *
 * Every question is memoised for the scan, keyed by what it asks: a DNS question by name, type and
 * CD bit; a fetch by URL and options; a probe by host and address; a question asked with `ask`
 * (net/Question.ts) by the question object and its key; a derived fact by the Fact object itself. The first asker starts the work and every asker, the first included, awaits its
 * outcome: a check that gives up (its timeout, the scan's deadline) stops waiting without
 * cancelling the work for the others, and closing the scan's scope (the scan ends, or its client
 * went away) stops whatever is still running, so nothing outlives the scan.
 *
 * DNS questions, ~170 of a scan's ~190 (DKIM's selectors are most), are a table of callbacks over
 * the Resolver's `ask`, not a fiber each: a parked fiber costs ~3 KB and a scan in flight held
 * ~390 of them (scripts/bench/scanMemory.ts, docs/bench.md). Fetches, probes, questions and
 * derived facts, a few dozen, are forked into the scan's scope: one fiber each, its work's.
 */
import { type Domain, normaliseName } from "../records/DomainName.ts"
import { Context, Effect, FiberRef, Option, Scope } from "effect"
import { AppConfig } from "../Config.ts"
import { traced } from "../kernel/Check.ts"
import { type Fact, Facts, type FactsShape, type ScanServices, SelectorSource } from "../kernel/Facts.ts"
import type { RecordType } from "../net/DnsTypes.ts"
import { NameServers } from "../net/NameServers.ts"
import { type Question, ScanLookup } from "../net/Question.ts"
import { Rdap } from "../net/Rdap.ts"
import { Resolver } from "../net/Resolver.ts"
import { RpkiVrps } from "../net/RpkiVrps.ts"
import { addressesOf, lookupsOver, type QueryOptions } from "../net/ResolverShape.ts"
import { Smtp } from "../net/Smtp.ts"
import { unenumeratedScan } from "../net/TlsScan.ts"
import { enumeratesTls, type ScanDepth } from "../kernel/Depth.ts"
import { Web, type WebRequestOptions } from "../net/Web.ts"
import { Exporting } from "../observe/Spans.ts"
import { dnsKey, eitherOf, type Outcome, ScanQuestion, ScanState, SweepQuestion } from "./ScanQuestions.ts"
import { sweepScheduler, type SweepTurn } from "./SweepScheduler.ts"
import { memoIn } from "./Memo.ts"

/** The zone a sweep asks, as the scheduler bounds it: its first name's parent (DKIM's `_domainkey.<domain>`). */
const zoneOf = (name: string) => {
  const dot = name.indexOf(".")
  return dot < 0 ? name : name.slice(dot + 1)
}

/** A scan's Facts (starting a derived fact without waiting, which the Scanner needs, is in FactsShape). */
export type LiveFacts = FactsShape

/** Options that change the answer; `timeoutMs` is the asker's budget, not part of the question. */
const fetchKey = (url: string, { timeoutMs: _t, lookup: _l, ...rest }: WebRequestOptions) =>
  // Sorted top-level entries: a replacer array would also drop nested keys (the request headers).
  `${url}\u0000${JSON.stringify(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1)))}`

/** The port the mail servers' TLS is scanned at (RFC 5321 4.5.4's SMTP port, STARTTLS). */
const SMTP_PORT = 25

/** The services a scan's Facts are built over. */
export type ScanContext = Resolver | Web | Smtp | AppConfig

/**
 * Facts for `domain`, memoised in `scope` (the scan's), over the net services; `names` are the
 * names its owner listed for the takeover check (records/ListedNames.ts), none by default; `depth`
 * how much of each server's TLS is asked (kernel/Depth.ts), all of it by default.
 */
export const makeFacts = (
  domain: Domain,
  scope: Scope.Scope,
  names: ReadonlyArray<string> = [],
  depth: ScanDepth = "full"
) =>
  Effect.gen(function* () {
    const resolver = yield* Resolver
    const web = yield* Web
    const smtp = yield* Smtp
    const config = yield* AppConfig
    // Read once per scan, not per question: a DNS question's Effect cost is counted in microseconds.
    const exporting = yield* FiberRef.get(Exporting)
    const selectorSource = yield* Effect.serviceOption(SelectorSource)
    // Optional, so every context that builds Facts need not provide them: a question reads them
    // with `serviceOption` and answers without (net/Question.ts).
    const optional = yield* Effect.all([
      Effect.serviceOption(NameServers),
      Effect.serviceOption(Rdap),
      Effect.serviceOption(RpkiVrps)
    ])
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
      const n = normaliseName(name)
      return question(dnsKey(n, type, cd), n, type, cd ? { checkingDisabled: true } : {}, now)
    }
    const ask = (name: string, type: RecordType, options: { readonly checkingDisabled?: boolean } = {}) =>
      Effect.clockWith((clock) =>
        dnsQuestion(name, type, options.checkingDisabled === true, clock.unsafeCurrentTimeMillis()).await()
      )
    const query: typeof ask = exporting
      ? (name, type, options) =>
          Effect.withSpan(ask(name, type, options), "Dns.query", {
            attributes: { "dns.name": name, "dns.type": type },
            captureStackTrace: false
          })
      : ask
    const lookups = lookupsOver(query, resolver.upstreams)
    /**
     * A fan of `count` questions in one fiber: a window of `concurrency` in flight, refilled by
     * callbacks; `ask(i, settle)` asks the i-th, and each outcome is kept as `keep` makes it. With
     * a `zone`, it is a sweep: each question in flight also holds room in the process's
     * `sweepScheduler`, taken in the scan's turn.
     */
    const fan = <A>(
      count: number,
      concurrency: number,
      ask: (i: number, now: number, settle: (outcome: Outcome) => void) => void,
      keep: (outcome: Outcome, i: number) => A,
      zone?: string
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
          const turn: SweepTurn | undefined =
            zone === undefined
              ? undefined
              : {
                  ticket: scan.ticket,
                  zone,
                  launch: () => {
                    queued = false
                    launch()
                  }
                }
          const launch = () => {
            // `queued` also stops this loop when an answer at hand (read synchronously) relaunched
            // the fan and it queued there.
            while (!queued && !gone && inFlight < Math.max(1, concurrency) && next < count && scan.open) {
              if (turn !== undefined && !sweepScheduler.take(turn)) {
                queued = true
                return
              }
              const i = next++
              inFlight++
              ask(i, now, (outcome) => {
                results[i] = keep(outcome, i)
                inFlight--
                if (turn !== undefined)
                  sweepScheduler.release(turn.zone, next < count && !queued ? turn : undefined)
                if (++settled === count) {
                  if (turn !== undefined) {
                    const end = clock.unsafeCurrentTimeMillis()
                    sweepScheduler.finished(end - now, end, count)
                  }
                  resume(Effect.succeed(results))
                } else launch()
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
          const n = normaliseName(names[i]!)
          const known = asked.get(dnsKey(n, type, false))
          if (known) known.listen(settle)
          else resolver.ask(n, type, {}, new SweepQuestion(now, scan, settle))
        },
        (outcome, i) => keep(eitherOf(outcome, names[i]!, type), i),
        names.length === 0 ? undefined : zoneOf(normaliseName(names[0]!))
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
    /**
     * The services every question runs over (net/Question.ts), gathered once per scan (Facts
     * itself once it is built, below). Picked, not the whole context this scan was built in: that
     * also holds the span it was built under, and a question's spans belong under its asker's.
     */
    let scanServices: Context.Context<Exclude<ScanServices, Facts>> = Context.make(Resolver, resolver).pipe(
      Context.add(Web, web),
      Context.add(Smtp, smtp),
      Context.add(AppConfig, config),
      Context.add(ScanLookup, addresses)
    )
    const [nameServers, rdap, vrps] = optional
    if (Option.isSome(nameServers)) scanServices = Context.add(scanServices, NameServers, nameServers.value)
    if (Option.isSome(rdap)) scanServices = Context.add(scanServices, Rdap, rdap.value)
    if (Option.isSome(vrps)) scanServices = Context.add(scanServices, RpkiVrps, vrps.value)
    // As `services` below: the asker's context (its span) extended, kept while the askers share it.
    let lastAsker: readonly [Context.Context<never>, Context.Context<never>] | undefined
    const withScanServices = (context: Context.Context<never>) => {
      if (lastAsker?.[0] !== context)
        lastAsker = [context, Context.merge(context, scanServices) as Context.Context<never>]
      return lastAsker[1]
    }
    // One memo per kind of question, keyed by the question object as a derived fact is.
    const questions = new Map<Question<any, any, any, any>, ReturnType<typeof memoIn>>()
    /** Starts `question` (once per key for the scan) and returns its outcome to be. */
    const startQuestion = <Args, A, E>(question: Question<Args, A, E, ScanServices>, args: Args) =>
      Effect.suspend(() => {
        let kind = questions.get(question)
        if (kind === undefined) questions.set(question, (kind = memoIn(scope)))
        // In the memo's fiber of its own, as a fetch or a probe: its services set for that fiber.
        return kind.start(question.key(args), () =>
          traced(
            `Question.${question.name}`,
            {}
          )(
            Effect.zipRight(
              FiberRef.update(FiberRef.currentContext, withScanServices),
              Effect.suspend(() => question.run(args) as Effect.Effect<A, E>)
            )
          )
        )
      })
    const askQuestion = <Args, A, E>(
      question: Question<Args, A, E, ScanServices>,
      args: Args
    ): Effect.Effect<A, E> => Effect.flatMap(startQuestion(question, args), (outcome) => outcome.await)
    const startFetch = (url: string, options: WebRequestOptions = {}) =>
      Effect.map(
        memo.start(`fetch\u0000${fetchKey(url, options)}`, () =>
          web.get(url, { ...options, lookup: addresses })
        ),
        (outcome) => outcome.await
      )
    const startProbe = (host: string, address: string) =>
      Effect.map(
        memo.start(`probe\u0000${normaliseName(host)}\u0000${address}`, () => smtp.probe(host, address)),
        (outcome) => outcome.await
      )
    // Every derived fact runs in a fiber of its own (the memo forks it), so its services are set
    // for that fiber rather than provided in a region: each region adds frames to the stack of a
    // fact's fiber while it waits on a question (docs/bench.md, the batch).
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
      domain,
      names,
      depth,
      query,
      txt: lookups.txt,
      queryEach,
      sweep,
      addresses,
      mx: lookups.mx,
      ptr: lookups.ptr,
      queryAt: (upstream, name, type) =>
        Effect.clockWith((clock) => {
          const n = normaliseName(name)
          const key = `@${upstream.address}\u0000${upstream.port}\u0000${n}\u0000${type}`
          return question(key, n, type, { upstream, fresh: true }, clock.unsafeCurrentTimeMillis()).await()
        }),
      fetch: (url, options = {}) => Effect.flatten(startFetch(url, options)),
      startFetch,
      prefetch: (questions) =>
        Effect.clockWith((clock) =>
          Effect.sync(() => {
            const now = clock.unsafeCurrentTimeMillis()
            for (const { name, type, checkingDisabled } of questions)
              if (scan.open) dnsQuestion(name, type, checkingDisabled === true, now)
          })
        ),
      probe: (host, address) => Effect.flatten(startProbe(host, address)),
      startProbe,
      // The depth (kernel/Depth.ts) chooses how much of a server's TLS is asked, here and only here.
      webTlsScan: enumeratesTls(depth, "web")
        ? (host, address) =>
            memo.get(`web-tls\u0000${normaliseName(host)}\u0000${address}`, () => web.tlsScan(host, address))
        : (host, address) =>
            memo.get(`web-tls-certificate\u0000${normaliseName(host)}\u0000${address}`, () =>
              web.tlsCertificate(host, address)
            ),
      smtpTlsScan: enumeratesTls(depth, "mail")
        ? (host, address) =>
            memo.get(`smtp-tls\u0000${normaliseName(host)}\u0000${address}`, () =>
              smtp.tlsScan(host, address)
            )
        : (host, address) => Effect.succeed(unenumeratedScan(host, address, SMTP_PORT)),
      ask: askQuestion,
      startAsk: (question, args) => Effect.map(startQuestion(question, args), (outcome) => outcome.await),
      get: <A, E>(fact: Fact<A, E>): Effect.Effect<A, E> =>
        Effect.flatMap(start(fact), (outcome) => outcome.await),
      start,
      ...Option.match(selectorSource, {
        onNone: () => ({}),
        onSome: (source) => ({
          reportedSelectors: memo.get("reported-selectors", () => source.selectorsFor(domain))
        })
      })
    }
    scanServices = Context.add(scanServices, Facts, facts)
    return facts
  })
