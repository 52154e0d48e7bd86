/**
 * What a domain depends on: every other domain its records name (the NS and MX hosts, SPF
 * include and redirect targets, DMARC and TLS-RPT report addresses, the hosts of its BIMI logo and
 * certificate, the targets of its CNAMEs), each reduced to its registrable domain (the public
 * suffix list, as DMARC's organisational domain) with the uses that make it one. Whoever controls
 * one of them can send mail as the domain, read its reports or serve its site: a dependency that
 * expires or is not registered at all can be bought by anybody.
 *
 * A derived fact over the results of the SPF, DMARC, MTA-STS and BIMI checks (read, not asked again)
 * and a few DNS questions of its own: the NS set and the CNAMEs at the names that carry the domain's
 * web site and policies. `dependenciesOf` is the pure part.
 */
import { Effect, Either, Schema } from "effect"
import type { DnsAnswer, DnsError } from "../../net/DnsTypes.ts"
import { organisationalDomainOf } from "../../records/DmarcRecord.ts"
import { isUnder } from "../../records/ListedNames.ts"
import { Nullable, Strings } from "../../records/Schemas.ts"
import { Bimi, type BimiResult } from "../bimi/Bimi.ts"
import { needAll } from "../../kernel/Check.ts"
import { Dmarc, type DmarcResult } from "../dmarc/Dmarc.ts"
import { Fact, Facts } from "../../kernel/Facts.ts"
import { MtaSts, type MtaStsResult } from "../mta-sts/MtaSts.ts"
import { Spf, type SpfResult } from "../spf/Spf.ts"
import type { SpfNode } from "../spf/SpfNode.ts"
import { bareHost, MailServers } from "../../kernel/MailServers.ts"

export const DependencyReasons = [
  "NS host",
  "MX host",
  "SPF include",
  "SPF redirect",
  "DMARC rua",
  "DMARC ruf",
  "TLS-RPT rua",
  "CNAME target",
  "BIMI host"
] as const
export const DependencyReason = Schema.Literal(...DependencyReasons)
export type DependencyReason = typeof DependencyReason.Type

/** One use of a dependency: why the domain depends on it, and the name that says so. */
export const DependencyUse = Schema.Struct({
  reason: DependencyReason,
  name: Schema.String,
  /**
   * For a `CNAME target` reached from a name the owner listed (`names=`): that name. Absent for the
   * names every scan probes (the apex, www, mta-sts, BIMI hosts), so their maps read as before.
   */
  alias: Schema.optional(Schema.String)
})
export type DependencyUse = typeof DependencyUse.Type

export const Dependency = Schema.Struct({
  /** The registrable domain (public suffix list). */
  domain: Schema.String,
  uses: Schema.Array(DependencyUse)
})
export type Dependency = typeof Dependency.Type

/** What DNS says at a name that may be a CNAME: the chain followed and where it ends. */
export const CnameProbe = Schema.Struct({
  name: Schema.String,
  /** The CNAME targets in order (RFC 1034 3.6.2); empty when the name is not an alias. */
  chain: Strings,
  /** How the last name answered: `nxdomain` at the end of a chain is a dangling alias. */
  outcome: Schema.Literal("answer", "nodata", "nxdomain", "unknown"),
  reason: Nullable(Schema.String)
})
export type CnameProbe = typeof CnameProbe.Type

export interface DependencyFacts {
  readonly domain: string
  /** The scanned domain's own registrable domain. */
  readonly registrable: string
  readonly dependencies: ReadonlyArray<Dependency>
  /**
   * The names probed for CNAMEs: the apex, www, mta-sts and the BIMI hosts under the domain, then
   * the names its owner listed (`Facts.names`).
   */
  readonly cnames: ReadonlyArray<CnameProbe>
  /** The names its owner listed (`names=`), as probed; [] when none were. */
  readonly listed: ReadonlyArray<string>
}

/** The host of an address: `mailto:a@host`, `https://host/...`, or a bare host name. */
export const hostOf = (uri: string): string | null => {
  const mail = /^mailto:[^@]*@([^!?,\s]+)/i.exec(uri)
  if (mail) return bareHost(mail[1]!)
  try {
    const url = new URL(uri)
    return url.hostname === "" ? null : bareHost(url.hostname)
  } catch {
    return null
  }
}

/** A name that can be a dependency: a host name with a dot, no SPF macro (RFC 7208 7). */
const usable = (name: string | null | undefined): name is string =>
  typeof name === "string" && name.includes(".") && !name.includes("%") && /^[a-z0-9._-]+$/i.test(name)

const spfUses = (node: SpfNode, out: Array<DependencyUse>, depth = 0): void => {
  if (depth > 12) return
  if ((node.type === "include" || node.type === "redirect") && usable(node.domain))
    out.push({
      reason: node.type === "include" ? "SPF include" : "SPF redirect",
      name: bareHost(node.domain)
    })
  for (const child of node.children) spfUses(child, out, depth + 1)
}

export interface DependencyInput {
  readonly domain: string
  readonly ns: ReadonlyArray<string>
  readonly mx: ReadonlyArray<string>
  readonly spf: Pick<SpfResult, "lookupGraph"> | null
  readonly dmarc: Pick<DmarcResult, "reportDestinations"> | null
  readonly mtaSts: { readonly tlsRpt: Pick<MtaStsResult["tlsRpt"], "rua"> } | null
  readonly bimi: Pick<BimiResult, "logoUrl" | "authorityUrl"> | null
  readonly cnames: ReadonlyArray<CnameProbe>
  /** The names of `cnames` that the owner listed: their targets' uses name them (`alias`). */
  readonly listed?: ReadonlyArray<string>
}

