/**
 * DNS blocklists (RFC 5782): each MX address is looked up in every configured zone as
 * `<reversed address>.<zone>`, each question an A query through the scan's Facts. Pure part: query
 * names and the reading of the return codes.
 */
import { Effect, Either } from "effect"
import { AppConfig, type DnsblZone } from "../../Config.ts"
import type { DnsAnswer, DnsError } from "../../net/DnsTypes.ts"
import { define } from "../../kernel/Check.ts"
import { Facts, type FactsShape } from "../../kernel/Facts.ts"
import { MailServers, type MxStatus, mxUnknown, targets } from "../../kernel/MailServers.ts"
import { type CheckStatus } from "../../kernel/Status.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { BlocklistResult, ZoneVerdict } from "./BlocklistResult.ts"
import { expandIPv6, ipv4Octets } from "../../records/AddressText.ts"

export { canonicalAddress, expandIPv6 } from "../../records/AddressText.ts"

export * from "./BlocklistResult.ts"

/** RFC 5782 2.1 (IPv4, reversed octets) and 2.4 (IPv6, reversed nibbles) query name. */
export const queryName = (ip: string, zone: string): string | null => {
  const v4 = ipv4Octets(ip)
  if (v4) return `${[...v4].reverse().join(".")}.${zone}`
  const v6 = expandIPv6(ip)
  if (v6) return `${v6.replace(/:/g, "").split("").reverse().join(".")}.${zone}`
  return null
}

/** What a zone's answer meant, as far as we know the zone's published codes. */
const CODES: Record<string, Record<string, string>> = {
  "zen.spamhaus.org": {
    "127.0.0.2": "SBL: Spamhaus SBL data (known spam source)",
    "127.0.0.3": "SBL CSS: snowshoe spam source",
    "127.0.0.4": "XBL: exploited or infected host (CBL)",
    "127.0.0.5": "XBL: exploited or infected host",
    "127.0.0.6": "XBL: exploited or infected host",
    "127.0.0.7": "XBL: exploited or infected host",
    "127.0.0.9": "SBL: Spamhaus DROP/EDROP data",
    "127.0.0.10": "PBL: ISP-maintained policy block list (end-user range)",
    "127.0.0.11": "PBL: Spamhaus-maintained policy block list (end-user range)",
    "127.255.255.252": "refused: typing error in the DNSBL name",
    "127.255.255.254": "refused: query via a public or open resolver",
    "127.255.255.255": "refused: excessive number of queries"
  },
  "bl.spamcop.net": { "127.0.0.2": "listed by SpamCop (reported spam source)" },
  "b.barracudacentral.org": { "127.0.0.2": "listed by Barracuda reputation (poor sender reputation)" }
}

const numeric = (ip: string) => (ipv4Octets(ip) ?? [256]).reduce((n, o) => n * 256 + o, 0)

export type ZoneAnswer =
  | { readonly outcome: "answer"; readonly addresses: ReadonlyArray<string> }
  | { readonly outcome: "none" }
  | { readonly outcome: "unknown"; readonly reason: string }

/**
 * RFC 5782 2.1: a listing is an A record in 127.0.0.0/8; 127.0.0.1 is never a listing. Lists answer
 * 127.255.255.x when they refuse to answer (rate limits, public resolvers): that is `unknown`.
 * Any address outside 127/8 means a hijacking resolver or a dead list's wildcard: `unknown` too.
 */
