/**
 * The mail servers of the scanned domain: its MX records (RFC 5321 5.1, null MX per RFC 7505), or
 * with no MX RRset the domain itself as the implicit MX (RFC 5321 5.1), and the addresses of each host. One derived fact per scan, shared by the SMTP TLS, DANE, FCrDNS and
 * blocklist checks, so the MX set and its addresses are read once however many checks need them.
 */
import { Effect, Either } from "effect"
import { addressQuestions, Fact, Facts, type FactsShape } from "./Facts.ts"

/** Bounds on the work one domain can cause (a hostile MX set must not fan out without limit). */
export const MAX_MX_HOSTS = 10
export const MAX_ADDRESSES_PER_FAMILY = 4

export interface MailHost {
  readonly host: string
  readonly priority: number
  /**
   * No MX record names this host: the domain has no MX RRset, so senders deliver to the domain
   * itself, after CNAME resolution, as if it had "MX 0 <domain>" (RFC 5321 5.1, the implicit MX).
   */
  readonly implicit: boolean
  /** `none`: the host has no A/AAAA; `unknown`: the lookup failed. */
  readonly status: "ok" | "none" | "unknown"
  readonly v4: ReadonlyArray<string>
  readonly v6: ReadonlyArray<string>
}

export const MX_STATUSES = ["answer", "implicit", "none", "null-mx", "unknown"] as const
export type MxStatus = (typeof MX_STATUSES)[number]

export interface MailServers {
  /**
   * `answer`: MX records name hosts; `implicit`: no MX RRset (NODATA), so mail goes to the domain's
   * own A/AAAA (RFC 5321 5.1): `hosts` holds that one implicit host at preference 0; `none`: no MX
   * and no address either (or no such domain): mail to the domain cannot be delivered; `null-mx`:
   * a lone "0 ." (RFC 7505: no mail accepted); `unknown`: the MX lookup failed (`bogus` tells why
   * when DNSSEC is the reason). A failed lookup is never read as "no MX", so never as implicit.
   */
  readonly mxStatus: MxStatus
  /**
   * The validating resolver answered SERVFAIL and the MX set came only with checking disabled
   * (RFC 4035 3.2.2): the domain's DNSSEC is broken, so validating senders cannot deliver mail and
   * retrying will not help. `mxStatus` is `unknown` (the bogus data is not used) and `error` says so.
   */
  readonly bogus: boolean
  /** The MX records by priority; a null MX appears as host "". */
  readonly mxRecords: ReadonlyArray<{ readonly priority: number; readonly host: string }>
  readonly hosts: ReadonlyArray<MailHost>
  /** Why the MX lookup failed (`reason: message`), else null. */
  readonly error: string | null
}

export interface MailTarget {
  readonly host: string
  readonly priority: number
  readonly ip: string
  readonly family: 4 | 6
  /** The host is the implicit MX (see `MailHost.implicit`). */
  readonly implicit: boolean
}

/** The OpenAPI description of every result's `implicit` field. */
export const IMPLICIT_DESCRIPTION =
  "true when no MX record names this host: the domain has no MX, so mail goes to the domain's own A/AAAA (the implicit MX at preference 0, RFC 5321 5.1)"

/** The reason a check gives when the MX set is DNSSEC-bogus. */
export const MX_BOGUS = "the MX records could not be validated (DNSSEC bogus)"

/** The sentence a mail check reports when the MX set is unknown. */
export const mxUnknown = (servers: Pick<MailServers, "bogus">) =>
  servers.bogus ? MX_BOGUS : "the MX lookup failed: mail servers unknown"

export const bareHost = (name: string) => name.toLowerCase().replace(/\.$/, "")

/** Every (host, address) pair to probe, in MX priority order. */
export const targets = (servers: MailServers): ReadonlyArray<MailTarget> =>
  servers.hosts.flatMap((h) => [
    ...h.v4.map((ip) => ({
      host: h.host,
      priority: h.priority,
      ip,
      family: 4 as const,
      implicit: h.implicit
    })),
    ...h.v6.map((ip) => ({
      host: h.host,
      priority: h.priority,
      ip,
      family: 6 as const,
      implicit: h.implicit
    }))
  ])

/** Hosts whose address lookup failed or found nothing: each check reports them. */
export const unresolvedHosts = (servers: MailServers) => servers.hosts.filter((h) => h.status !== "ok")

/**
 * The name a CNAME chain at `name` ends in, read from an answer's records (RFC 1034 3.6.2: the
 * resolver returns the chain it followed). RFC 5321 5.1: the implicit MX is that canonical name.
 * At most 8 hops, so a looping chain ends.
 */
