/**
 * Facts: a check's only door to the world (DESIGN.md principles 3 and 5).
 *
 * A check's `gather` requires `Facts` and nothing of `net/`. One scan builds one Facts (the live
 * implementation is `src/scan/FactsLive.ts`), which asks each question once however many checks need
 * it and however concurrently they run: every DNS question, web fetch and SMTP probe, and every
 * derived `Fact`, is memoised for the scan, its failure too (a SERVFAIL stays unknown for the whole
 * scan instead of being retried by each check). A memoised question runs in the scan's own scope,
 * so a check that times out stops waiting for it without cancelling it for the others.
 *
 * A kind of network question of its own (a probe, a direct DNS question, a registry look-up) is a
 * `Question` declared once in net/ (net/Question.ts) and asked with `ask`: a new kind needs no
 * method here nor in the live Facts.
 *
 * The interface lives here, below the checks, and the implementation in `scan/`, so imports run
 * downward: scan -> checks -> Facts (this file) -> net types.
 */
import { Context, type Effect, type Either, type Exit } from "effect"
import type { AppConfig, Upstream } from "../Config.ts"
import type { DnsAnswer, DnsError, RecordType } from "../net/DnsTypes.ts"
import type { Question, ScanLookup } from "../net/Question.ts"
import type { Resolver } from "../net/Resolver.ts"
import type { Smtp, SmtpProbe } from "../net/Smtp.ts"
import type { TlsScanResult } from "../net/TlsScan.ts"
import type { ScanDepth } from "./Depth.ts"
import type { Domain } from "../records/DomainName.ts"
import type { Web, WebError, WebRequestOptions, WebResponse } from "../net/Web.ts"

/**
 * The services a scan provides every question it is asked (net/Question.ts); the optional ones
 * (NameServers, Rdap, RpkiVrps) a question reads with `Effect.serviceOption`. Facts itself is among
 * them for a question declared beside a check that composes what Facts asks.
 */
export type ScanServices = Resolver | Web | Smtp | AppConfig | ScanLookup | Facts

export interface Addresses {
  readonly v4: ReadonlyArray<string>
  readonly v6: ReadonlyArray<string>
}

export interface MxAnswer {
  readonly priority: number
  /** The exchange host; a null MX (RFC 7505) appears as "". */
  readonly exchange: string
}

/** What a derived fact may require besides the scan's Facts: the settings. */
export type FactContext = Facts | AppConfig

/**
 * A derived fact (the SPF graph, the mail servers, a check's result): computed at most once per
 * scan. It is keyed by the object itself, so define each one once at module level.
 */
export interface Fact<A, E = never> {
  /** For spans and logs. */
  readonly name: string
  readonly compute: Effect.Effect<A, E, FactContext>
  /** The span the scan wraps `compute` in (`Fact.<name>`); false when `compute` has its own (a check's). */
  readonly span: boolean
}

export const Fact = {
  define: <A, E = never>(
    name: string,
    compute: Effect.Effect<A, E, FactContext>,
    options: { readonly span?: boolean } = {}
  ): Fact<A, E> => ({ name, compute, span: options.span ?? true })
}

/**
 * The outcome to be of work the scan started: awaited as an Effect (a fiber parked on it, as on a
 * Deferred), or heard by a callback, which needs no fiber at all (the Scanner waits on its checks
 * so, under one timer).
 */
export interface Pending<A, E> {
  /** Its exit once the work has ended; undefined before. */
  readonly exit: Exit.Exit<A, E> | undefined
  /** The outcome, awaited. */
  readonly await: Effect.Effect<A, E>
  /** Calls `heard` once with the exit (at once if it is known); the returned function stops listening. */
  readonly listen: (heard: (exit: Exit.Exit<A, E>) => void) => () => void
}

