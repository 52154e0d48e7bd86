/**
 * The name servers, as Zonemaster tests them (docs/nameservers.md). `gather` reads the zone's NS
 * set through the resolver, the parent's delegation from one of the parent zone's servers, and
 * then asks every address of every name server (up to NS_MAX_ADDRESSES) four questions itself:
 * the zone's SOA and NS without recursion over UDP, the SOA over TCP, and a name outside the zone
 * with recursion desired. `analyse` (Analyse.ts) gives the verdicts.
 */
import { Effect, Either } from "effect"
import { AppConfig } from "../../Config.ts"
import type { DnsError, RecordType } from "../../net/DnsTypes.ts"
import type { DirectQuestion, DirectReply } from "../../net/NameServers.ts"
import { DirectDns } from "../../net/questions/DirectDns.ts"
import { define } from "../../kernel/Check.ts"
import { addressQuestions, Facts, type FactsShape } from "../../kernel/Facts.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import {
  type AddressProbe,
  analyse,
  type Asked,
  type Looked,
  type NsInput,
  type ServerInput
} from "./Analyse.ts"

/**
 * The out-of-zone name of the recursion probe: under `.invalid` (RFC 6761 6.4), which no
 * authoritative server of ours serves, so only a recursor has anything to say about it (and sets RA).
 */
export const RECURSION_PROBE = "recursion-probe.domain-audit.invalid"

const bare = (name: string) => name.toLowerCase().replace(/\.$/, "")
const why = (e: DnsError) => `${e.reason}: ${e.message}`

const asked = (e: Either.Either<DirectReply, DnsError>): Asked =>
  Either.isRight(e) ? { reply: e.right } : { failed: why(e.left) }

const directQuestion = (name: string, type: RecordType, rd: boolean, tcp: boolean): DirectQuestion => ({
  name,
  type,
  recursionDesired: rd,
  transport: tcp ? "tcp" : "udp"
})

const ask = (facts: FactsShape, address: string, name: string, type: RecordType, rd: boolean, tcp: boolean) =>
  Effect.map(
    Effect.either(facts.ask(DirectDns, { address, question: directQuestion(name, type, rd, tcp) })),
    asked
  )

/**
 * The four questions to one address (RFC 1035 4.1.1 RD; RFC 7766 TCP), started now; the effect
 * returned awaits them in turn. Started, not `Effect.all` with a concurrency: that forks a fiber
 * per question that only waits, beside the question's own (docs/bench.md, the batch).
 */
const startProbe = (facts: FactsShape, domain: string, address: string) =>
  Effect.map(
    Effect.all([
      facts.startAsk(DirectDns, { address, question: directQuestion(domain, "SOA", false, false) }),
      facts.startAsk(DirectDns, { address, question: directQuestion(domain, "NS", false, false) }),
      facts.startAsk(DirectDns, { address, question: directQuestion(domain, "SOA", false, true) }),
      facts.startAsk(DirectDns, { address, question: directQuestion(RECURSION_PROBE, "A", true, false) })
    ]),
    (answers) =>
      Effect.map(
        Effect.forEach(answers, (answer) => Effect.map(Effect.either(answer), asked)),
        ([soa, ns, soaTcp, recursion]): AddressProbe => ({
          address,
          soa: soa!,
          ns: ns!,
          soaTcp: soaTcp!,
          recursion: recursion!
        })
      )
  )

/**
 * With CD set (RFC 4035 3.2.2): a zone whose DNSSEC is bogus still has name servers to judge, and
 * judging its signatures is the DNSSEC check's business.
 */
const nsNames = (facts: FactsShape, name: string) =>
  Effect.map(Effect.either(facts.query(name, "NS", { checkingDisabled: true })), (e) =>
    Either.isLeft(e)
      ? ({ failed: why(e.left) } as const)
      : e.right.outcome === "answer"
        ? { value: e.right.answers.filter((r) => r.type === "NS").map((r) => bare(String(r.data))) }
        : ({ absent: e.right.outcome } as const)
  )

/** The name whose SOA names the zone holding `domain`'s delegation: its parent. */
const parentOf = (domain: string) => {
  const labels = domain.split(".")
  return labels.length > 1 ? labels.slice(1).join(".") : "."
}

