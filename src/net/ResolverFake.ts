/**
 * The fake engine behind `Resolver.Test`: an in-memory zone answering at once, with the same
 * NXDOMAIN / NODATA, CNAME, DNSSEC-flag and failure semantics as the real one, for unit tests
 * and for the example domain the OpenAPI examples are computed over (src/kernel/examples).
 */
import { Effect } from "effect"
import type { Upstream } from "../Config.ts"
import { normaliseName } from "../records/DomainName.ts"
import { type DnsAnswer, DnsError, type DnsRecord } from "./DnsTypes.ts"
import { formatData, parseData } from "./DnsWire.ts"
import { show } from "./DnsTransport.ts"
import { type Ask, type Query, resolverOver } from "./ResolverShape.ts"

/**
 * An in-memory zone for unit tests. Keys are `"name TYPE"` (e.g. `"example.com TXT"`), optionally
 * suffixed with ` @address` to answer differently when that upstream is asked. Values:
 * - an array of presentation-format rdata strings (TXT without a leading quote is one string);
 * - `"SERVFAIL"`, `"TIMEOUT"`, `"REFUSED"` or `"NXDOMAIN"` to stage a failure / non-existence;
 * - `{ rdata, ad?, ttl?, bogus?, rrsig? }`: `ad` sets the AD flag, `bogus` answers SERVFAIL unless CD
 *   is set, `rrsig` adds signatures to the answer.
 * An absent key is NODATA if anything exists at or below the name, else NXDOMAIN; CNAMEs are followed.
 */
export type FakeEntry =
  | ReadonlyArray<string>
  | "SERVFAIL"
  | "TIMEOUT"
  | "REFUSED"
  | "NXDOMAIN"
  | {
      readonly rdata: ReadonlyArray<string>
      readonly ad?: boolean
      readonly ttl?: number
      readonly bogus?: boolean
      /** RRSIG rdata returned beside the records (as the DO bit does). */
      readonly rrsig?: ReadonlyArray<string>
    }
export type FakeZone = Readonly<Record<string, FakeEntry>>

/** The fake engine behind `Resolver.Test`. */
export const makeFake = (zone: FakeZone) => {
  const entries = new Map<string, FakeEntry>()
  for (const [key, value] of Object.entries(zone)) {
    const [name = "", type = "", at] = key.trim().split(/\s+/)
    entries.set(`${normaliseName(name)} ${type.toUpperCase()}${at ? ` ${at}` : ""}`, value)
  }
  const names = [...entries.keys()].map((k) => k.split(" ")[0]!)
  const exists = (name: string) => names.some((n) => n === name || n.endsWith(`.${name}`))
  const upstream: Upstream = { address: "192.0.2.53", port: 53 }
  const record = (name: string, type: string, text: string, ttl: number): DnsRecord => {
    const data = parseData(type, text)
    return { name, type, ttl, data, text: formatData(type, data) }
  }
  /** The enclosing zone's SOA for a negative answer (RFC 2308 3), when the zone has one. */
  const negativeSoa = (name: string): ReadonlyArray<DnsRecord> => {
    const labels = name.split(".")
    for (let i = 0; i < labels.length; i++) {
      const owner = labels.slice(i).join(".")
      const soa = entries.get(`${owner} SOA`)
      if (Array.isArray(soa) && soa.length > 0) return [record(owner, "SOA", soa[0] as string, 300)]
      if (
        soa &&
        typeof soa === "object" &&
        !Array.isArray(soa) &&
        "rdata" in soa &&
        soa.rdata[0] !== undefined
      )
        return [record(owner, "SOA", soa.rdata[0], 300)]
    }
    return []
  }
  const query: Query = (rawName, type, options = {}) =>
    Effect.suspend(() => {
      const resolver = show(options.upstream ?? upstream)
      const at = options.upstream ? ` @${options.upstream.address}` : ""
      const lookup = (n: string, t: string) => entries.get(`${n} ${t}${at}`) ?? entries.get(`${n} ${t}`)
      const fail = (name: string, reason: DnsError["reason"], message: string) =>
        Effect.fail(new DnsError({ name, type, reason, message }))
      const chain: Array<DnsRecord> = []
      let name = normaliseName(rawName)
      let ad = true
      for (let hop = 0; hop < 9; hop++) {
        const entry = lookup(name, type) ?? (type === "CNAME" ? undefined : lookup(name, "CNAME"))
        const isCname = lookup(name, type) === undefined && entry !== undefined
        const base = {
          name: normaliseName(rawName),
          type,
          rcode: "NOERROR",
          authority: negativeSoa(name),
          resolver,
          elapsedMs: 0,
          fromCache: false
        }
        const flags = (ok: boolean) => ({
          aa: false,
          tc: false,
          ra: true,
          ad: ok,
          cd: options.checkingDisabled === true
        })
        if (entry === "TIMEOUT") return fail(name, "timeout", `no reply from ${resolver} (fake)`)
        if (entry === "SERVFAIL") return fail(name, "servfail", `${resolver} answered SERVFAIL (fake)`)
        if (entry === "REFUSED") return fail(name, "refused", `${resolver} answered REFUSED (fake)`)
        if (entry === "NXDOMAIN" || (entry === undefined && !exists(name)))
          return Effect.succeed<DnsAnswer>({
            ...base,
            rcode: "NXDOMAIN",
            outcome: "nxdomain",
            flags: flags(false),
            answers: chain
          })
        if (entry === undefined)
          return Effect.succeed<DnsAnswer>({
            ...base,
            outcome: "nodata",
            flags: flags(false),
            answers: chain
          })
        const detail = Array.isArray(entry)
          ? { rdata: entry as ReadonlyArray<string> }
          : (entry as Exclude<FakeEntry, string | ReadonlyArray<string>>)
        if (detail.bogus && !options.checkingDisabled)
          return fail(name, "servfail", `${resolver} answered SERVFAIL (fake, bogus)`)
        ad = ad && detail.ad === true && !detail.bogus
        const records = detail.rdata.map((text) =>
          record(name, isCname ? "CNAME" : type, text, detail.ttl ?? 300)
        )
        chain.push(
          ...records,
          ...(detail.rrsig ?? []).map((text) => record(name, "RRSIG", text, detail.ttl ?? 300))
        )
        if (!isCname || records.length === 0)
          return Effect.succeed<DnsAnswer>({
            ...base,
            outcome: records.length > 0 ? "answer" : "nodata",
            authority: records.length > 0 ? [] : base.authority,
            flags: flags(ad),
            answers: chain
          })
        name = String(records[0]!.data)
      }
      return fail(name, "servfail", "CNAME chain too long (fake)")
    })
  // The fake answers at once: its Effect runs to its end synchronously.
  const ask: Ask = (name, type, options, asked) => asked.done(Effect.runSyncExit(query(name, type, options)))
  return resolverOver(ask, [upstream])
}