export interface FactsShape {
  /** The scanned domain, as the edge decoded it (lower case, no trailing dot). */
  readonly domain: Domain
  /**
   * The names of the domain its owner listed for the scan (`names=`, records/ListedNames.ts:
   * normalised, the domain or under it), which DNS cannot enumerate; [] when none were.
   */
  readonly names: ReadonlyArray<string>
  /**
   * How deep the scan goes (kernel/Depth.ts): a check whose questions are the costly TLS kind asks
   * them only where `enumeratesTls` says so.
   */
  readonly depth: ScanDepth
  /** One DNS question; `checkingDisabled` (RFC 4035 3.2.2) is a separate question. */
  readonly query: (
    name: string,
    type: RecordType,
    options?: { readonly checkingDisabled?: boolean }
  ) => Effect.Effect<DnsAnswer, DnsError>
  /** TXT strings of each record at a name, joined per RFC 7208 3.3; none is []. */
  readonly txt: (name: string) => Effect.Effect<ReadonlyArray<string>, DnsError>
  /**
   * Several DNS questions (as `query`, each outcome kept, in order), at most `concurrency` in
   * flight, in one fiber: for fans of questions (DKIM's ~160 selectors, a blocklist's zones),
   * where a fiber each cost more memory than the answers (docs/bench.md, the batch).
   */
  readonly queryEach: (
    questions: ReadonlyArray<{ readonly name: string; readonly type: RecordType }>,
    options: { readonly concurrency: number }
  ) => Effect.Effect<ReadonlyArray<Either.Either<DnsAnswer, DnsError>>>
  /**
   * A sweep: many DNS questions of one type that only the caller asks (DKIM's ~160 selectors),
   * each outcome reduced by `keep` as it arrives, at most `concurrency` in flight, in one fiber.
   * Unlike `queryEach`, a sweep's answers are not kept for the scan: the memo keeps every answer
   * until the scan ends, and DKIM's negative answers, a few hundred bytes each, were a third of
   * a scan's memory in flight (docs/bench.md, the batch). A question the scan has already
   * asked is read from the memo; the Resolver still shares flights and caches answers.
   */
  readonly sweep: <A>(
    type: RecordType,
    names: ReadonlyArray<string>,
    keep: (outcome: Either.Either<DnsAnswer, DnsError>, i: number) => A,
    options: { readonly concurrency: number }
  ) => Effect.Effect<ReadonlyArray<A>>
  /** A and AAAA of a host; a failure of either fails the whole (unknown is not "no address"). */
  readonly addresses: (host: string) => Effect.Effect<Addresses, DnsError>
  /** MX records by priority (RFC 5321 5.1). */
  readonly mx: (name: string) => Effect.Effect<ReadonlyArray<MxAnswer>, DnsError>
  /** PTR names of an address (RFC 1035 3.5, RFC 3596 2.5). */
  readonly ptr: (ip: string) => Effect.Effect<ReadonlyArray<string>, DnsError>
  /** Ask exactly one upstream, now, past every cache (what that resolver says at this moment). */
  readonly queryAt: (upstream: Upstream, name: string, type: RecordType) => Effect.Effect<DnsAnswer, DnsError>
  /** One HTTPS (or HTTP) fetch through the guarded client, host names resolved through `addresses`. */
  readonly fetch: (url: string, options?: WebRequestOptions) => Effect.Effect<WebResponse, WebError>
  /** One SMTP session with one MX address (RFC 5321, STARTTLS per RFC 3207). */
  readonly probe: (host: string, address: string) => Effect.Effect<SmtpProbe>
  /** The TLS scan of a web host's address on port 443 (versions, suites, certificate: net/TlsScan.ts). */
  readonly webTlsScan: (host: string, address: string) => Effect.Effect<TlsScanResult>
  /** The TLS scan of an MX address through STARTTLS (versions, suites: net/SmtpTlsScan.ts). */
  readonly smtpTlsScan: (host: string, address: string) => Effect.Effect<TlsScanResult>
  /**
   * One network question of a kind declared in net/ (net/Question.ts), memoised per scan by the
   * question and its key: asked twice it runs once, and its failure is kept for the scan.
   */
  readonly ask: <Args, A, E>(question: Question<Args, A, E, ScanServices>, args: Args) => Effect.Effect<A, E>
  /** A derived fact, computed at most once per scan. */
  readonly get: <A, E>(fact: Fact<A, E>) => Effect.Effect<A, E>
  /*
   * Starting without waiting. A check that waits on several things at once can start them all,
   * then await each in turn in its own fiber: `Effect.all` with a concurrency forks a fiber per
   * element that only waits (~7 KB each parked, and a batch keeps 1,000 scans in flight:
   * docs/bench.md). The work and its memo are the same as `get`, `query` and `fetch`.
   */
  /** Starts a derived fact (as `get`) and returns its outcome to be. */
  readonly start: <A, E>(fact: Fact<A, E>) => Effect.Effect<Pending<A, E>>
  /** Asks these DNS questions now (as `query`, with `checkingDisabled` where given), without waiting. */
  readonly prefetch: (
    questions: ReadonlyArray<{
      readonly name: string
      readonly type: RecordType
      readonly checkingDisabled?: boolean
    }>
  ) => Effect.Effect<void>
  /** Starts an SMTP probe (as `probe`) and returns the effect that awaits it. */
  readonly startProbe: (host: string, address: string) => Effect.Effect<Effect.Effect<SmtpProbe>>
  /** Starts a question (as `ask`) and returns the effect that awaits its answer. */
  readonly startAsk: <Args, A, E>(
    question: Question<Args, A, E, ScanServices>,
    args: Args
  ) => Effect.Effect<Effect.Effect<A, E>>
  /** Starts a fetch (as `fetch`) and returns the effect that awaits its response. */
  readonly startFetch: (
    url: string,
    options?: WebRequestOptions
  ) => Effect.Effect<Effect.Effect<WebResponse, WebError>>
  /**
   * The DKIM selectors that DMARC aggregate reports received for the domain name (RFC 7489
   * Appendix C `auth_results/dkim/selector`), asked once per scan; absent where no report store is
   * wired (a batch without the service's database, a unit test's fake).
   */
  readonly reportedSelectors?: Effect.Effect<ReadonlyArray<string>>
}

/** Where the live Facts find the selectors of `reportedSelectors` (inbound/ReportsIn.ts provides it). */
export class SelectorSource extends Context.Tag("SelectorSource")<
  SelectorSource,
  { readonly selectorsFor: (domain: string) => Effect.Effect<ReadonlyArray<string>> }
>() {}

export class Facts extends Context.Tag("Facts")<Facts, FactsShape>() {}

/**
 * The questions `facts.addresses(name)` asks (A and AAAA), for `facts.prefetch`: several names'
 * addresses asked at once, then read in turn in one fiber.
 */
export const addressQuestions = (name: string) =>
  [
    { name, type: "A" },
    { name, type: "AAAA" }
  ] as const
