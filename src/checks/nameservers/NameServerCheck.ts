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
import type { DirectQuestion } from "../../net/NameServers.ts"
import { DirectDns } from "../../net/questions/DirectDns.ts"
import { define } from "../../kernel/Check.ts"
import { Facts, type FactsShape } from "../../kernel/Facts.ts"
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
import { NameServersReport } from "./Result.ts"

/**
 * The out-of-zone name of the recursion probe: under `.invalid` (RFC 6761 6.4), which no
 * authoritative server of ours serves, so only a recursor has anything to say about it (and sets RA).
 */
export const RECURSION_PROBE = "recursion-probe.domain-audit.invalid"

const bare = (name: string) => name.toLowerCase().replace(/\.$/, "")
const why = (e: DnsError) => `${e.reason}: ${e.message}`

const ask = (
  facts: FactsShape,
  address: string,
  name: string,
  type: RecordType,
  rd: boolean,
  tcp: boolean
) => {
  const q: DirectQuestion = { name, type, recursionDesired: rd, transport: tcp ? "tcp" : "udp" }
  return Effect.map(Effect.either(facts.ask(DirectDns, { address, question: q })), (e): Asked =>
    Either.isRight(e) ? { reply: e.right } : { failed: why(e.left) }
  )
}

/** The four questions to one address, at once (RFC 1035 4.1.1 RD; RFC 7766 TCP). */
const probeAddress = (facts: FactsShape, domain: string, address: string) =>
  Effect.map(
    Effect.all(
      [
        ask(facts, address, domain, "SOA", false, false),
        ask(facts, address, domain, "NS", false, false),
        ask(facts, address, domain, "SOA", false, true),
        ask(facts, address, RECURSION_PROBE, "A", true, false)
      ],
      { concurrency: "unbounded" }
    ),
    ([soa, ns, soaTcp, recursion]): AddressProbe => ({ address, soa, ns, soaTcp, recursion })
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

/** The zone holding `name`'s delegation: the owner of the SOA that answers (or denies) it. */
const parentZoneOf = (facts: FactsShape, domain: string) => {
  const labels = domain.split(".")
  const parent = labels.length > 1 ? labels.slice(1).join(".") : "."
  return Effect.map(Effect.either(facts.query(parent, "SOA", { checkingDisabled: true })), (e) => {
    if (Either.isLeft(e)) return null
    const soa = [...e.right.answers, ...e.right.authority].find((r) => r.type === "SOA")
    return soa ? bare(soa.name) || "." : null
  })
}

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

const gather = Effect.gen(function* () {
  const facts = yield* Facts
  const config = yield* AppConfig
  const domain = facts.domain
  const [zone, parentZone] = yield* Effect.all([nsNames(facts, domain), parentZoneOf(facts, domain)], {
    concurrency: 2
  })
  const delegation = yield* delegationOf(facts, domain, parentZone)
  const base = { domain, zone, parentZone, delegation }
  if (!("value" in zone) || zone.value === undefined)
    return { ...base, servers: [], unasked: 0 } satisfies NsInput
  const zoneHosts = zone.value
  const delegated = "value" in delegation ? delegation.value : []
  const hosts = [...new Set([...delegated, ...zoneHosts])].sort()
  const looked = yield* Effect.forEach(hosts, (host) => Effect.either(facts.addresses(host)), {
    concurrency: 4
  })
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
  const servers = yield* Effect.forEach(
    plan,
    ({ host, e, asked }) =>
      Effect.map(
        Effect.forEach(asked, (address) => probeAddress(facts, domain, address), { concurrency: 2 }),
        (probes): ServerInput => ({
          host,
          inDelegation: delegated.includes(host),
          inZone: zoneHosts.includes(host),
          addresses: Either.isRight(e) ? { value: e.right } : { failed: why(e.left) },
          probes
        })
      ),
    { concurrency: 4 }
  )
  return { ...base, servers, unasked } satisfies NsInput
})

export const NameServerCheck = define({
  id: "nameservers",
  title: "Name servers",
  category: "dns",
  result: NameServersReport,
  about,
  gather,
  analyse: (input: NsInput, now: Date) => analyse(input, now),
  exampleGathered
})
