/**
 * Rdap: registration data of domains (RFC 9082 queries, RFC 9083 answers), found through a
 * bootstrap registry (RFC 9224) read from `RDAP_BOOTSTRAP`, a file or an https URL of an IANA
 * `dns.json`. Without the setting it is off: every answer is `off`, which checks read as "not
 * checked", never as a failure.
 *
 * Registrations change rarely, so answers are kept per domain for `RDAP_CACHE_TTL` across scans (a
 * failed question for `RDAP_FAILURE_TTL` only) in the transport cache (TransportCache.ts), concurrent questions
 * for one domain share one request, and at most `RDAP_CONCURRENCY` requests run at once: registries rate-limit, and a batch names the same
 * provider domains (SPF includes, MX hosts) over and over.
 */
import { Effect, Either, Layer } from "effect"
import * as fs from "node:fs"
import { AppConfig } from "../Config.ts"
import {
  baseUrlsFor,
  type Bootstrap,
  domainQueryUrl,
  type DomainRegistration,
  parseBootstrap,
  parseDomainObject
} from "../records/RdapData.ts"
import { Permits } from "../bounds/Permits.ts"
import { makeTransportCache } from "./TransportCache.ts"
import { Web, type WebResponse } from "./Web.ts"

/** What RDAP says of one registrable domain. */
export type RdapAnswer =
  | ({ readonly outcome: "registered"; readonly url: string } & DomainRegistration)
  /** RFC 9082 / RFC 7480 5.3: 404 from the authoritative server, the name is not registered. */
  | { readonly outcome: "not-registered"; readonly url: string }
  /** The bootstrap names no server for the name's TLD (many ccTLDs run none). */
  | { readonly outcome: "unsupported"; readonly reason: string }
  /** The question could not be answered (timeout, server error, unreadable answer). */
  | { readonly outcome: "unknown"; readonly reason: string }
  /** No `RDAP_BOOTSTRAP` configured. */
  | { readonly outcome: "off" }

const MAX_ENTRIES = 50_000
const RDAP_ACCEPT = "application/rdap+json, application/json;q=0.9"

const json = (response: WebResponse): unknown => {
  try {
    return JSON.parse(new TextDecoder().decode(response.body))
  } catch {
    return undefined
  }
}

/** One domain query against the servers for its TLD, the first that answers settles it. */
const ask = (
  get: (url: string) => Effect.Effect<WebResponse, unknown>,
  bases: ReadonlyArray<string>,
  domain: string
): Effect.Effect<RdapAnswer> =>
  Effect.gen(function* () {
    let reason = "no RDAP server"
    for (const base of bases) {
      const url = domainQueryUrl(base, domain)
      const response = yield* Effect.either(get(url))
      if (Either.isLeft(response)) {
        const error = response.left as { message?: string }
        reason = `${url}: ${error.message ?? String(error)}`
        continue
      }
      const { status } = response.right
      if (status === 404) return { outcome: "not-registered", url }
      if (status !== 200) {
        reason = `${url} answered HTTP ${status}`
        continue
      }
      const parsed = parseDomainObject(json(response.right))
      if (Either.isLeft(parsed)) {
        reason = `${url}: ${parsed.left}`
        continue
      }
      return { outcome: "registered", url, ...parsed.right }
    }
    return { outcome: "unknown", reason }
  })

export interface RdapShape {
  /** RDAP of `domain` (a registrable domain, in any case), from the cache when known. */
  readonly lookup: (domain: string) => Effect.Effect<RdapAnswer>
}

export interface RdapSettings {
  /** How long an answer is kept (`RDAP_CACHE_TTL`), a failed question's (`RDAP_FAILURE_TTL`). */
  readonly cacheTtlMs: number
  readonly failureTtlMs: number
  /** How long a loaded bootstrap, or the failure to load it, is used (`RDAP_BOOTSTRAP_REFRESH`). */
  readonly bootstrapRefreshMs: number
  readonly concurrency: number
}

/** The service over a web client: `source` is the bootstrap's path or URL ("" = off). */
export const makeRdap = (
  source: string,
  settings: RdapSettings,
  get: (url: string, accept: string) => Effect.Effect<WebResponse, unknown>
) =>
  Effect.gen(function* () {
    if (source === "")
      return { lookup: () => Effect.succeed({ outcome: "off" as const }) } satisfies RdapShape
    const loadBootstrap: Effect.Effect<Either.Either<Bootstrap, string>> = /^https?:\/\//.test(source)
      ? Effect.map(Effect.either(get(source, "application/json")), (r) =>
          Either.isLeft(r)
            ? Either.left(`the RDAP bootstrap ${source} could not be fetched`)
            : r.right.status !== 200
              ? Either.left(`the RDAP bootstrap ${source} answered HTTP ${r.right.status}`)
              : parseBootstrap(json(r.right))
        )
      : Effect.sync(() => {
          try {
            return parseBootstrap(JSON.parse(fs.readFileSync(source, "utf8")))
          } catch (e) {
            return Either.left(`the RDAP bootstrap ${source} could not be read: ${String(e)}`)
          }
        })
    // A bootstrap that failed to load is asked again after a while, not kept for the life of the process.
    const bootstrap = yield* Effect.cachedWithTTL(loadBootstrap, settings.bootstrapRefreshMs)
    // The one permit pool: a scan's wait for one counts on its queue clock, not on its budget
    const permits = new Permits(Math.max(1, settings.concurrency))

    const fresh = (domain: string): Effect.Effect<RdapAnswer> =>
      Effect.flatMap(bootstrap, (loaded) => {
        if (Either.isLeft(loaded)) return Effect.succeed({ outcome: "unknown", reason: loaded.left })
        const bases = baseUrlsFor(loaded.right, domain)
        if (bases.length === 0)
          return Effect.succeed({
            outcome: "unsupported",
            reason: `the RDAP bootstrap names no server for .${domain.split(".").pop()}`
          })
        return permits.holding(ask((url) => get(url, RDAP_ACCEPT), bases, domain))
      })

    // The transport cache: one request per domain in flight, a failure kept shorter.
    const cache = yield* makeTransportCache("rdap", String, String, fresh, {
      capacity: MAX_ENTRIES,
      ttlMs: (answer) => (answer.outcome === "unknown" ? settings.failureTtlMs : settings.cacheTtlMs)
    })
    // Names compare without case (RFC 4343): a dependency's name as a zone wrote it shares the entry.
    const lookup = (domain: string): Effect.Effect<RdapAnswer> => cache.get(domain.toLowerCase())
    return { lookup } satisfies RdapShape
  })

export class Rdap extends Effect.Service<Rdap>()("Rdap", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const web = yield* Web
    return yield* makeRdap(
      config.rdapBootstrap,
      {
        cacheTtlMs: config.rdapCacheTtlMs,
        failureTtlMs: config.rdapFailureTtlMs,
        bootstrapRefreshMs: config.rdapBootstrapRefreshMs,
        concurrency: config.rdapConcurrency
      },
      (url, accept) => web.get(url, { accept, maxBytes: 262_144 })
    )
  })
}) {
  /** A fake answering from a table (domains absent from it are not registered). */
  static Test = (table: Readonly<Record<string, RdapAnswer>>) =>
    Layer.succeed(
      Rdap,
      Rdap.make({
        lookup: (domain) =>
          Effect.succeed(
            table[domain] ?? { outcome: "not-registered", url: `https://rdap.test/domain/${domain}` }
          )
      })
    )
}
