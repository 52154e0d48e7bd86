/**
 * The name-server verdicts, pure and total: from what the parent, the resolver and each name
 * server's addresses answered (`NsInput`) to the report (Result.ts). Each verdict follows the
 * Zonemaster test case named beside it (docs/nameservers.md maps ours to their message tags).
 */
import type { DirectReply } from "../../net/NameServers.ts"
import type { SoaData } from "../../records/DnsRdata.ts"
import { type CheckStatus, worstOf } from "../../kernel/Status.ts"
import type { NameServersReport, NsAddressResult, NsServerResult, NsVerdict } from "./Result.ts"

export const CITATION_URL = "https://www.rfc-editor.org/rfc/rfc2182#section-3"
export const DESCRIPTION =
  "The domain's name servers, each asked directly: at least two, in different networks, each answering " +
  "authoritatively with the same serial and the parent's NS set, reachable over IPv6 and TCP, and none " +
  "recursing for strangers."

/** A question's outcome: the reply, or why there was none (a timeout or a network failure: unknown). */
export type Asked = { readonly reply: DirectReply } | { readonly failed: string }

/** A look-up through the resolver: the values, or why it failed. */
export type Looked<A> = { readonly value: A } | { readonly failed: string }

export interface AddressProbe {
  readonly address: string
  /** SOA of the zone over UDP, RD clear. */
  readonly soa: Asked
  /** NS of the zone over UDP, RD clear. */
  readonly ns: Asked
  /** SOA of the zone over TCP, RD clear. */
  readonly soaTcp: Asked
  /** A name outside the zone over UDP, RD set. */
  readonly recursion: Asked
}

export interface ServerInput {
  readonly host: string
  readonly inDelegation: boolean
  readonly inZone: boolean
  readonly addresses: Looked<{ readonly v4: ReadonlyArray<string>; readonly v6: ReadonlyArray<string> }>
  /** The addresses asked (every address, up to the scan's bound). */
  readonly probes: ReadonlyArray<AddressProbe>
}

export interface NsInput {
  readonly domain: string
  /** The zone's own NS set through the resolver; `nxdomain` / `nodata` when it has none. */
  readonly zone: Looked<ReadonlyArray<string>> | { readonly absent: "nxdomain" | "nodata" }
  readonly parentZone: string | null
  /** The NS set the parent's servers hand out for the domain. */
  readonly delegation: Looked<ReadonlyArray<string>>
  readonly servers: ReadonlyArray<ServerInput>
  /** Addresses left unasked by NS_MAX_ADDRESSES. */
  readonly unasked: number
}

const bare = (name: string) => name.toLowerCase().replace(/\.$/, "")
const sortedSet = (names: ReadonlyArray<string>) => [...new Set(names.map(bare))].sort()
const sameSet = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => {
  const x = sortedSet(a)
  const y = sortedSet(b)
  return x.length === y.length && x.every((n, i) => n === y[i])
}
const verdict = (status: CheckStatus, message: string): NsVerdict => ({ status, message })

/** The IPv4 /24 of an address (RFC 2182 3.1: servers on one network share its failures). */
export const v4Prefix = (address: string): string => `${address.split(".").slice(0, 3).join(".")}.0/24`

/** The IPv6 /48 of an address, the usual size of one site's allocation. */
export const v6Prefix = (address: string): string => {
  const [head = "", tail = ""] = address.toLowerCase().split("::")
  const left = head === "" ? [] : head.split(":")
  const right = tail === "" ? [] : tail.split(":")
  const groups = address.includes("::")
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left
  return `${groups
    .slice(0, 3)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/48`
}

const familyOf = (address: string): 4 | 6 => (address.includes(":") ? 6 : 4)

const isZoneSoa = (reply: DirectReply, domain: string) =>
  reply.answers.some((r) => r.type === "SOA" && bare(r.name) === domain)

