/**
 * Forward-confirmed reverse DNS of the mail servers: every MX address should have a PTR name that
 * resolves back to the same address (RFC 1912 2.1; M3AAWG and the Google/Yahoo sender rules require
 * it of sending IPs). `gather` asks the PTR of every MX address and the forward records of each
 * name through the scan's Facts (so the SMTP TLS check's `fcrdns` field reads the same answers);
 * `analyse` gives the verdict.
 */
import { Effect, Either } from "effect"
import type { DnsError } from "../../net/DnsTypes.ts"
import { canonicalAddress } from "../../records/AddressText.ts"
import { define } from "../../kernel/Check.ts"
import { Facts, type FactsShape } from "../../kernel/Facts.ts"
import { MailServers, type MxStatus, mxUnknown, targets } from "../../kernel/MailServers.ts"
import { type CheckStatus, worstOf } from "../../kernel/Status.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { FcrdnsResult, FcrdnsReport, AddressResult } from "./FcrdnsResult.ts"
import { forEachConcurrently } from "../../kernel/Each.ts"

export * from "./FcrdnsResult.ts"

export const CITATION_URL = "https://www.rfc-editor.org/rfc/rfc1912#section-2.1"

export const DESCRIPTION =
  "Forward-confirmed reverse DNS: each mail server address has a PTR record whose name resolves back " +
  "to the same address. Receivers such as Gmail and Yahoo reject or penalise mail from addresses without it."

export type Lookup<A> =
  | { readonly outcome: "answer"; readonly value: A }
  | { readonly outcome: "none" }
  | { readonly outcome: "unknown"; readonly reason: string }

export interface AddressInput {
  /** The MX host the address belongs to. */
  readonly hostname: string
  /** The host is the implicit MX: no MX record, the domain's own address (RFC 5321 5.1). */
  readonly implicit?: boolean
  readonly ip: string
  readonly ptr: Lookup<ReadonlyArray<string>>
  /** Forward addresses (A for IPv4, AAAA for IPv6) of each PTR name, keyed by the name as given. */
  readonly forward: Readonly<Record<string, Lookup<ReadonlyArray<string>>>>
}

export const withApiUrl = (report: FcrdnsReport, apiUrl: string): FcrdnsResult => ({ ...report, apiUrl })

export interface FcrdnsInput {
  readonly domain: string
  /** `null-mx` is read as `none`: there is no mail server to check either way. */
  readonly mxStatus: MxStatus
  /** The MX set is DNSSEC-bogus (see `MailServers.bogus`). */
  readonly mxBogus?: boolean
  readonly addresses: ReadonlyArray<AddressInput>
  /** MX hosts whose address lookup failed (unknown, not "no address"). */
  readonly unresolvedHosts?: ReadonlyArray<string>
}

const bare = (name: string) => name.toLowerCase().replace(/\.$/, "")

/** Names ISPs give to dynamic/end-user ranges: receivers treat them as non-mail-server addresses. */
export const looksGeneric = (name: string, ip: string): boolean => {
  const n = bare(name)
  if (
    /(^|[.-])(dyn|dynamic|dhcp|pool|dsl|adsl|cable|dial(up)?|ppp|client|customer|broadband)([.\d-]|$)/.test(n)
  )
    return true
  const octets = ip.split(".")
  return octets.length === 4 && octets.every((o) => n.includes(o)) && new RegExp(octets.join("[.-]")).test(n)
}

/** RFC 1912 2.1: the verdict for one address. */
export const analyseAddress = (input: AddressInput): AddressResult => {
  const base = { hostname: bare(input.hostname), implicit: input.implicit === true, ip: input.ip }
  if (input.ptr.outcome === "unknown")
    return {
      ...base,
      ptrRecords: [],
      confirmedName: null,
      forwardConfirmed: null,
      matchesMxHost: false,
      genericName: false,
      status: "unknown",
      message: `PTR lookup failed (${input.ptr.reason})`
    }
  const names = input.ptr.outcome === "answer" ? input.ptr.value.map(bare) : []
  if (names.length === 0)
    return {
      ...base,
      ptrRecords: [],
      confirmedName: null,
      forwardConfirmed: false,
      matchesMxHost: false,
      genericName: false,
      status: "fail",
      message: `no PTR record for ${input.ip}`
    }
  const self = canonicalAddress(input.ip)
  let unknown = false
  let confirmed: string | null = null
  for (const [name, lookup] of Object.entries(input.forward)) {
    if (!names.includes(bare(name))) continue
    if (lookup.outcome === "unknown") unknown = true
    else if (lookup.outcome === "answer" && lookup.value.some((a) => canonicalAddress(a) === self)) {
      confirmed ??= bare(name)
    }
  }
  // a PTR name with no forward lookup at all was not checked: not a refutation
  if (names.some((n) => !Object.keys(input.forward).map(bare).includes(n))) unknown = true
  const generic = names.some((n) => looksGeneric(n, input.ip))
  const matchesMxHost = names.includes(base.hostname)
  if (confirmed)
    return {
      ...base,
      ptrRecords: names,
      confirmedName: confirmed,
      forwardConfirmed: true,
      matchesMxHost,
      genericName: generic,
      status: generic ? "warning" : "pass",
      message: generic
        ? `${confirmed} resolves back, but looks like a generic end-user name`
        : `${input.ip} -> ${confirmed} -> ${input.ip}`
    }
  return {
    ...base,
    ptrRecords: names,
    confirmedName: null,
    forwardConfirmed: unknown ? null : false,
    matchesMxHost,
    genericName: generic,
    status: unknown ? "unknown" : "fail",
    message: unknown
      ? `forward lookup of ${names.join(", ")} failed`
      : `PTR ${names.join(", ")} does not resolve back to ${input.ip}`
  }
}