export const interpret = (zone: DnsblZone, query: string | null, answer: ZoneAnswer): ZoneVerdict => {
  const base = { name: zone.name, zone: zone.zone, severity: zone.severity, query }
  if (query === null)
    return { ...base, listed: false, status: "unknown", codes: [], meaning: "not an IP address" }
  if (answer.outcome === "none") return { ...base, listed: false, status: "clean", codes: [], meaning: null }
  if (answer.outcome === "unknown")
    return {
      ...base,
      listed: false,
      status: "unknown",
      codes: [],
      meaning: `lookup failed: ${answer.reason}`
    }
  const codes = [...answer.addresses].sort((a, b) => numeric(a) - numeric(b) || a.localeCompare(b))
  const known = CODES[zone.zone] ?? {}
  const listing = codes.filter((c) => /^127\./.test(c) && c !== "127.0.0.1" && !/^127\.255\.255\./.test(c))
  if (codes.length > 0 && listing.length === codes.length)
    return {
      ...base,
      listed: true,
      status: "listed",
      codes,
      meaning: listing.map((c) => known[c] ?? `listed (return code ${c})`).join("; ")
    }
  const refused = codes.find((c) => /^127\.255\.255\./.test(c))
  const meaning = refused
    ? (known[refused] ?? `the list refused the query (return code ${refused})`)
    : codes.length === 0
      ? "empty answer"
      : `unexpected return code ${codes.join(", ")} (RFC 5782 2.1 expects 127.0.0.2 and up)`
  return { ...base, listed: false, status: "unknown", codes, meaning }
}

export interface MailServerInput {
  readonly hostname: string
  /** The host is the implicit MX (RFC 5321 5.1). */
  readonly implicit?: boolean
  readonly ip: string
  readonly answers: ReadonlyArray<{ readonly zone: DnsblZone; readonly answer: ZoneAnswer }>
}

export interface BlocklistInput {
  readonly domain: string
  readonly zones: ReadonlyArray<DnsblZone>
  readonly mxStatus: MxStatus
  /** The MX set is DNSSEC-bogus (see `MailServers.bogus`). */
  readonly mxBogus?: boolean
  readonly servers: ReadonlyArray<MailServerInput>
}

const severityStatus = (severity: DnsblZone["severity"]): CheckStatus =>
  severity === "low" ? "warning" : "fail"

/** Pure and total; `now` stamps the result. */
export const analyse = (input: BlocklistInput, now: Date): BlocklistResult => {
  const issues: Array<string> = []
  const mailServers = input.servers.map((server) => {
    const blacklists = server.answers.map((a) =>
      interpret(a.zone, queryName(server.ip, a.zone.zone), a.answer)
    )
    const listed = blacklists.filter((b) => b.listed)
    const unknown = blacklists.filter((b) => b.status === "unknown")
    for (const b of listed)
      issues.push(`${server.hostname} (${server.ip}) is listed on ${b.name}: ${b.meaning}`)
    for (const b of unknown)
      issues.push(`${server.hostname} (${server.ip}): ${b.name} could not be checked (${b.meaning})`)
    const status: CheckStatus =
      listed.length > 0
        ? listed.some((b) => severityStatus(b.severity) === "fail")
          ? "fail"
          : "warning"
        : unknown.length > 0
          ? "unknown"
          : "pass"
    return {
      hostname: server.hostname,
      implicit: server.implicit === true,
      ip: server.ip,
      status,
      blacklistResult: {
        listed: listed.length > 0,
        status:
          listed.length > 0
            ? ("listed" as const)
            : unknown.length > 0
              ? ("unknown" as const)
              : ("clean" as const),
        blacklists
      }
    }
  })
  if (input.mxStatus === "unknown") issues.push(mxUnknown({ bogus: input.mxBogus === true }))
  if (input.mxStatus === "implicit")
    issues.push("no MX records: checking the domain's own addresses, its implicit MX (RFC 5321 5.1)")
  const statuses = mailServers.map((s) => s.status)
  const status: CheckStatus =
    input.mxStatus === "unknown"
      ? "unknown"
      : mailServers.length === 0
        ? "not-applicable"
        : statuses.includes("fail")
          ? "fail"
          : statuses.includes("warning")
            ? "warning"
            : statuses.includes("unknown")
              ? "unknown"
              : "pass"
  return {
    domain: input.domain,
    checkedAt: now.toISOString(),
    status,
    mailServers,
    summary: {
      serversChecked: mailServers.length,
      listedServers: mailServers.filter((s) => s.blacklistResult.listed).length,
      unknownLookups: mailServers.reduce(
        (n, s) => n + s.blacklistResult.blacklists.filter((b) => b.status === "unknown").length,
        0
      ),
      zones: input.zones.map((z) => z.zone)
    },
    issues
  }
}