/** RFC 1912 2.8 (lame delegation), RFC 7766 5, RFC 5358: the answers of one address. */
export const analyseAddress = (domain: string, probe: AddressProbe): NsAddressResult => {
  const family = familyOf(probe.address)
  const soa = "reply" in probe.soa ? probe.soa.reply : null
  const authoritative = soa === null ? null : soa.rcode === "NOERROR" && soa.aa && isZoneSoa(soa, domain)
  const soaRecord = soa?.answers.find((r) => r.type === "SOA" && bare(r.name) === domain)
  const serial = authoritative && soaRecord ? (soaRecord.data as SoaData).serial : null
  const ns = "reply" in probe.ns ? probe.ns.reply : null
  const nameServers =
    ns !== null && ns.aa && ns.rcode === "NOERROR"
      ? sortedSet(ns.answers.filter((r) => r.type === "NS").map((r) => String(r.data)))
      : null
  // Any reply over TCP, whatever its rcode, is TCP answered (its authority is the SOA question's
  // business); a connection refused or closed unanswered is no TCP; a timeout is unknown.
  const tcp =
    "reply" in probe.soaTcp ? true : /timeout|no TCP reply within/.test(probe.soaTcp.failed) ? null : false
  const openRecursion = "reply" in probe.recursion ? probe.recursion.reply.ra : null
  const problems: Array<string> = []
  if (authoritative === false)
    problems.push(
      soa!.rcode !== "NOERROR"
        ? `answered ${soa!.rcode} for the zone (lame)`
        : soa!.aa
          ? "answered without the zone's SOA (lame)"
          : "answered without authority (AA clear: lame)"
    )
  if (tcp === false) problems.push("does not answer over TCP")
  if (openRecursion === true) problems.push("recurses for anyone (open resolver)")
  const unknowns: Array<string> = []
  if ("failed" in probe.soa) unknowns.push(`SOA: ${probe.soa.failed}`)
  if (tcp === null && "failed" in probe.soaTcp) unknowns.push(`TCP: ${probe.soaTcp.failed}`)
  if ("failed" in probe.recursion) unknowns.push(`recursion: ${probe.recursion.failed}`)
  const status: CheckStatus = problems.length > 0 ? "fail" : unknowns.length > 0 ? "unknown" : "pass"
  return {
    address: probe.address,
    family,
    authoritative,
    serial,
    nameServers,
    tcp,
    openRecursion,
    status,
    message:
      problems.length > 0
        ? problems.join("; ")
        : unknowns.length > 0
          ? unknowns.join("; ")
          : `authoritative, serial ${serial}, TCP answered, no recursion`
  }
}

const analyseServer = (domain: string, s: ServerInput): NsServerResult => {
  const results = s.probes.map((p) => analyseAddress(domain, p))
  const addresses = "value" in s.addresses ? [...s.addresses.value.v4, ...s.addresses.value.v6] : []
  const status: CheckStatus =
    "failed" in s.addresses
      ? "unknown"
      : addresses.length === 0
        ? "fail"
        : worstOf(results.map((r) => r.status))
  return {
    host: bare(s.host),
    addresses,
    inDelegation: s.inDelegation,
    inZone: s.inZone,
    results,
    status,
    message:
      "failed" in s.addresses
        ? `its addresses could not be looked up (${s.addresses.failed})`
        : addresses.length === 0
          ? "has no address (A or AAAA)"
          : (results.find((r) => r.status !== "pass")?.message ?? "answers as it should")
  }
}

/** DELEGATION01: at least two name servers (RFC 2182 5). */
const countVerdict = (names: ReadonlyArray<string> | null): NsVerdict =>
  names === null
    ? verdict("unknown", "the NS set could not be looked up")
    : names.length >= 2
      ? verdict("pass", `${names.length} name servers`)
      : verdict(
          "fail",
          `${names.length} name server${names.length === 1 ? "" : "s"}; at least two are needed`
        )

/** RFC 2182 3.1 (CONNECTIVITY03 by AS; here by prefix): not every server on one network. */
const networksVerdict = (servers: ReadonlyArray<NsServerResult>, anyUnknown: boolean): NsVerdict => {
  const all = servers.flatMap((s) => s.addresses)
  const v4 = [...new Set(all.filter((a) => familyOf(a) === 4).map(v4Prefix))]
  const v6 = [...new Set(all.filter((a) => familyOf(a) === 6).map(v6Prefix))]
  const v6Count = new Set(all.filter((a) => familyOf(a) === 6)).size
  if (all.length === 0) return verdict(anyUnknown ? "unknown" : "fail", "no name server address known")
  if (v4.length === 1) return verdict("fail", `every IPv4 address of the name servers is in ${v4[0]}`)
  if (v6Count >= 2 && v6.length === 1)
    return verdict("fail", `every IPv6 address of the name servers is in ${v6[0]}`)
  if (v4.length === 0 && v6.length <= 1)
    return verdict("fail", `every address of the name servers is in ${v6[0] ?? "one network"}`)
  return verdict(
    anyUnknown ? "unknown" : "pass",
    `${[...v4, ...v6].join(", ")}${anyUnknown ? " (some addresses could not be looked up)" : ""}`
  )
}

