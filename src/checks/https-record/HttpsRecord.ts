/**
 * The domain's HTTPS resource record (RFC 9460): what it tells browsers before they connect (the
 * protocols the server speaks, its addresses, an ECH key), and whether that is true. `gather` asks
 * the HTTPS record at the apex (following AliasMode, §2.4.2), the addresses of each ServiceMode
 * target, and which of the record's TCP protocols the server selects by ALPN; `analyse` compares.
 * Absence is normal (most sites publish none) and is reported, not failed; ECH is reported only.
 */
import { Effect } from "effect"
import { Alpn } from "../../net/questions/Alpn.ts"
import type { AlpnAnswer } from "../../net/Web.ts"
import { readEchConfigList } from "../../records/EchConfig.ts"
import { decodeSvcb, keyName, type SvcbRecord } from "../../records/SvcbRecord.ts"
import { define, traced } from "../../kernel/Check.ts"
import { type Addresses, Facts, type FactsShape } from "../../kernel/Facts.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { HttpsRecordResult, AlpnCheck } from "./HttpsRecordResult.ts"

export * from "./HttpsRecordResult.ts"

/** ALPN ids a TCP handshake can confirm (RFC 7301); h3 runs over QUIC (RFC 9114) and cannot be. */
const TCP_PROTOCOLS = new Set(["h2", "http/1.1"])

/** AliasMode hops followed before giving up (§2.4.2 lets clients bound the chain; §3 suggests 8). */
const MAX_ALIASES = 4

type Lookup<A> =
  | { readonly outcome: "answer"; readonly value: A }
  | { readonly outcome: "none" }
  | { readonly outcome: "unknown"; readonly reason: string }

export interface ServiceGathered {
  readonly owner: string
  readonly rdata: string
  readonly addresses: Lookup<Addresses>
  readonly alpn: Lookup<ReadonlyArray<AlpnAnswer>>
}

