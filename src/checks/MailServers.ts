/**
 * The mail servers of the scanned domain: its MX records (RFC 5321 5.1, null MX per RFC 7505) and
 * the addresses of each host. One derived fact per scan, shared by the SMTP TLS, DANE, FCrDNS and
 * blocklist checks, so the MX set and its addresses are read once however many checks need them.
 */
import { Effect, Either } from "effect"
import { Fact, Facts, type FactsShape } from "./Facts.ts"

/** Bounds on the work one domain can cause (a hostile MX set must not fan out without limit). */
export const MAX_MX_HOSTS = 10
export const MAX_ADDRESSES_PER_FAMILY = 4

export interface MailHost {
  readonly host: string
  readonly priority: number
  /** `none`: the host has no A/AAAA; `unknown`: the lookup failed. */
  readonly status: "ok" | "none" | "unknown"
  readonly v4: ReadonlyArray<string>
  readonly v6: ReadonlyArray<string>
}

export interface MailServers {
  /**
   * `answer`: MX records name hosts; `none`: no MX at all (senders fall back to the domain's own
   * A/AAAA, RFC 5321 5.1); `null-mx`: a lone "0 ." (RFC 7505: no mail accepted); `unknown`: the
   * MX lookup failed (`bogus` tells why when DNSSEC is the reason).
   */
  readonly mxStatus: "answer" | "none" | "null-mx" | "unknown"
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
}

/** The reason a check gives when the MX set is DNSSEC-bogus. */
export const MX_BOGUS = "the MX records could not be validated (DNSSEC bogus)"

/** The sentence a mail check reports when the MX set is unknown. */
export const mxUnknown = (servers: Pick<MailServers, "bogus">) =>
  servers.bogus ? MX_BOGUS : "the MX lookup failed: mail servers unknown"

export const bareHost = (name: string) => name.toLowerCase().replace(/\.$/, "")

/** Every (host, address) pair to probe, in MX priority order. */
export const targets = (servers: MailServers): ReadonlyArray<MailTarget> =>
  servers.hosts.flatMap((h) => [
    ...h.v4.map((ip) => ({ host: h.host, priority: h.priority, ip, family: 4 as const })),
    ...h.v6.map((ip) => ({ host: h.host, priority: h.priority, ip, family: 6 as const }))
  ])

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
    if (records.length === 0)
      return { mxStatus: "none", bogus: false, mxRecords: [], hosts: [], error: null } as const
    // RFC 7505 3: a null MX must be the only record; mixed with others it is ignored (the rest count).
    if (records.length === 1 && records[0]!.host === "")
      return { mxStatus: "null-mx", bogus: false, mxRecords: records, hosts: [], error: null } as const
    const names = [...new Set(records.map((r) => r.host).filter((h) => h !== ""))].slice(0, MAX_MX_HOSTS)
    const hosts = yield* Effect.forEach(
      names,
      (host) =>
        Effect.map(Effect.either(facts.addresses(host)), (found): MailHost => {
          const priority = records.find((r) => r.host === host)!.priority
          if (Either.isLeft(found)) return { host, priority, status: "unknown", v4: [], v6: [] }
          const v4 = found.right.v4.slice(0, MAX_ADDRESSES_PER_FAMILY)
          const v6 = found.right.v6.slice(0, MAX_ADDRESSES_PER_FAMILY)
          return { host, priority, status: v4.length + v6.length > 0 ? "ok" : "none", v4, v6 }
        }),
      { concurrency: 4 }
    )
    return { mxStatus: "answer", bogus: false, mxRecords: records, hosts, error: null } as const
  })

/** The scanned domain's mail servers, read once per scan. */
export const MailServers = Fact.define("mail.servers", Effect.flatMap(Facts, mailServersOf))