/** DELEGATION04 / RFC 1912 2.8: every listed server answers for the zone with authority. */
const authoritativeVerdict = (servers: ReadonlyArray<NsServerResult>): NsVerdict => {
  const lame = servers.flatMap((s) =>
    s.results.filter((r) => r.authoritative === false).map((r) => `${s.host} (${r.address}): ${r.message}`)
  )
  if (lame.length > 0) return verdict("fail", `lame delegation: ${lame.join("; ")}`)
  const unanswered = servers.flatMap((s) =>
    s.results.filter((r) => r.authoritative === null).map((r) => `${s.host} (${r.address})`)
  )
  if (unanswered.length > 0) return verdict("unknown", `no answer from ${unanswered.join(", ")}`)
  if (servers.some((s) => s.status === "unknown"))
    return verdict("unknown", "a name server's addresses are unknown")
  const asked = servers.reduce((n, s) => n + s.results.length, 0)
  return asked === 0
    ? verdict("fail", "no name server address to ask")
    : verdict("pass", `${asked} address${asked === 1 ? "" : "es"} answer authoritatively`)
}

/** CONSISTENCY01 (one serial) and CONSISTENCY05 / DELEGATION03: one NS set, the parent's. */
const consistentVerdict = (
  servers: ReadonlyArray<NsServerResult>,
  delegation: ReadonlyArray<string> | null,
  zone: ReadonlyArray<string> | null
): NsVerdict => {
  const answers = servers.flatMap((s) => s.results.filter((r) => r.authoritative === true))
  const serials = [...new Set(answers.map((r) => r.serial).filter((s): s is number => s !== null))].sort(
    (a, b) => a - b
  )
  const problems: Array<string> = []
  if (serials.length > 1) problems.push(`the servers serve different SOA serials (${serials.join(", ")})`)
  const sets = [...new Set(answers.flatMap((r) => (r.nameServers ? [r.nameServers.join(" ")] : [])))]
  if (sets.length > 1) problems.push(`the servers serve different NS sets (${sets.join(" | ")})`)
  const zoneSet = zone ?? (sets.length === 1 ? sets[0]!.split(" ") : null)
  if (delegation !== null && zoneSet !== null && delegation.length > 0 && !sameSet(delegation, zoneSet))
    problems.push(
      `the parent delegates to ${sortedSet(delegation).join(", ")}, the zone lists ${sortedSet(zoneSet).join(", ")}`
    )
  if (problems.length > 0) return verdict("fail", problems.join("; "))
  if (answers.length === 0 || delegation === null || zone === null)
    return verdict("unknown", "not enough answers to compare")
  return verdict("pass", `one serial (${serials.join("")}) and the parent's NS set everywhere`)
}

/** DELEGATION01's IPv6 count, as a rule of its own: resolvers with IPv6 only can reach the zone. */
const ipv6Verdict = (servers: ReadonlyArray<NsServerResult>): NsVerdict => {
  const v6 = servers.flatMap((s) => s.results.filter((r) => r.family === 6).map((r) => ({ s, r })))
  const answering = v6.filter(({ r }) => r.authoritative === true)
  if (answering.length > 0)
    return verdict(
      "pass",
      `reachable over IPv6 through ${[...new Set(answering.map(({ s }) => s.host))].join(", ")}`
    )
  if (v6.some(({ r }) => r.authoritative === null))
    return verdict("unknown", "an IPv6 address did not answer")
  if (servers.some((s) => s.status === "unknown"))
    return verdict("unknown", "a name server's addresses are unknown")
  return v6.length > 0
    ? verdict("fail", "no IPv6 address of a name server answers for the zone")
    : verdict("fail", "no name server has an IPv6 address (AAAA)")
}

/**
 * A verdict on one property every address must have: fail naming the addresses that lack it,
 * unknown while any address is unsettled (null), pass when every one has it.
 */