/**
 * RFC 5782 5: a working list answers its test entry 127.0.0.2 and never lists 127.0.0.1. A list
 * that fails either (dead zone, NXDOMAIN-rewriting or wildcarding resolver) cannot say "clean".
 */
export const zoneProblem = (test: ZoneAnswer, never: ZoneAnswer): string | null => {
  if (test.outcome === "unknown") return null
  if (test.outcome === "none")
    return "the list does not answer its test entry 127.0.0.2 (RFC 5782 5): not operating"
  if (test.addresses.some((a) => a.startsWith("127.255.255."))) return "the list refuses our queries"
  if (never.outcome === "answer") return "the list answers for 127.0.0.1 (RFC 5782 5): wildcard, not usable"
  return null
}

/**
 * One A query per (address, zone), all concurrent, after each zone's RFC 5782 5 test entries; a
 * failed query is `unknown`, never clean.
 */
const gatherAnswers = (facts: FactsShape, servers: MailServers, zones: ReadonlyArray<DnsblZone>) =>
  Effect.gen(function* () {
    const list = targets(servers)
    const answerOf = (result: Either.Either<DnsAnswer, DnsError>): ZoneAnswer => {
      if (Either.isLeft(result)) return { outcome: "unknown", reason: result.left.reason }
      const addresses = result.right.answers.filter((r) => r.type === "A").map((r) => String(r.data))
      return result.right.outcome === "answer" && addresses.length > 0
        ? { outcome: "answer", addresses }
        : { outcome: "none" }
    }
    // Every zone's test entries, then every (address, zone) question, each fan in one fiber.
    const lookupEach = (names: ReadonlyArray<string>) =>
      Effect.map(
        facts.queryEach(
          names.map((name) => ({ name, type: "A" as const })),
          { concurrency: Math.max(1, names.length) }
        ),
        (results) => results.map(answerOf)
      )
    const health = new Map<string, string | null>()
    if (list.length > 0) {
      const tests = yield* lookupEach(zones.flatMap((z) => [`2.0.0.127.${z.zone}`, `1.0.0.127.${z.zone}`]))
      zones.forEach((zone, i) => health.set(zone.zone, zoneProblem(tests[2 * i]!, tests[2 * i + 1]!)))
    }
    const asked = list.flatMap((t) =>
      zones.map((zone) => ({ t, zone, name: queryName(t.ip, zone.zone), problem: health.get(zone.zone) }))
    )
    const toAsk = asked.flatMap((a) => (a.problem || a.name === null ? [] : [a.name]))
    const answers = yield* lookupEach(toAsk)
    let next = 0
    const answered = asked.map(({ t, zone, name, problem }) => ({
      t,
      zone,
      answer: problem
        ? ({ outcome: "unknown", reason: problem } as ZoneAnswer)
        : name === null
          ? ({ outcome: "unknown", reason: "not an IP address" } as ZoneAnswer)
          : answers[next++]!
    }))
    return list.map((t): MailServerInput => ({
      hostname: t.host,
      implicit: t.implicit,
      ip: t.ip,
      answers: answered.filter((a) => a.t === t).map(({ zone, answer }) => ({ zone, answer }))
    }))
  })

/** GET /email/blacklist: every MX address in every configured zone (`DNSBL_ZONES`). */
const gather = Effect.gen(function* () {
  const { dnsblZones } = yield* AppConfig
  const facts = yield* Facts
  const servers = yield* facts.get(MailServers)
  return {
    domain: facts.domain,
    zones: dnsblZones,
    mxStatus: servers.mxStatus,
    mxBogus: servers.bogus,
    servers: yield* gatherAnswers(facts, servers, dnsblZones)
  } satisfies BlocklistInput
})

export const Blocklist = define(about, { gather, analyse, exampleGathered })
