/**
 * The settings of the checks of what a domain depends on (docs/dependencies.md), part of AppConfig
 * (`Config.ts` spreads them into its settings; docs/configuration.md lists them): the name servers'
 * direct questions, issuers the CA table lacks, the RPKI payloads' source and the origin zones, and
 * where registration data is asked (RDAP).
 */
import { Config, ConfigError, Either } from "effect"
import { type CaaIssuer, parseCaaIssuer } from "./records/CaaRecord.ts"
import { parseEvery } from "./records/IsoDuration.ts"
import { duration, ms } from "./ConfigValues.ts"

/** `CAA_ISSUERS`: `Issuer Name=caa.domain[ other.domain],...` (a private CA, such as the world's). */
const caaIssuers = Config.string("CAA_ISSUERS").pipe(
  Config.withDefault(""),
  Config.mapOrFail((raw) => {
    const items = raw
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item.length > 0)
    const parsed = items.map(parseCaaIssuer)
    const bad = items.find((_, i) => parsed[i] === null)
    return bad === undefined
      ? Either.right(parsed as ReadonlyArray<CaaIssuer>)
      : Either.left(
          ConfigError.InvalidData(["CAA_ISSUERS"], `'${bad}' is not 'Issuer Name=caa.domain[ other.domain]'`)
        )
  })
)

/** `RDAP_CACHE_TTL`: an ISO 8601 duration (`PT12H`), in milliseconds. */
const rdapCacheTtl = Config.string("RDAP_CACHE_TTL").pipe(
  Config.withDefault("PT12H"),
  Config.mapOrFail((text) => {
    const parsed = parseEvery(text)
    return "ms" in parsed
      ? Either.right(parsed.ms)
      : Either.left(ConfigError.InvalidData(["RDAP_CACHE_TTL"], parsed.error))
  })
)

export const dependencySettings = {
  // the name-server check (checks/nameservers/): each direct question's wait, and how many name
  // server addresses one scan asks (four questions each)
  nsQueryTimeoutMs: Config.integer("NS_QUERY_TIMEOUT_MS").pipe(Config.withDefault(2_000)),
  nsMaxAddresses: Config.integer("NS_MAX_ADDRESSES").pipe(Config.withDefault(8)),
  caaIssuers,
  // the VRP source (a file or URL; empty: route-origin validation off), re-read after the refresh
  rpkiVrps: Config.string("RPKI_VRPS").pipe(Config.withDefault("")),
  rpkiVrpsRefreshMs: Config.integer("RPKI_VRPS_REFRESH_MS").pipe(Config.withDefault(3_600_000)),
  // a source that could not be read is tried again after this at most (not a whole refresh)
  rpkiVrpsRetryMs: ms("RPKI_VRPS_RETRY_MS", 60_000),
  rpkiVrpsMaxBytes: Config.integer("RPKI_VRPS_MAX_BYTES").pipe(Config.withDefault(134_217_728)),
  // where an address's route is asked over DNS (Team Cymru's convention)
  rpkiOriginZone: Config.string("RPKI_ORIGIN_ZONE").pipe(Config.withDefault("origin.asn.cymru.com")),
  rpkiOrigin6Zone: Config.string("RPKI_ORIGIN6_ZONE").pipe(Config.withDefault("origin6.asn.cymru.com")),
  // registration data (net/Rdap.ts): an IANA dns.json file or URL (empty: off) and how long it is
  // used before it is read again, how long an answer is kept per registrable domain (a failed
  // question: shorter), and how many RDAP requests run at once
  rdapBootstrap: Config.string("RDAP_BOOTSTRAP").pipe(Config.withDefault("")),
  rdapBootstrapRefreshMs: duration("RDAP_BOOTSTRAP_REFRESH", "PT10M"),
  rdapCacheTtlMs: rdapCacheTtl,
  rdapFailureTtlMs: duration("RDAP_FAILURE_TTL", "PT1M"),
  rdapConcurrency: Config.integer("RDAP_CONCURRENCY").pipe(Config.withDefault(4))
}
