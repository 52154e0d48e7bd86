/**
 * The DNS settings of AppConfig (`Config.ts` spreads them into its settings): the resolvers asked,
 * the DNS cache, the propagation check's resolvers and the blocklist zones.
 */
import { Config, ConfigError, Either } from "effect"
import { list, ms } from "./ConfigValues.ts"

/** A DNS server to ask: `address` is an IP literal, `port` usually 53. */
export interface Upstream {
  readonly address: string
  readonly port: number
}

/** A resolver asked by the propagation check, with the labels shown to the user. */
export interface PropagationResolver extends Upstream {
  readonly name: string
  readonly location: string
  readonly country: string
}

/** A DNS blocklist zone with the label and severity shown when an address is listed. */
export interface DnsblZone {
  readonly zone: string
  readonly name: string
  readonly severity: "high" | "medium" | "low"
}

/** `1.1.1.1`, `1.1.1.1:5353`, `2606:4700::1111` or `[2606:4700::1111]:53`. */
export const parseUpstream = (text: string): Upstream | undefined => {
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(text)
  if (bracketed) return { address: bracketed[1]!, port: Number(bracketed[2] ?? 53) }
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?$/.exec(text)
  if (v4) return { address: v4[1]!, port: Number(v4[2] ?? 53) }
  if (/^[0-9a-fA-F:]+$/.test(text) && text.includes(":")) return { address: text, port: 53 }
  return undefined
}

const upstreams = (name: string, fallback: string) =>
  list(name, fallback).pipe(
    Config.mapOrFail((items) => {
      const parsed = items.map(parseUpstream)
      const bad = items.find((_, i) => parsed[i] === undefined)
      return bad === undefined
        ? Either.right(parsed as Array<Upstream>)
        : Either.left(ConfigError.InvalidData([name], `'${bad}' is not an IP address with an optional :port`))
    })
  )

/** Entries `address|name|location|country` separated by commas (address may carry :port). */
const DEFAULT_PROPAGATION = [
  "1.1.1.1|Cloudflare|San Francisco|US",
  "8.8.8.8|Google Public DNS|Mountain View|US",
  "9.9.9.9|Quad9|Zurich|CH",
  "208.67.222.222|OpenDNS|San Francisco|US",
  "94.140.14.14|AdGuard DNS|Limassol|CY",
  "77.88.8.8|Yandex DNS|Moscow|RU",
  "185.228.168.9|CleanBrowsing|London|GB",
  "64.6.64.6|UltraDNS|Reston|US"
].join(",")

const propagationResolvers = list("PROPAGATION_RESOLVERS", DEFAULT_PROPAGATION).pipe(
  Config.mapOrFail((items) => {
    const out: Array<PropagationResolver> = []
    for (const item of items) {
      const [addr = "", name, location = "unknown", country = "??"] = item.split("|").map((s) => s.trim())
      const upstream = parseUpstream(addr)
      if (!upstream)
        return Either.left(
          ConfigError.InvalidData(
            ["PROPAGATION_RESOLVERS"],
            `'${item}' must be address|name|location|country`
          )
        )
      out.push({ ...upstream, name: name || addr, location, country })
    }
    return Either.right(out)
  })
)

const KNOWN_DNSBLS: Record<string, Omit<DnsblZone, "zone">> = {
  "zen.spamhaus.org": { name: "Spamhaus ZEN", severity: "high" },
  "bl.spamcop.net": { name: "SpamCop", severity: "medium" },
  "b.barracudacentral.org": { name: "Barracuda", severity: "medium" },
  "psbl.surriel.com": { name: "PSBL", severity: "low" },
  "dnsbl.sorbs.net": { name: "SORBS", severity: "low" }
}

/** Entries `zone` or `zone|name|severity`; known zones get their usual name and severity. */
const dnsblZones = list("DNSBL_ZONES", Object.keys(KNOWN_DNSBLS).slice(0, 3).join(",")).pipe(
  Config.map((items) =>
    items.map((item): DnsblZone => {
      const [zone = "", name, severity] = item.split("|").map((s) => s.trim())
      const known = KNOWN_DNSBLS[zone.toLowerCase()]
      const sev = severity === "high" || severity === "medium" || severity === "low" ? severity : undefined
      return {
        zone: zone.toLowerCase(),
        name: name || known?.name || zone,
        severity: sev ?? known?.severity ?? "medium"
      }
    })
  )
)

export const dnsSettings = {
  dnsResolvers: upstreams("DNS_RESOLVERS", ""),
  dnsTimeoutMs: ms("DNS_TIMEOUT_MS", 2_000),
  dnsRetries: Config.integer("DNS_RETRIES").pipe(Config.withDefault(2)),
  dnsCacheSize: Config.integer("DNS_CACHE_SIZE").pipe(Config.withDefault(10_000)),
  propagationResolvers,
  dnsblZones
}