/** Every other registrable domain the domain's records name, with the uses of each (pure). */
export const dependenciesOf = (input: DependencyInput): ReadonlyArray<Dependency> => {
  const uses: Array<DependencyUse> = []
  for (const ns of input.ns) uses.push({ reason: "NS host", name: bareHost(ns) })
  for (const mx of input.mx) uses.push({ reason: "MX host", name: bareHost(mx) })
  if (input.spf) spfUses(input.spf.lookupGraph, uses)
  for (const d of input.dmarc?.reportDestinations ?? [])
    if (d.domain !== null)
      uses.push({ reason: d.kind === "rua" ? "DMARC rua" : "DMARC ruf", name: bareHost(d.domain) })
  for (const rua of input.mtaSts?.tlsRpt.rua ?? []) {
    const host = hostOf(rua)
    if (host !== null) uses.push({ reason: "TLS-RPT rua", name: host })
  }
  for (const url of [input.bimi?.logoUrl, input.bimi?.authorityUrl]) {
    const host = url ? hostOf(url) : null
    if (host !== null) uses.push({ reason: "BIMI host", name: host })
  }
  const listed = new Set(input.listed ?? [])
  for (const probe of input.cnames)
    for (const target of probe.chain)
      uses.push(
        listed.has(probe.name)
          ? { reason: "CNAME target", name: target, alias: probe.name }
          : { reason: "CNAME target", name: target }
      )
  const self = organisationalDomainOf(bareHost(input.domain))
  const byDomain = new Map<string, Array<DependencyUse>>()
  for (const use of uses) {
    if (!usable(use.name)) continue
    const registrable = organisationalDomainOf(use.name)
    if (registrable === self || !registrable.includes(".")) continue
    const list = byDomain.get(registrable) ?? []
    if (!list.some((u) => u.reason === use.reason && u.name === use.name && u.alias === use.alias))
      list.push(use)
    byDomain.set(registrable, list)
  }
  return [...byDomain.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([domain, list]) => ({ domain, uses: list }))
}

/** The CNAME chain at `name` and how its end answered, from one A question (RFC 1034 3.6.2). */
export const cnameProbeOf = (name: string, answer: Either.Either<DnsAnswer, DnsError>): CnameProbe => {
  if (Either.isLeft(answer))
    return { name, chain: [], outcome: "unknown", reason: `${answer.left.reason}: ${answer.left.message}` }
  const chain: Array<string> = []
  let current = bareHost(name)
  // Bounded: a resolver follows at most a handful of aliases, and a loop must not spin here.
  for (let hop = 0; hop < 16; hop++) {
    const next = answer.right.answers.find((r) => r.type === "CNAME" && bareHost(r.name) === current)
    if (!next) break
    current = bareHost(String(next.data))
    if (chain.includes(current)) break
    chain.push(current)
  }
  return { name: bareHost(name), chain, outcome: answer.right.outcome, reason: null }
}

/**
 * The names whose CNAMEs a takeover would use: the web site, www, the MTA-STS host, BIMI hosts,
 * then the names the owner listed (`listed`; one outside the domain is not its risk and is left out).
 */
export const probedNames = (
  domain: string,
  bimi: Pick<BimiResult, "logoUrl" | "authorityUrl"> | null,
  listed: ReadonlyArray<string> = []
) => {
  const names = [domain, `www.${domain}`, `mta-sts.${domain}`]
  for (const url of [bimi?.logoUrl, bimi?.authorityUrl]) {
    const host = url ? hostOf(url) : null
    if (host !== null && isUnder(domain, host)) names.push(host)
  }
  for (const name of listed) if (isUnder(domain, bareHost(name))) names.push(bareHost(name))
  return [...new Set(names)]
}

export const Dependencies = Fact.define(
  "dependencies",
  Effect.gen(function* () {
    const facts = yield* Facts
    const domain = facts.domain
    const { spf, dmarc, mtaSts, bimi } = yield* needAll({
      spf: Spf,
      dmarc: Dmarc,
      mtaSts: MtaSts,
      bimi: Bimi
    })
    const names = probedNames(domain, bimi, facts.names)
    const listed = facts.names.map(bareHost).filter((name) => isUnder(domain, name))
    const answers = yield* facts.queryEach(
      [{ name: domain, type: "NS" as const }, ...names.map((name) => ({ name, type: "A" as const }))],
      { concurrency: 4 }
    )
    const [nsAnswer, ...aAnswers] = answers
    const ns =
      nsAnswer !== undefined && Either.isRight(nsAnswer)
        ? nsAnswer.right.answers.filter((r) => r.type === "NS").map((r) => String(r.data))
        : []
    const servers = yield* facts.get(MailServers)
    const cnames = names.map((name, i) => cnameProbeOf(name, aAnswers[i]!))
    const dependencies = dependenciesOf({
      domain,
      ns,
      mx: servers.hosts.filter((h) => !h.implicit).map((h) => h.host),
      spf,
      dmarc,
      mtaSts,
      bimi,
      cnames,
      listed
    })
    return {
      domain,
      registrable: organisationalDomainOf(domain),
      dependencies,
      cnames,
      listed
    } satisfies DependencyFacts
  })
)
