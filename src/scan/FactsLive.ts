/**
 * The live Facts of one scan (the interface and its reasons: `src/checks/Facts.ts`).
 *
 * Every question is memoised for the scan, keyed by what it asks: a DNS question by name, type and
 * CD bit; a fetch by URL and options; a probe by host and address; a derived fact by the Fact
 * object itself. The first asker forks the work into the scan's scope and every asker, the first
 * included, awaits its outcome: a check that gives up (its timeout, the scan's deadline) stops
 * waiting without cancelling the work for the others, and closing the scope (the scan ends, or its
 * client went away) interrupts whatever is still running, so nothing outlives the scan.
 */
import { Deferred, Effect, FiberId, type Scope } from "effect"
import { AppConfig } from "../Config.ts"
import { type Fact, Facts, type FactsShape } from "../checks/Facts.ts"
import type { RecordType } from "../net/Dns.ts"
import { lookupsOver, normalizeName, Resolver } from "../net/Resolver.ts"
import { Smtp } from "../net/Smtp.ts"
import { Web, type WebRequestOptions } from "../net/Web.ts"

/** Memoises effects by key in `scope`: the first call forks the work, every call awaits its outcome. */
export const memoIn = (scope: Scope.Scope) => {
  const table = new Map<unknown, Deferred.Deferred<any, any>>()
  return <A, E>(key: unknown, work: () => Effect.Effect<A, E>): Effect.Effect<A, E> =>
    // The table entry and the fork happen together: an interruption between them would leave an
    // entry that nobody completes.
    Effect.uninterruptibleMask((restore) =>
      Effect.suspend(() => {
        const known = table.get(key) as Deferred.Deferred<A, E> | undefined
        if (known) return restore(Deferred.await(known))
        const done = Deferred.unsafeMake<A, E>(FiberId.none)
        table.set(key, done)
        // A fiber forked here would inherit the mask: the work itself must stay interruptible.
        return Effect.forkIn(
          Effect.interruptible(Effect.intoDeferred(Effect.suspend(work), done)),
          scope
        ).pipe(Effect.zipRight(restore(Deferred.await(done))))
      })
    )
}

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
    const query = (name: string, type: RecordType, options: { readonly checkingDisabled?: boolean } = {}) => {
      const n = normalizeName(name)
      const cd = options.checkingDisabled === true
      return memo(`dns\u0000${n}\u0000${type}\u0000${cd}`, () =>
        resolver.query(n, type, cd ? { checkingDisabled: true } : {})
      )
    }
    const lookups = lookupsOver(query, resolver.upstreams)
    const addresses = lookups.addresses
    const facts: FactsShape = {
      domain: normalizeName(domain),
      query,
      txt: lookups.txt,
      addresses,
      mx: lookups.mx,
      ptr: lookups.ptr,
      queryAt: (upstream, name, type) =>
        memo(
          `at\u0000${upstream.address}\u0000${upstream.port}\u0000${normalizeName(name)}\u0000${type}`,
          () => resolver.query(normalizeName(name), type, { upstream, fresh: true })
        ),
      fetch: (url, options = {}) =>
        memo(`fetch\u0000${fetchKey(url, options)}`, () => web.get(url, { ...options, lookup: addresses })),
      probe: (host, address) =>
        memo(`probe\u0000${normalizeName(host)}\u0000${address}`, () => smtp.probe(host, address)),
      get: <A, E>(fact: Fact<A, E>): Effect.Effect<A, E> =>
        memo(fact, () =>
          fact.compute.pipe(
            Effect.provideService(Facts, facts),
            Effect.provideService(AppConfig, config),
            Effect.withSpan(`Fact.${fact.name}`)
          )
        )
    }
    return facts
  })
