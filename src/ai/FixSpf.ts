/**
 * The SPF fixes of `/ai/fix` (docs/ai.md): the domain's current SPF, read through the SPF check,
 * changed only where the issue asks, rebuilt by the project's SPF generator (`generate/SpfGenerator.ts`), and
 * then judged by the SPF check itself with the proposal in place of the published record. What
 * already works stays: every ip4/ip6/a/mx/include/exists term of the current record(s) is kept
 * unless the issue is that term; over the 10-lookup limit, the last terms that do not fit are
 * replaced by the networks the check's lookup graph resolved them to (`termsToFlatten`).
 */
import type { Domain } from "../records/DomainName.ts"
import { Effect, Either } from "effect"
import { analyse, Spf, type SpfResult } from "../checks/spf/Spf.ts"
import { gather as gatherGraph } from "../checks/spf/SpfGraph.ts"
import type { SpfNode } from "../checks/spf/SpfNode.ts"
import { Facts } from "../kernel/Facts.ts"
import { generate } from "../generate/SpfGenerator.ts"
import { parse, printTerm, type Mechanism } from "../records/SpfParse.ts"
import type { IssueId } from "../score/Catalogue.ts"
import { runCheck, withFacts } from "../scan/Scanner.ts"

export interface Proposal {
  /** The owner name and TXT value of the main record. */
  readonly name: string
  readonly value: string
  /** Further TXT records the main one needs, each published as its own step. */
  readonly extra: ReadonlyArray<{ readonly name: string; readonly value: string }>
  readonly changes: ReadonlyArray<string>
  readonly warnings: ReadonlyArray<string>
}

const KEPT = new Set(["ip4", "ip6", "a", "mx", "include", "exists", "ptr"])

/** Terms of the subtree that the DNS answered with nothing (RFC 7208 4.6.4 void lookups). */
const voidTerms = (node: SpfNode, out = new Set<string>()): Set<string> => {
  if (node.status === "void" && node.term !== null) out.add(node.term.toLowerCase())
  for (const c of node.children) if (node.type === "root") voidTerms(c, out)
  return out
}

/**
 * The networks a term's subtree authorises (pass), when every part of it could be resolved: what
 * replaces the term when it is flattened. undefined: something in it cannot be copied (unknown or
 * void answers, macros, exists, ptr, a mechanism that excludes), so the term stays as written.
 */
export const subtreeNetworks = (node: SpfNode): ReadonlyArray<string> | undefined => {
  if (node.status !== "ok") return undefined
  if (node.type === "a" || node.type === "mx") return node.networks
  if (node.type !== "include" && node.type !== "redirect") return undefined
  if (node.record === null) return undefined
  const out: Array<string> = []
  for (const { term } of parse(node.record).terms) {
    if (term.kind === "modifier" || term.name === "all") continue
    const m = term as Mechanism
    if (m.qualifier !== undefined && m.qualifier !== "+") return undefined
    if (m.name === "ip4" || m.name === "ip6") out.push(printTerm(m).slice(4))
  }
  for (const child of node.children) {
    const nets = subtreeNetworks(child)
    if (nets === undefined) return undefined
    out.push(...nets)
  }
  return out
}

/**
 * Which lookup terms of the top level to flatten so the record costs at most `budget` lookups
 * (RFC 7208 4.6.4): terms are kept in their order while they fit, so the first includes (usually
 * the main providers) stay includes; a term that does not fit is replaced by its networks.
 */
export const termsToFlatten = (root: SpfNode, budget: number): Map<string, ReadonlyArray<string>> => {
  const out = new Map<string, ReadonlyArray<string>>()
  let used = 0
  for (const child of root.children) {
    if (child.term === null) continue
    const nets = subtreeNetworks(child)
    if (used + child.totalLookups <= budget || nets === undefined) used += child.totalLookups
    else out.set(child.term.toLowerCase(), nets)
  }
  return out
}

/** Lookups a fix may spend: 10 (RFC 7208 4.6.4), less when the issue is being close to it. */
const LOOKUP_BUDGET: Partial<Record<IssueId, number>> = {
  // leave headroom for one more provider
  spf_lookups_near_limit: 7
}