const everyAddress = (
  servers: ReadonlyArray<NsServerResult>,
  has: (r: NsAddressResult) => boolean | null,
  says: { readonly lacking: string; readonly unsettled: string; readonly passing: string }
): NsVerdict => {
  const all = servers.flatMap((s) => s.results.map((r) => ({ s, r })))
  const lacking = all.filter(({ r }) => has(r) === false)
  if (lacking.length > 0)
    return verdict(
      "fail",
      `${says.lacking}: ${lacking.map(({ s, r }) => `${s.host} (${r.address})`).join(", ")}`
    )
  if (all.length === 0 || all.some(({ r }) => has(r) === null)) return verdict("unknown", says.unsettled)
  return verdict("pass", says.passing)
}

/** CONNECTIVITY02 / RFC 7766 5 (and RFC 9210 3): every server answers over TCP. */
const tcpVerdict = (servers: ReadonlyArray<NsServerResult>): NsVerdict =>
  everyAddress(servers, (r) => r.tcp, {
    lacking: "no TCP",
    unsettled: "TCP not settled everywhere",
    passing: "every address answers over TCP"
  })

/** NAMESERVER01 / RFC 5358: no authoritative server is an open resolver. */
const recursionVerdict = (servers: ReadonlyArray<NsServerResult>): NsVerdict =>
  everyAddress(servers, (r) => (r.openRecursion === null ? null : !r.openRecursion), {
    lacking: "open recursion",
    unsettled: "recursion not settled everywhere",
    passing: "no server recurses for a stranger"
  })

const NOT_APPLICABLE = (message: string): NsVerdict => verdict("not-applicable", message)

/** Pure and total; `now` stamps the result. */
export const analyse = (input: NsInput, now: Date): NameServersReport => {
  const domain = bare(input.domain)
  const base = {
    domain,
    timestamp: now.toISOString(),
    check: "nameservers",
    description: DESCRIPTION,
    parentZone: input.parentZone === null ? null : bare(input.parentZone),
    citationUrl: CITATION_URL
  }
  if ("absent" in input.zone || "failed" in input.zone) {
    const why =
      "failed" in input.zone
        ? verdict("unknown", `the NS look-up failed: ${input.zone.failed}`)
        : NOT_APPLICABLE(
            input.zone.absent === "nxdomain"
              ? "no such domain (NXDOMAIN)"
              : "not a zone apex: its name servers are those of the zone above it"
          )
    return {
      ...base,
      status: why.status,
      delegation: "value" in input.delegation ? sortedSet(input.delegation.value) : [],
      zoneNameServers: [],
      servers: [],
      verdicts: {
        count: why,
        networks: why,
        authoritative: why,
        consistent: why,
        ipv6: why,
        tcp: why,
        recursion: why
      },
      issues: [why.message]
    }
  }
  const zone = sortedSet(input.zone.value)
  const delegation = "value" in input.delegation ? sortedSet(input.delegation.value) : null
  const servers = input.servers.map((s) => analyseServer(domain, s))
  const anyUnknown = servers.some((s) => s.status === "unknown" && s.addresses.length === 0)
  const verdicts = {
    count: countVerdict(delegation && delegation.length > 0 ? delegation : zone),
    networks: networksVerdict(servers, anyUnknown),
    authoritative: authoritativeVerdict(servers),
    consistent: consistentVerdict(servers, delegation, zone),
    ipv6: ipv6Verdict(servers),
    tcp: tcpVerdict(servers),
    recursion: recursionVerdict(servers)
  }
  const issues = Object.values(verdicts)
    .filter((v) => v.status !== "pass")
    .map((v) => v.message)
  if ("failed" in input.delegation)
    issues.push(`the parent's delegation could not be read (${input.delegation.failed})`)
  if (input.unasked > 0) issues.push(`${input.unasked} name server address(es) not asked (NS_MAX_ADDRESSES)`)
  // Diversity and IPv6 are advice (RFC 2182 3.1 SHOULD); the rest breaks resolution for someone.
  const soft = (v: NsVerdict): CheckStatus => (v.status === "fail" ? "warning" : v.status)
  const status = worstOf([
    verdicts.count.status,
    verdicts.authoritative.status,
    verdicts.consistent.status,
    verdicts.tcp.status,
    verdicts.recursion.status,
    soft(verdicts.networks),
    soft(verdicts.ipv6)
  ])
  return { ...base, status, delegation: delegation ?? [], zoneNameServers: zone, servers, verdicts, issues }
}
