/**
 * Forward-confirmed reverse DNS of the mail servers: every MX address should have a PTR name that
 * resolves back to the same address (RFC 1912 2.1; M3AAWG and the Google/Yahoo sender rules require
 * it of sending IPs). Pure part: the verdict from the gathered PTR and forward lookups.
 */
import { Effect, Either } from "effect"
import type { DnsError } from "../../net/Dns.ts"
import { Resolver } from "../../net/Resolver.ts"
import { canonicalAddress } from "../blocklist/Blocklist.ts"
import { type MailServers, mailServers, targets } from "../MailServers.ts"
import { type CheckStatus, worstOf } from "../Status.ts"

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
  readonly ip: string
  readonly ptr: Lookup<ReadonlyArray<string>>
  /** Forward addresses (A for IPv4, AAAA for IPv6) of each PTR name, keyed by the name as given. */
  readonly forward: Readonly<Record<string, Lookup<ReadonlyArray<string>>>>
}

export interface AddressResult {
  readonly hostname: string
  readonly ip: string
  readonly ptrRecords: ReadonlyArray<string>
  /** The PTR name that resolves back to `ip`, or null. */
  readonly confirmedName: string | null
  /** true / false when settled; null when a lookup failed and nothing confirmed. */
  readonly forwardConfirmed: boolean | null
  readonly matchesMxHost: boolean
  readonly genericName: boolean
  readonly status: CheckStatus
  readonly message: string
}

export interface FcrdnsResult {
  readonly domain: string
  readonly timestamp: string
  readonly check: "fcrdns"
  readonly description: string
  readonly result: {
    readonly checked: boolean
    readonly status: CheckStatus
    readonly results: ReadonlyArray<AddressResult>
    readonly issues: ReadonlyArray<string>
  }
  readonly citationUrl: string
  readonly apiUrl: string
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
  const base = { hostname: bare(input.hostname), ip: input.ip }
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

export const analyse = (input: {
  readonly domain: string
  readonly timestamp: string
  readonly apiUrl: string
  readonly mxStatus: "answer" | "none" | "unknown"
  readonly addresses: ReadonlyArray<AddressInput>
  /** MX hosts whose address lookup failed (unknown, not "no address"). */
  readonly unresolvedHosts?: ReadonlyArray<string>
}): FcrdnsResult => {
  const results = input.addresses.map(analyseAddress)
  const issues: Array<string> = []
  if (input.mxStatus === "unknown") issues.push("the MX lookup failed: mail servers unknown")
  if (input.mxStatus === "none") issues.push("no MX records: nothing to check")
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
    timestamp: input.timestamp,
    check: "fcrdns",
    description: DESCRIPTION,
    result: { checked: results.length > 0, status, results, issues },
    citationUrl: CITATION_URL,
    apiUrl: input.apiUrl
  }
}

const toLookup = <A>(either: Either.Either<A, DnsError>, isEmpty: (a: A) => boolean): Lookup<A> =>
  Either.isLeft(either)
    ? { outcome: "unknown", reason: `${either.left.reason}: ${either.left.message}` }
    : isEmpty(either.right)
      ? { outcome: "none" }
      : { outcome: "answer", value: either.right }

/** PTR of every MX address, then the A/AAAA of each PTR name (same family as the address). */
export const gatherAddresses = Effect.fn("Fcrdns.gather")(function* (servers: MailServers) {
  const resolver = yield* Resolver
  return yield* Effect.forEach(
    targets(servers),
    (t) =>
      Effect.gen(function* () {
        const ptr = toLookup(yield* Effect.either(resolver.ptr(t.ip)), (names) => names.length === 0)
        const names = ptr.outcome === "answer" ? ptr.value.slice(0, 5) : []
        const forward: Record<string, Lookup<ReadonlyArray<string>>> = {}
        yield* Effect.forEach(
          names,
          (name) =>
            Effect.either(resolver.query(name, t.family === 4 ? "A" : "AAAA")).pipe(
              Effect.map((answer) => {
                forward[name] = toLookup(
                  Either.map(answer, (a) =>
                    a.answers
                      .filter((r) => r.type === (t.family === 4 ? "A" : "AAAA"))
                      .map((r) => String(r.data))
                  ),
                  (list) => list.length === 0
                )
              })
            ),
          { concurrency: "unbounded", discard: true }
        )
        return { hostname: t.host, ip: t.ip, ptr, forward } satisfies AddressInput
      }),
    { concurrency: 8 }
  )
})

/** GET /email/fcrdns. */
export const check = Effect.fn("Fcrdns.check")(function* (domain: string, apiUrl: string) {
  const servers = yield* mailServers(domain)
  const addresses = yield* gatherAddresses(servers)
  return analyse({
    domain,
    timestamp: new Date().toISOString(),
    apiUrl,
    mxStatus: servers.mxStatus === "unknown" ? "unknown" : servers.mxStatus === "answer" ? "answer" : "none",
    addresses,
    unresolvedHosts: servers.hosts.filter((h) => h.status === "unknown").map((h) => h.host)
  })
})
