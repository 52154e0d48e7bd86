/**
 * The mail servers of a domain: MX records (RFC 5321 5.1, null MX per RFC 7505) and the addresses
 * of each host. Shared by the SMTP TLS, DANE, FCrDNS, blocklist and sender-requirement checks.
 * (When the scan's memoised Facts exist, they supply the same shape.)
 */
import { Effect, Either } from "effect"
import { Resolver } from "../net/Resolver.ts"

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

export const mailServers = Effect.fn("SmtpTls.mailServers")(function* (domain: string) {
  const resolver = yield* Resolver
  const mx = yield* Effect.either(resolver.mx(domain))
  if (Either.isLeft(mx))
    return { mxStatus: "unknown", mxRecords: [], hosts: [], error: mx.left.message } satisfies MailServers
  const records = mx.right.map((r) => ({ priority: r.priority, host: bareHost(r.exchange) }))
  if (records.length === 0)
    return { mxStatus: "none", mxRecords: [], hosts: [], error: null } satisfies MailServers
  if (records.length === 1 && records[0]!.host === "")
    return { mxStatus: "null-mx", mxRecords: records, hosts: [], error: null } satisfies MailServers
  const unique = records.filter((r, i) => r.host !== "" && records.findIndex((o) => o.host === r.host) === i)
  const hosts = yield* Effect.forEach(
    unique.slice(0, MAX_MX_HOSTS),
    (r) =>
      Effect.either(resolver.addresses(r.host)).pipe(
        Effect.map((found): MailHost => {
          if (Either.isLeft(found)) return { ...r, status: "unknown", v4: [], v6: [] }
          const v4 = found.right.v4.slice(0, MAX_ADDRESSES_PER_FAMILY)
          const v6 = found.right.v6.slice(0, MAX_ADDRESSES_PER_FAMILY)
          return { ...r, status: v4.length + v6.length > 0 ? "ok" : "none", v4, v6 }
        })
      ),
    { concurrency: "unbounded" }
  )
  return { mxStatus: "answer", mxRecords: records, hosts, error: null } satisfies MailServers
})