/** The generator's input from the current record(s) and the issue. Pure. */
export const planSpf = (
  issue: IssueId,
  current: SpfResult,
  override: string | undefined,
  /** Whether the domain has mail servers (asked only when it has no SPF record). */
  hasMx = true
): { readonly input: Parameters<typeof generate>[0]; readonly changes: Array<string> } => {
  const changes: Array<string> = []
  const records = override !== undefined ? [override] : current.records.length > 0 ? current.records : []
  if (records.length > 1) changes.push(`merged the ${records.length} v=spf1 records into one`)
  const voids = issue === "spf_too_many_void_lookups" ? voidTerms(current.lookupGraph) : new Set<string>()
  // whatever the issue, the proposal must stay within the limit (the graph is the published record's)
  const budget = override === undefined ? (LOOKUP_BUDGET[issue] ?? 10) : undefined
  const flatten =
    budget === undefined
      ? new Map<string, ReadonlyArray<string>>()
      : termsToFlatten(current.lookupGraph, budget)
  const mechanisms: Array<{ type: string; value?: string }> = []
  let all: string | undefined
  for (const record of records)
    for (const { term, text } of parse(record).terms) {
      if (term.kind === "modifier") {
        // redirect=x with our own all: include:x keeps x's senders (RFC 7208 6.1 ignores redirect beside all)
        if (term.name === "redirect") {
          mechanisms.push({ type: "include", value: term.value })
          changes.push(`redirect=${term.value} became include:${term.value}`)
        }
        continue
      }
      const m = term as Mechanism
      if (m.name === "all") {
        all ??= m.qualifier ?? "+"
        continue
      }
      if (!KEPT.has(m.name)) continue
      if (m.name === "ptr" && issue === "spf_ptr_mechanism") {
        changes.push(`removed '${text}' (RFC 7208 5.5: ptr SHOULD NOT be used)`)
        continue
      }
      if (voids.has(text.toLowerCase())) {
        changes.push(`removed '${text}': its name has no records (a void lookup)`)
        continue
      }
      const nets = flatten.get(text.toLowerCase())
      if (nets !== undefined) {
        for (const n of nets) {
          // a / mx networks may come written as terms (ip4:...) or bare (address/length)
          const bare = n.replace(/^ip[46]:/i, "")
          mechanisms.push({ type: bare.includes(":") ? "ip6" : "ip4", value: bare })
        }
        changes.push(
          `'${text}' (${nets.length} network${nets.length === 1 ? "" : "s"}) listed directly instead of looked up`
        )
        continue
      }
      if (m.qualifier !== undefined && m.qualifier !== "+") {
        changes.push(`dropped '${text}': the generator lists senders, it does not exclude them`)
        continue
      }
      const printed = printTerm({ ...m, qualifier: undefined })
      const colon = printed.indexOf(":")
      const slash = printed.search(/\//)
      const mechanism =
        colon < 0 && slash < 0
          ? { type: m.name }
          : { type: m.name, value: colon < 0 ? printed.slice(m.name.length) : printed.slice(colon + 1) }
      // a term the generator refuses (the syntax errors of spf_invalid) is dropped, with its reason
      const alone = generate({ mechanisms: [mechanism] })
      if (Either.isLeft(alone)) changes.push(`removed '${text}': ${alone.left.message}`)
      else mechanisms.push(mechanism)
    }
  if (records.length === 0 && hasMx) {
    mechanisms.push({ type: "mx" })
    changes.push("no SPF record: authorised the domain's mail servers (mx)")
  }
  // a domain without mail servers sends no mail: say so (RFC 7208 10.1.2)
  if (records.length === 0 && !hasMx)
    changes.push("no SPF record and no MX: -all, nothing may send as the domain")
  // the policy: -all when asked for, never +all or ?all; otherwise what the domain had
  const policy =
    issue === "spf_softfail_all" || all === "-" || (records.length === 0 && !hasMx) ? "-all" : "~all"
  if (all !== undefined && `${all}all` !== policy) changes.push(`'${all}all' became '${policy}'`)
  return { input: { mechanisms, policy, domain: current.domain }, changes }
}

/** The SPF check's verdict on `proposal` published in place of the domain's SPF (other DNS live). */
export const judgeSpf = (domain: Domain, proposal: Proposal) =>
  withFacts(
    domain,
    Effect.gen(function* () {
      const facts = yield* Facts
      const published = new Map([
        [proposal.name, proposal.value],
        ...proposal.extra.map((r) => [r.name, r.value] as const)
      ])
      const txt = (name: string) => {
        const value = published.get(name.toLowerCase().replace(/\.$/, ""))
        if (value === undefined) return facts.txt(name)
        // the other TXT records at the name stay; its SPF is replaced by the proposal
        return facts.txt(name).pipe(
          Effect.orElseSucceed(() => [] as ReadonlyArray<string>),
          Effect.map((all) => [...all.filter((t) => !/^v=spf1(\s|$)/i.test(t)), value])
        )
      }
      const fetch = yield* gatherGraph({ txt, addresses: facts.addresses, mx: facts.mx }, domain)
      const result = analyse(domain, fetch)
      return { valid: result.valid, lookups: result.lookups, policy: result.policy, issues: result.issues }
    })
  )

/** The proposal for an SPF issue, or the generator's reason why none can be built. */
export const proposeSpf = (issue: IssueId, domain: Domain, override: string | undefined) =>
  Effect.gen(function* () {
    const current = yield* runCheck(Spf, domain)
    // a record that could not be read is not a missing one: nothing is proposed over it
    if (override === undefined && current.status === "unknown" && current.records.length === 0)
      return Either.left(`the SPF record of ${domain} could not be read; retry later`) as Either.Either<
        Proposal,
        string
      >
    const hasMx =
      current.records.length > 0 || override !== undefined
        ? true
        : yield* withFacts(
            domain,
            Effect.flatMap(Facts, (facts) => facts.mx(domain)).pipe(
              Effect.map((mx) => mx.some((m) => m.exchange !== "")),
              // unknown: assume mail is sent, the safer reading for a new record
              Effect.orElseSucceed(() => true)
            )
          )
    const { input, changes } = planSpf(issue, current, override, hasMx)
    return Either.mapBoth(generate(input), {
      onLeft: (e) => e.message,
      onRight: (g): Proposal => ({ name: domain, value: g.record, extra: [], changes, warnings: g.warnings })
    })
  })