/** Pure and total; `now` stamps the result. */
export const analyse = (input: FcrdnsInput, now: Date): FcrdnsReport => {
  const results = input.addresses.map(analyseAddress)
  const issues: Array<string> = []
  if (input.mxStatus === "unknown") issues.push(mxUnknown({ bogus: input.mxBogus === true }))
  if (input.mxStatus === "none" || input.mxStatus === "null-mx")
    issues.push("no MX records: nothing to check")
  if (input.mxStatus === "implicit")
    issues.push("no MX records: checking the domain's own addresses, its implicit MX (RFC 5321 5.1)")
  for (const host of input.unresolvedHosts ?? []) issues.push(`addresses of ${host} could not be resolved`)
  for (const r of results) if (r.status !== "pass") issues.push(`${r.hostname} (${r.ip}): ${r.message}`)
  const statuses = results.map((r) => r.status)
  const status: CheckStatus =
    input.mxStatus === "unknown"
      ? "unknown"
      : results.length === 0
        ? (input.unresolvedHosts ?? []).length > 0
          ? "unknown"
          : "not-applicable"
        : worstOf(statuses)
  return {
    domain: input.domain,
    timestamp: now.toISOString(),
    check: "fcrdns",
    description: DESCRIPTION,
    result: { checked: results.length > 0, status, results, issues },
    citationUrl: CITATION_URL
  }
}

const toLookup = <A>(either: Either.Either<A, DnsError>, isEmpty: (a: A) => boolean): Lookup<A> =>
  Either.isLeft(either)
    ? { outcome: "unknown", reason: `${either.left.reason}: ${either.left.message}` }
    : isEmpty(either.right)
      ? { outcome: "none" }
      : { outcome: "answer", value: either.right }

/** PTR of every MX address, then the A/AAAA of each PTR name (same family as the address). */
const gatherAddresses = (facts: FactsShape, servers: MailServers) =>
  forEachConcurrently(
    targets(servers),
    (t) =>
      Effect.gen(function* () {
        const ptr = toLookup(yield* Effect.either(facts.ptr(t.ip)), (names) => names.length === 0)
        const names = ptr.outcome === "answer" ? ptr.value.slice(0, 5) : []
        const type = t.family === 4 ? "A" : "AAAA"
        // One fan in this fiber (`queryEach`), not a fiber per name that only waits.
        const answers = yield* facts.queryEach(
          names.map((name) => ({ name, type })),
          { concurrency: Math.max(1, names.length) }
        )
        const forward: Record<string, Lookup<ReadonlyArray<string>>> = {}
        names.forEach((name, i) => {
          forward[name] = toLookup(
            Either.map(answers[i]!, (a) =>
              a.answers.filter((r) => r.type === type).map((r) => String(r.data))
            ),
            (list) => list.length === 0
          )
        })
        return { hostname: t.host, implicit: t.implicit, ip: t.ip, ptr, forward } satisfies AddressInput
      }),
    8
  )

/** GET /email/fcrdns (with the self link added by `withApiUrl`). */
const gather = Effect.gen(function* () {
  const facts = yield* Facts
  const servers = yield* facts.get(MailServers)
  return {
    domain: facts.domain,
    mxStatus: servers.mxStatus,
    mxBogus: servers.bogus,
    addresses: yield* gatherAddresses(facts, servers),
    unresolvedHosts: servers.hosts.filter((h) => h.status === "unknown").map((h) => h.host)
  } satisfies FcrdnsInput
})

export const Fcrdns = define(about, { gather, analyse, exampleGathered })
