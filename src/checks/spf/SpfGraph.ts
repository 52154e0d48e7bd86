/**
 * The SPF lookup graph, network half: `gather` walks a domain's SPF record and every record it
 * reaches through include / redirect, asking the DNS what a / mx / exists terms point at. The pure
 * half (SpfWalk.walk) turns the gathered facts into the `lookupGraph` with the RFC 7208 4.6.4
 * counts (DNS-querying terms, limit 10; void lookups, limit 2) and what the flattener needs.
 *
 * Terms are evaluated as check_host() would reach them: terms after `all` are never evaluated and
 * `redirect` is ignored when the record has an `all` (6.1), so neither is followed nor counted.
 * Terms whose target depends on the message (macros other than %{d}) are counted but not followed.
 */
import { type Domain, normaliseName } from "../../records/DomainName.ts"
import { Effect, Either } from "effect"
import type { DnsError } from "../../net/DnsTypes.ts"
import { parse, selectSpf, type Located, type ParsedSpf, type Term } from "../../records/SpfParse.ts"
import { forEachConcurrently } from "../../kernel/Each.ts"

/** The DNS questions SPF asks: shaped like the Resolver's `txt`, `addresses` and `mx`. */
export interface SpfDns {
  readonly txt: (name: string) => Effect.Effect<ReadonlyArray<string>, DnsError>
  readonly addresses: (
    host: string
  ) => Effect.Effect<{ readonly v4: ReadonlyArray<string>; readonly v6: ReadonlyArray<string> }, DnsError>
  readonly mx: (
    domain: string
  ) => Effect.Effect<ReadonlyArray<{ readonly priority: number; readonly exchange: string }>, DnsError>
}

export type Outcome<A> =
  | { readonly ok: true; readonly value: A }
  | { readonly ok: false; readonly reason: string; readonly message: string }

export interface Addresses {
  readonly v4: ReadonlyArray<string>
  readonly v6: ReadonlyArray<string>
}

/** What the DNS said for one term of a record. */
export type TermFacts =
  | { readonly kind: "spf"; readonly fetch: SpfFetch }
  | { readonly kind: "skipped"; readonly reason: SkipReason; readonly target: string | null }
  | { readonly kind: "addresses"; readonly target: string; readonly result: Outcome<Addresses> }
  | {
      readonly kind: "mx"
      readonly target: string
      readonly result: Outcome<ReadonlyArray<{ readonly priority: number; readonly exchange: string }>>
      readonly hosts: ReadonlyArray<{ readonly host: string; readonly result: Outcome<Addresses> }>
    }

export type SkipReason = "loop" | "depth" | "macro" | "budget" | "invalid" | "not-evaluated"

/** One SPF record fetch: the TXT set at `domain` and, per evaluated term index, its facts. */
export interface SpfFetch {
  readonly domain: string
  readonly txt: Outcome<ReadonlyArray<string>>
  readonly terms: ReadonlyArray<TermFacts | undefined>
}

export interface GraphLimits {
  /** Include / redirect nesting depth followed (a real evaluation stops at 10 lookups anyway). */
  readonly maxDepth: number
  /** DNS-querying terms followed in one walk, so a hostile graph cannot make us do unbounded work. */
  readonly maxQueries: number
}
export const DefaultLimits: GraphLimits = { maxDepth: 12, maxQueries: 60 }

/**
 * RFC 7208 section 7.3 for the one macro known without a message: `%{d}` (the current domain) with
 * its transformers, plus the `%%`, `%_`, `%-` escapes. Returns undefined if any other macro is used.
 */
export const expandStatic = (spec: string, domain: string): string | undefined => {
  let unknown = false
  const out = substituteDomain(spec, domain, () => {
    unknown = true
    return ""
  })
  return unknown ? undefined : out
}

/** Replaces `%{d...}` by its expansion; other macros go through `other` (default: kept as written). */
export const substituteDomain = (
  spec: string,
  domain: string,
  other: (macro: string) => string = (m) => m
): string =>
  spec.replace(
    /%\{([a-zA-Z])([0-9]*)(r?)([.\-+,/_=]*)\}|%%|%_|%-/gi,
    (whole, letter, digits, rev, delims) => {
      if (whole === "%%") return "%"
      if (whole === "%_") return " "
      if (whole === "%-") return "%20"
      if (String(letter).toLowerCase() !== "d") return other(whole)
      const splitOn = delims === "" ? "." : String(delims)
      let parts = domain.split(new RegExp(`[${splitOn.replace(/[-\]\\^]/g, "\\$&")}]`))
      if (rev !== "") parts = parts.reverse()
      if (digits !== "") parts = parts.slice(Math.max(0, parts.length - Number(digits)))
      return parts.join(".")
    }
  )