export const canonicalName = (
  name: string,
  records: ReadonlyArray<{ readonly name: string; readonly type: string; readonly data: unknown }>
): string => {
  let current = bareHost(name)
  for (let hop = 0; hop < 8; hop++) {
    const next = records.find((r) => r.type === "CNAME" && bareHost(r.name) === current)
    if (!next) break
    current = bareHost(String(next.data))
  }
  return current
}

/**
 * RFC 5321 5.1: "If an empty list of MXs is returned, the address is treated as if it was associated
 * with an implicit MX RR, with a preference of 0, pointing to that host." Only a settled NODATA
 * counts (NXDOMAIN: no such domain; a failure stays unknown, never implicit); the host is the
 * name after CNAME resolution and it must have an address (else there is nowhere to deliver).
 */
const implicitMx = (facts: FactsShape): Effect.Effect<MailServers> =>
  Effect.gen(function* () {
    const none = { mxStatus: "none", bogus: false, mxRecords: [], hosts: [], error: null } as const
    // The same question `facts.mx` asked, memoised: no second query; it carries the CNAME chain.
    const answer = yield* Effect.either(facts.query(facts.domain, "MX"))
    if (Either.isLeft(answer) || answer.right.outcome === "nxdomain") return none
    const host = canonicalName(facts.domain, answer.right.answers)
    const found = yield* Effect.either(facts.addresses(host))
    if (Either.isLeft(found))
      return {
        ...none,
        mxStatus: "implicit",
        hosts: [{ host, priority: 0, implicit: true, status: "unknown", v4: [], v6: [] }]
      } as const
    const v4 = found.right.v4.slice(0, MAX_ADDRESSES_PER_FAMILY)
    const v6 = found.right.v6.slice(0, MAX_ADDRESSES_PER_FAMILY)
    if (v4.length + v6.length === 0) return none
    return {
      ...none,
      mxStatus: "implicit",
      hosts: [{ host, priority: 0, implicit: true, status: "ok", v4, v6 }]
    } as const
  })

/** The mail servers of `facts.domain`, from its memoised MX set and host addresses. */
export const mailServersOf = (facts: FactsShape): Effect.Effect<MailServers> =>
  Effect.gen(function* () {
    const mx = yield* Effect.either(facts.mx(facts.domain))
    if (Either.isLeft(mx)) {
      // Bogus or unreachable? Ask again without validation (the DNSSEC check's CD-bit retry).
      const bogus =
        mx.left.reason === "servfail" &&
        Either.isRight(yield* Effect.either(facts.query(facts.domain, "MX", { checkingDisabled: true })))
      return {
        mxStatus: "unknown",
        bogus,
        mxRecords: [],
        hosts: [],
        error: bogus ? MX_BOGUS : `${mx.left.reason}: ${mx.left.message}`
      } as const
    }
    const records = mx.right.map((r) => ({ priority: r.priority, host: bareHost(r.exchange) }))
    if (records.length === 0) return yield* implicitMx(facts)
    // RFC 7505 3: a null MX must be the only record; mixed with others it is ignored (the rest count).
    if (records.length === 1 && records[0]!.host === "")
      return { mxStatus: "null-mx", bogus: false, mxRecords: records, hosts: [], error: null } as const
    const names = [...new Set(records.map((r) => r.host).filter((h) => h !== ""))].slice(0, MAX_MX_HOSTS)
    // Every host's addresses asked at once, then read in turn in this fiber: `Effect.forEach` with a
    // concurrency forks a fiber per host that only waits (docs/architecture.md, "A check").
    yield* facts.prefetch(names.flatMap(addressQuestions))
    const hosts = yield* Effect.forEach(names, (host) =>
      Effect.map(Effect.either(facts.addresses(host)), (found): MailHost => {
        const priority = records.find((r) => r.host === host)!.priority
        if (Either.isLeft(found))
          return { host, priority, implicit: false, status: "unknown", v4: [], v6: [] }
        const v4 = found.right.v4.slice(0, MAX_ADDRESSES_PER_FAMILY)
        const v6 = found.right.v6.slice(0, MAX_ADDRESSES_PER_FAMILY)
        return {
          host,
          priority,
          implicit: false,
          status: v4.length + v6.length > 0 ? "ok" : "none",
          v4,
          v6
        }
      })
    )
    return { mxStatus: "answer", bogus: false, mxRecords: records, hosts, error: null } as const
  })

/** The scanned domain's mail servers, read once per scan. */
export const MailServers = Fact.define("mail.servers", Effect.flatMap(Facts, mailServersOf))
