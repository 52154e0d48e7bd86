/**
 * RPKI route-origin validation (RFC 6811) of the addresses the domain depends on: its web site,
 * its mail servers and its name servers. Each address's route (prefix and origin AS) is asked over
 * DNS in the origin zones (Team Cymru's convention, `RPKI_ORIGIN_ZONE` / `RPKI_ORIGIN6_ZONE`) and
 * validated against the Validated ROA Payloads of the configured source (`RPKI_VRPS`): valid,
 * invalid or not-found, as internet.nl reports it. Without a source the check is off: it asks
 * nothing, says `unknown` and scores nothing.
 */
import { Effect, Either } from "effect"
import { AppConfig } from "../../Config.ts"
import { Vrps } from "../../net/questions/Vrps.ts"
import type { VrpLoad } from "../../net/RpkiVrps.ts"
import { formatIp, parseIp } from "../../records/IpAddress.ts"
import {
  originName,
  parseOriginTxt,
  prefixText,
  type RouteState,
  validate,
  type Vrp
} from "../../records/RouteOrigin.ts"
import { define } from "../../kernel/Check.ts"
import { Facts, type FactsShape } from "../../kernel/Facts.ts"
import { MailServers, targets } from "../../kernel/MailServers.ts"
import { type CheckStatus, worstOf } from "../../kernel/Status.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { RpkiReport, RpkiAddress, RpkiSource } from "./RpkiResult.ts"
import { forEachConcurrently } from "../../kernel/Each.ts"

export * from "./RpkiResult.ts"

export const CITATION_URL = "https://www.rfc-editor.org/rfc/rfc6811"

export const DESCRIPTION =
  "Route origin validation: the route to each address of the web site, the mail servers and the " +
  "name servers is announced by an AS that a ROA authorises (RPKI), so a hijack of it is refused."

/** At most this many addresses per service are validated (a name server set can be large). */
export const MAX_ADDRESSES = 16

/** The origin zone's answer for one address. */
export type OriginLookup =
  | { readonly outcome: "answer"; readonly texts: ReadonlyArray<string> }
  | { readonly outcome: "unknown"; readonly reason: string }

export interface RpkiTarget {
  readonly service: "web" | "mx" | "ns"
  readonly host: string
  readonly ip: string
  readonly origin: OriginLookup
}

export interface RpkiInput {
  readonly domain: string
  readonly source: VrpLoad
  readonly targets: ReadonlyArray<RpkiTarget>
  /** Hosts whose addresses could not be resolved (unknown, not "no address"). */
  readonly unresolved: ReadonlyArray<string>
}

const vrpText = (v: Vrp) => `AS${v.asn} ${prefixText(v.prefix)}-${v.maxLength}`

/** RFC 6811 for one address's routes. Total. */
export const judgeAddress = (t: RpkiTarget, vrps: ReadonlyArray<Vrp>): RpkiAddress => {
  const base = { service: t.service, host: t.host, ip: t.ip }
  const where = `${t.host} (${t.ip})`
  if (t.origin.outcome === "unknown")
    return {
      ...base,
      routes: [],
      state: "unknown",
      status: "unknown",
      message: `${where}: the origin lookup failed (${t.origin.reason})`
    }
  const routes = t.origin.texts.flatMap(parseOriginTxt).map((route) => {
    const v = validate(route, vrps)
    return {
      prefix: prefixText(route.prefix),
      asn: route.asn,
      state: v.state,
      vrp: v.matched ? vrpText(v.matched) : null
    }
  })
  if (routes.length === 0)
    return {
      ...base,
      routes,
      state: "unknown",
      status: "unknown",
      message: `${where}: no route announces it`
    }
  const states = routes.map((r) => r.state)
  const state: RouteState = states.includes("invalid")
    ? "invalid"
    : states.every((s) => s === "valid")
      ? "valid"
      : "not-found"
  const listed = routes.map((r) => `${r.prefix} from AS${r.asn}`).join(", ")
  return state === "valid"
    ? { ...base, routes, state, status: "pass", message: `${where}: ${listed} is RPKI-valid` }
    : state === "invalid"
      ? {
          ...base,
          routes,
          state,
          status: "fail",
          message: `${where}: ${routes
            .filter((r) => r.state === "invalid")
            .map((r) => `${r.prefix} from AS${r.asn}`)
            .join(", ")} is RPKI-invalid: ROAs cover it for another origin or a shorter prefix`
        }
      : { ...base, routes, state, status: "warning", message: `${where}: no ROA covers ${listed}` }
}