/** The zone holding `name`'s delegation: the owner of the SOA that answers (or denies) it. */
const parentZoneOf = (facts: FactsShape, domain: string) =>
  Effect.map(Effect.either(facts.query(parentOf(domain), "SOA", { checkingDisabled: true })), (e) => {
    if (Either.isLeft(e)) return null
    const soa = [...e.right.answers, ...e.right.authority].find((r) => r.type === "SOA")
    return soa ? bare(soa.name) || "." : null
  })

/**
 * The delegation: the NS set one of the parent zone's servers hands out for the domain, asked
 * without recursion (RFC 1034 4.3.2: a referral's authority section). A server that also serves the
 * child answers from the child instead: what it says is still what resolvers starting there get.
 */
const delegationOf = (facts: FactsShape, domain: string, parentZone: string | null) =>
  Effect.gen(function* () {
    if (parentZone === null) return { failed: "the parent zone is unknown" } satisfies Looked<never>
    const parents = yield* nsNames(facts, parentZone)
    if (!("value" in parents))
      return { failed: `the parent zone's name servers are unknown` } satisfies Looked<never>
    let last = "no parent server answered"
    for (const host of parents.value.slice(0, 3)) {
      const addresses = yield* Effect.either(facts.addresses(host))
      if (Either.isLeft(addresses)) continue
      for (const address of [...addresses.right.v4, ...addresses.right.v6].slice(0, 2)) {
        const asked = yield* ask(facts, address, domain, "NS", false, false)
        if ("failed" in asked) {
          last = asked.failed
          continue
        }
        const r = asked.reply
        const ns = [...r.answers, ...r.authority].filter((x) => x.type === "NS" && bare(x.name) === domain)
        if (r.rcode === "NOERROR" && ns.length > 0) return { value: ns.map((x) => bare(String(x.data))) }
        last = `${host} (${address}) answered ${r.rcode} without a delegation`
      }
    }
    return { failed: last } satisfies Looked<never>
  })

// What it waits on at once is started first, then awaited in turn in the check's own fiber: DNS
// questions prefetched, the direct questions started (docs/architecture.md, "A check").
const gather = Effect.gen(function* () {
  const facts = yield* Facts
  const config = yield* AppConfig
  const domain = facts.domain
  yield* facts.prefetch([
    { name: domain, type: "NS", checkingDisabled: true },
    { name: parentOf(domain), type: "SOA", checkingDisabled: true }
  ])
  const zone = yield* nsNames(facts, domain)
  const parentZone = yield* parentZoneOf(facts, domain)
  const delegation = yield* delegationOf(facts, domain, parentZone)
  const base = { domain, zone, parentZone, delegation }
  if (!("value" in zone) || zone.value === undefined)
    return { ...base, servers: [], unasked: 0 } satisfies NsInput
  const zoneHosts = zone.value
  const delegated = "value" in delegation ? delegation.value : []
  const hosts = [...new Set([...delegated, ...zoneHosts])].sort()
  yield* facts.prefetch(hosts.flatMap(addressQuestions))
  const looked = yield* Effect.forEach(hosts, (host) => Effect.either(facts.addresses(host)))
  let budget = Math.max(1, config.nsMaxAddresses)
  let unasked = 0
  const plan = hosts.map((host, i) => {
    const e = looked[i]!
    const all = Either.isRight(e) ? [...e.right.v4, ...e.right.v6] : []
    const asked = all.slice(0, Math.max(0, budget))
    budget -= asked.length
    unasked += all.length - asked.length
    return { host, e, asked }
  })
  // Every address's questions at once (at most NS_MAX_ADDRESSES addresses, four questions each).
  const probing = yield* Effect.forEach(plan, ({ asked }) =>
    Effect.forEach(asked, (address) => startProbe(facts, domain, address))
  )
  const servers = yield* Effect.forEach(plan, ({ host, e }, i) =>
    Effect.map(Effect.all(probing[i]!), (probes): ServerInput => ({
      host,
      inDelegation: delegated.includes(host),
      inZone: zoneHosts.includes(host),
      addresses: Either.isRight(e) ? { value: e.right } : { failed: why(e.left) },
      probes
    }))
  )
  return { ...base, servers, unasked } satisfies NsInput
})

export const NameServerCheck = define(about, { gather, analyse, exampleGathered })
