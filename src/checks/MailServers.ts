/**
 * The mail servers of a domain: MX records (RFC 5321 5.1, null MX per RFC 7505) and the addresses
 * of each host. Shared by the SMTP TLS, DANE, FCrDNS, blocklist and sender-requirement checks.
 * (When the scan's memoised Facts exist, they supply the same shape.)
 */
import { Effect, Either, Option } from "effect"
import { normalizeName } from "../net/Resolver.ts"
import { Fact, Facts, type FactsShape } from "../scan/Facts.ts"

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
  readonly mxStatus: "answer" | "none" | "null-mx" | "unknown"
  readonly mxRecords: ReadonlyArray<{ readonly priority: number; readonly host: string }>
  readonly hosts: ReadonlyArray<MailHost>
  readonly error: string | null
}

export interface MailTarget {
  readonly host: string
  readonly priority: number
  readonly ip: string
  readonly family: 4 | 6
}

export const bareHost = (name: string) => name.toLowerCase().replace(/\.$/, "")

/** Every (host, address) pair to probe, in MX priority order. */
export const targets = (servers: MailServers): ReadonlyArray<MailTarget> =>
  servers.hosts.flatMap((h) => [
    ...h.v4.map((ip) => ({ host: h.host, priority: h.priority, ip, family: 4 as const })),
    ...h.v6.map((ip) => ({ host: h.host, priority: h.priority, ip, family: 6 as const }))
  ])

/** The mail servers from the scan's memoised MX set and addresses (Facts, RFC 5321 5.1 / RFC 7505). */
export const mailServersOf = (facts: FactsShape): Effect.Effect<MailServers> =>
  Effect.gen(function* () {
    const mx = yield* Effect.either(facts.mx)
    if (Either.isLeft(mx))
      return { mxStatus: "unknown", mxRecords: [], hosts: [], error: mx.left.message } as const
    const records = mx.right.records.map((r) => ({ priority: r.priority, host: bareHost(r.host) }))
    if (mx.right.implicit) return { mxStatus: "none", mxRecords: [], hosts: [], error: null } as const
    if (mx.right.nullMx) return { mxStatus: "null-mx", mxRecords: records, hosts: [], error: null } as const
    const found = yield* Effect.either(facts.mxHosts)
    if (Either.isLeft(found))
      return { mxStatus: "unknown", mxRecords: records, hosts: [], error: found.left.message } as const
    const seen = new Set<string>()
    const hosts: Array<MailHost> = []
    for (const h of found.right) {
      const host = bareHost(h.host)
      if (host === "" || seen.has(host) || hosts.length >= MAX_MX_HOSTS) continue
      seen.add(host)
      if (!h.addresses.ok) {
        hosts.push({ host, priority: h.priority, status: "unknown", v4: [], v6: [] })
        continue
      }
      const v4 = h.addresses.value.v4.slice(0, MAX_ADDRESSES_PER_FAMILY)
      const v6 = h.addresses.value.v6.slice(0, MAX_ADDRESSES_PER_FAMILY)
      hosts.push({ host, priority: h.priority, status: v4.length + v6.length > 0 ? "ok" : "none", v4, v6 })
    }
    return { mxStatus: "answer", mxRecords: records, hosts, error: null } as const
  })

/** Memoised per scan: the transport checks of one scan share one reading. */
const MailServersFact = Fact.define("mail/servers", mailServersOf)

/**
 * The mail servers of `domain`: from the scan's Facts when a scan provides them (so every check of
 * the scan asks each question once), else from fresh Facts for this request.
 */
export const mailServers = Effect.fn("SmtpTls.mailServers")(function* (domain: string) {
  const scan = yield* Effect.serviceOption(Facts)
  const facts =
    Option.isSome(scan) && scan.value.domain === normalizeName(domain)
      ? scan.value
      : yield* Facts.make(domain)
  return yield* facts.get(MailServersFact)
})