export interface HttpsRecordGathered {
  readonly domain: string
  /** The names AliasMode records led through, the apex first. */
  readonly chain: ReadonlyArray<string>
  readonly records: Lookup<ReadonlyArray<ServiceGathered>>
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

const judgeHints = (
  hints: ReadonlyArray<string>,
  known: ReadonlyArray<string>,
  family: string,
  issues: Array<string>
) => {
  const stray = hints.filter((h) => !known.some((k) => sameAddress(k, h)))
  if (stray.length > 0)
    issues.push(
      `${family}hint ${stray.join(", ")} is not an address of the target (${known.join(", ") || "none"}) (RFC 9460 7.3)`
    )
  return stray.length === 0
}

/** One ServiceMode record against what the server and DNS say. */
const judgeService = (g: ServiceGathered, r: SvcbRecord) => {
  const issues: Array<string> = []
  const target = r.target === "." ? g.owner : r.target
  const alpnChecks = r.alpn.map((protocol): typeof AlpnCheck.Type => {
    if (!TCP_PROTOCOLS.has(protocol))
      return {
        protocol,
        negotiated: null,
        note: protocol.startsWith("h3")
          ? "runs over QUIC: not verified"
          : "not an HTTP protocol over TCP: not verified"
      }
    if (g.alpn.outcome !== "answer")
      return { protocol, negotiated: null, note: g.alpn.outcome === "unknown" ? g.alpn.reason : "not probed" }
    const answer = g.alpn.value.find((a) => a.offered === protocol)
    if (answer === undefined) return { protocol, negotiated: null, note: "not probed" }
    if (!answer.selected)
      issues.push(
        `alpn ${protocol} is not negotiated by ${target} (${answer.address})${answer.refusal ? `: ${answer.refusal}` : ""} (RFC 9460 7.1.2)`
      )
    return { protocol, negotiated: answer.selected, ...(answer.refusal ? { note: answer.refusal } : {}) }
  })
  let hintsMatch: boolean | null = null
  if (r.ipv4hint.length + r.ipv6hint.length > 0 && g.addresses.outcome !== "unknown") {
    const known = g.addresses.outcome === "answer" ? g.addresses.value : { v4: [], v6: [] }
    const v4 = judgeHints(r.ipv4hint, known.v4, "ipv4", issues)
    const v6 = judgeHints(r.ipv6hint, known.v6, "ipv6", issues)
    hintsMatch = v4 && v6
  }
  const unknownMandatory = r.mandatory.filter((k) => k > 6)
  if (unknownMandatory.length > 0)
    issues.push(
      `mandatory lists ${unknownMandatory.map(keyName).join(", ")}, which browsers do not know: they skip the record (RFC 9460 8)`
    )
  return {
    owner: g.owner,
    priority: r.priority,
    target,
    alpn: r.alpn,
    noDefaultAlpn: r.noDefaultAlpn,
    port: r.port,
    ipv4hint: r.ipv4hint,
    ipv6hint: r.ipv6hint,
    ech: r.ech !== null,
    ...(r.ech === null ? {} : { echConfig: readEchConfigList(Buffer.from(r.ech, "base64")) }),
    mandatory: r.mandatory.map(keyName),
    alpnChecks,
    hintsMatch,
    issues
  }
}

/** Pure and total. */
export const analyse = (g: HttpsRecordGathered, now: Date): HttpsRecordResult => {
  const base = { domain: g.domain, checkedAt: now.toISOString(), chain: [...g.chain] }
  if (g.records.outcome === "unknown")
    return {
      ...base,
      status: "unknown",
      records: [],
      malformed: [],
      echPresent: false,
      consistent: null,
      issues: [],
      note: `the HTTPS record could not be read: ${g.records.reason}`
    }
  if (g.records.outcome === "none" || g.records.value.length === 0)
    return {
      ...base,
      status: "absent",
      records: [],
      malformed: [],
      echPresent: false,
      consistent: null,
      issues: [],
      note: "no HTTPS record: browsers connect as usual (publishing one is optional, RFC 9460)"
    }
  const malformed: Array<string> = []
  const records = []
  for (const s of g.records.value) {
    const r = decodeSvcb(s.rdata)
    if ("error" in r) malformed.push(`${s.owner}: ${r.error}`)
    else if (r.priority !== 0) records.push(judgeService(s, r))
  }
  const issues = [
    ...malformed.map((m) => `malformed HTTPS record ${m} (RFC 9460 2.2)`),
    ...records.flatMap((r) => r.issues)
  ]
  const verified = records.some(
    (r) => r.hintsMatch !== null || r.alpnChecks.some((a) => a.negotiated !== null)
  )
  return {
    ...base,
    status: "present",
    records,
    malformed,
    echPresent: records.some((r) => r.ech),
    consistent: issues.length > 0 ? false : verified ? true : null,
    issues
  }
}

const lookupOf = <A, E extends { readonly message: string }>(
  effect: Effect.Effect<A, E>
): Effect.Effect<Lookup<A>> =>
  effect.pipe(
    Effect.map((value): Lookup<A> => ({ outcome: "answer", value })),
    Effect.catchAll((e) => Effect.succeed<Lookup<A>>({ outcome: "unknown", reason: e.message }))
  )

/** The HTTPS records at `name` as rdata hex (the answer's CNAME chain left out). */
const httpsAt = (facts: FactsShape, name: string) =>
  facts
    .query(name, "HTTPS")
    .pipe(Effect.map((a) => a.answers.filter((r) => r.type === "HTTPS").map((r) => String(r.data))))

export const gather = Effect.gen(function* () {
  const facts = yield* Facts
  const domain = facts.domain
  const chain: Array<string> = [domain]
  let owner: string = domain
  for (let hop = 0; ; hop++) {
    const found = yield* lookupOf(httpsAt(facts, owner))
    if (found.outcome !== "answer") return { domain, chain, records: found } satisfies HttpsRecordGathered
    if (found.value.length === 0)
      return { domain, chain, records: { outcome: "none" } } satisfies HttpsRecordGathered
    // AliasMode (priority 0): the service is at the target's records (§2.4.2); ServiceMode ignores aliases.
    const decoded = found.value.map(decodeSvcb)
    const alias = decoded.find(
      (r): r is SvcbRecord => !("error" in r) && r.priority === 0 && r.target !== "."
    )
    const service = decoded.some((r) => !("error" in r) && r.priority !== 0)
    if (alias && !service && hop < MAX_ALIASES && !chain.includes(alias.target)) {
      owner = alias.target
      chain.push(owner)
      continue
    }
    const services = yield* Effect.forEach(found.value, (rdata, i) => {
      const r = decoded[i]!
      if ("error" in r || r.priority === 0)
        return Effect.succeed<ServiceGathered>({
          owner,
          rdata,
          addresses: { outcome: "none" },
          alpn: { outcome: "none" }
        })
      const target = r.target === "." ? owner : r.target
      const protocols = r.alpn.filter((p) => TCP_PROTOCOLS.has(p))
      return Effect.all({
        addresses: lookupOf(facts.addresses(target)),
        alpn:
          protocols.length === 0
            ? Effect.succeed<Lookup<ReadonlyArray<AlpnAnswer>>>({ outcome: "none" })
            : lookupOf(
                facts.ask(Alpn, { host: target, protocols, ...(r.port === null ? {} : { port: r.port }) })
              )
      }).pipe(Effect.map((x): ServiceGathered => ({ owner, rdata, ...x })))
    })
    return { domain, chain, records: { outcome: "answer", value: services } } satisfies HttpsRecordGathered
  }
}).pipe(traced("HttpsRecord.gather", {}))

export const HttpsRecord = define(about, { gather, analyse, exampleGathered })