const outcome = <A>(effect: Effect.Effect<A, DnsError>): Effect.Effect<Outcome<A>> =>
  Effect.either(effect).pipe(
    Effect.map((e): Outcome<A> =>
      Either.isRight(e)
        ? { ok: true, value: e.right }
        : { ok: false, reason: e.left.reason, message: e.left.message }
    )
  )

/** Indices of the terms check_host() can reach: up to the first `all`, then `redirect` if no `all`. */
export const evaluatedTerms = (parsed: ParsedSpf): Array<number> => {
  const out: Array<number> = []
  let sawAll = false
  parsed.terms.forEach((t, i) => {
    if (t.term.kind === "mechanism" && !sawAll) {
      out.push(i)
      if (t.term.name === "all") sawAll = true
    }
  })
  if (!sawAll) {
    const redirect = parsed.terms.findIndex((t) => t.term.kind === "modifier" && t.term.name === "redirect")
    if (redirect >= 0) out.push(redirect)
  }
  return out
}

/** The target a term queries, after %{d} expansion; `null` when the term queries nothing. */
export const termTarget = (term: Term, domain: string): string | null | undefined => {
  if (term.kind === "modifier") {
    if (term.name !== "redirect") return null
    const t = expandStatic(term.value, domain)
    return t === undefined ? undefined : normaliseName(t)
  }
  switch (term.name) {
    case "all":
    case "ip4":
    case "ip6":
      return null
    default: {
      if (term.domain === undefined) return domain
      const t = expandStatic(term.domain, domain)
      return t === undefined ? undefined : normaliseName(t)
    }
  }
}

/** RFC 7208 4.6.4: the terms that cost one DNS lookup each. */
export const costsLookup = (term: Term): boolean =>
  term.kind === "modifier"
    ? term.name === "redirect"
    : term.name !== "all" && term.name !== "ip4" && term.name !== "ip6"

/**
 * Walks the SPF graph from `domain`, following include and redirect, resolving a / mx / exists
 * targets. Never fails: DNS failures are kept as `Outcome`s (unknown, not missing).
 */
export const gather = (
  dns: SpfDns,
  domain: Domain,
  limits: GraphLimits = DefaultLimits
): Effect.Effect<SpfFetch> => {
  let budget = limits.maxQueries
  const take = (n = 1) => {
    if (budget <= 0) return false
    budget -= n
    return true
  }

  const fetch = (name: string, ancestors: ReadonlyArray<string>, depth: number): Effect.Effect<SpfFetch> =>
    Effect.gen(function* () {
      const txt = yield* outcome(dns.txt(name))
      if (!txt.ok) return { domain: name, txt, terms: [] }
      const selected = selectSpf(txt.value)
      if (selected._tag !== "one") return { domain: name, txt, terms: [] }
      const parsed = parse(selected.record)
      const terms: Array<TermFacts | undefined> = parsed.terms.map(() => undefined)
      const chain = [...ancestors, name]
      yield* forEachConcurrently(
        evaluatedTerms(parsed),
        (index) =>
          termFacts(parsed.terms[index]!, name, chain, depth).pipe(
            Effect.map((facts) => {
              terms[index] = facts
            })
          ),
        4
      )
      return { domain: name, txt, terms }
    })

  const termFacts = (
    located: Located<Term>,
    current: string,
    chain: ReadonlyArray<string>,
    depth: number
  ): Effect.Effect<TermFacts | undefined> => {
    const term = located.term
    if (!costsLookup(term)) return Effect.succeed(undefined)
    const target = termTarget(term, current)
    const skip = (reason: SkipReason, t: string | null = target ?? null) =>
      Effect.succeed<TermFacts>({ kind: "skipped", reason, target: t })
    if (target === undefined) return skip("macro")
    if (target === null) return Effect.succeed(undefined)
    const follows = term.kind === "modifier" || term.name === "include"
    if (follows) {
      if (chain.includes(target)) return skip("loop")
      if (depth >= limits.maxDepth) return skip("depth")
    }
    if (term.kind === "mechanism" && term.name === "ptr") return skip("not-evaluated")
    if (!take()) return skip("budget")
    if (follows) {
      return fetch(target, chain, depth + 1).pipe(Effect.map((f): TermFacts => ({ kind: "spf", fetch: f })))
    }
    if (term.kind === "mechanism" && term.name === "mx") {
      return Effect.gen(function* () {
        const result = yield* outcome(dns.mx(target))
        const exchanges = result.ok ? result.value.filter((m) => m.exchange !== "").slice(0, 10) : []
        const hosts = yield* forEachConcurrently(
          exchanges,
          (m) =>
            outcome(dns.addresses(m.exchange)).pipe(Effect.map((r) => ({ host: m.exchange, result: r }))),
          4
        )
        return { kind: "mx", target, result, hosts } satisfies TermFacts
      })
    }
    return outcome(dns.addresses(target)).pipe(
      Effect.map((result): TermFacts => ({ kind: "addresses", target, result }))
    )
  }

  return fetch(domain, [], 0)
}