const sourceOf = (load: VrpLoad): typeof RpkiSource.Type =>
  load.status === "loaded"
    ? { status: "loaded", vrps: load.vrps.length, loadedAt: load.loadedAt, reason: null }
    : load.status === "off"
      ? { status: "off", vrps: null, loadedAt: null, reason: "no RPKI_VRPS source configured" }
      : { status: "unavailable", vrps: null, loadedAt: null, reason: load.reason }

/** Pure and total; `now` stamps the result. */
export const analyse = (input: RpkiInput, now: Date): RpkiReport => {
  const source = sourceOf(input.source)
  const vrps = input.source.status === "loaded" ? input.source.vrps : null
  const addresses = vrps === null ? [] : input.targets.map((t) => judgeAddress(t, vrps))
  const issues: Array<string> = []
  if (vrps === null) issues.push(`route origins not validated: ${source.reason}`)
  for (const host of input.unresolved) issues.push(`addresses of ${host} could not be resolved`)
  for (const a of addresses) if (a.status !== "pass") issues.push(a.message)
  const status: CheckStatus =
    vrps === null
      ? "unknown"
      : addresses.length === 0
        ? input.unresolved.length > 0
          ? "unknown"
          : "not-applicable"
        : worstOf([
            ...addresses.map((a) => a.status),
            ...(input.unresolved.length > 0 ? ["unknown" as const] : [])
          ])
  return {
    domain: input.domain,
    timestamp: now.toISOString(),
    check: "rpki",
    description: DESCRIPTION,
    result: { status, source, addresses, issues },
    citationUrl: CITATION_URL
  }
}

interface Host {
  readonly service: "web" | "mx" | "ns"
  readonly host: string
}

/** The web host, the mail servers and the name servers, each with its addresses (or unresolved). */
const hostsOf = (facts: FactsShape) =>
  Effect.gen(function* () {
    const servers = yield* facts.get(MailServers)
    const ns = yield* Effect.either(facts.query(facts.domain, "NS"))
    const nsHosts = Either.isRight(ns)
      ? ns.right.answers
          .filter((r) => r.type === "NS")
          .map((r) => String(r.data).toLowerCase().replace(/\.$/, ""))
      : []
    const wanted: ReadonlyArray<Host> = [
      { service: "web", host: facts.domain },
      ...nsHosts.slice(0, MAX_ADDRESSES).map((host) => ({ service: "ns" as const, host }))
    ]
    const resolved = yield* forEachConcurrently(wanted, (h) => Effect.either(facts.addresses(h.host)), 8)
    const found: Array<{ service: Host["service"]; host: string; ip: string }> = []
    const unresolved: Array<string> = Either.isLeft(ns) ? [`${facts.domain} NS`] : []
    wanted.forEach((h, i) => {
      const r = resolved[i]!
      if (Either.isLeft(r)) unresolved.push(h.host)
      else for (const ip of [...r.right.v4, ...r.right.v6].slice(0, MAX_ADDRESSES)) found.push({ ...h, ip })
    })
    for (const t of targets(servers).slice(0, MAX_ADDRESSES))
      found.push({ service: "mx", host: t.host, ip: t.ip })
    for (const h of servers.hosts) if (h.status === "unknown") unresolved.push(h.host)
    const seen = new Set<string>()
    const unique = found.filter((f) => {
      const parsed = parseIp(f.ip)
      const key = `${f.service}\u0000${parsed ? formatIp(parsed) : f.ip}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
    return { found: unique, unresolved }
  })

export const gather = Effect.gen(function* () {
  const facts = yield* Facts
  const config = yield* AppConfig
  const source: VrpLoad = yield* facts.ask(Vrps, undefined)
  // Off or unreadable: nothing to validate against, so nothing is asked (a scan is unchanged).
  if (source.status !== "loaded")
    return { domain: facts.domain, source, targets: [], unresolved: [] } satisfies RpkiInput
  const { found, unresolved } = yield* hostsOf(facts)
  const names = found.map((f) => originName(f.ip, config.rpkiOriginZone, config.rpkiOrigin6Zone))
  yield* facts.prefetch(names.flatMap((name) => (name === null ? [] : [{ name, type: "TXT" as const }])))
  const targetsOut: Array<RpkiTarget> = []
  for (const [i, f] of found.entries()) {
    const name = names[i]
    const texts = name
      ? yield* Effect.either(facts.txt(name))
      : Either.left({ reason: "not an address", message: f.ip })
    targetsOut.push({
      ...f,
      origin: Either.isRight(texts)
        ? { outcome: "answer", texts: texts.right }
        : { outcome: "unknown", reason: `${texts.left.reason}: ${texts.left.message}` }
    })
  }
  return { domain: facts.domain, source, targets: targetsOut, unresolved } satisfies RpkiInput
})

/** Route-origin validation of the domain's addresses (the scan's `rpki` check). */
export const Rpki = define(about, { gather, analyse, exampleGathered })
