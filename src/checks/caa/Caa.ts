/**
 * CAA against the certificates actually served: the issuer of the web site's certificate and of
 * each MX address's STARTTLS certificate must be permitted by the CAA set that governs the name
 * it serves (RFC 8659: the set found by climbing toward the root, `issue` or, for a wildcard,
 * `issuewild`). A certificate whose issuer the CA table does not know is unknown, never a failure.
 * `gather` reads the certificates through the fetch and the SMTP probes the scan already makes,
 * and asks CAA at each name of each climb; `analyse` (records/CaaRecord.ts) judges.
 */
import { Effect, Either, Fiber } from "effect"
import { AppConfig } from "../../Config.ts"
import { certificateFacts } from "../../net/Certificate.ts"
import type { DnsAnswer, DnsError } from "../../net/DnsTypes.ts"
import {
  type CaaIssuer,
  type CaaLookup,
  type CaaRecord,
  climb,
  coveringName,
  decide,
  permittedIssuers,
  relevantSet
} from "../../records/CaaRecord.ts"
import type { CaaData } from "../../records/DnsRdata.ts"
import { define } from "../../kernel/Check.ts"
import { Facts, type FactsShape } from "../../kernel/Facts.ts"
import { MailServers, targets } from "../../kernel/MailServers.ts"
import { type CheckStatus, worstOf } from "../../kernel/Status.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { identifiersOf } from "./Issuers.ts"
import { CaaReport, CaaCertificate } from "./CaaResult.ts"
import { bindingNote, parameterProblems, propertiesOf } from "./Properties.ts"

export * from "./CaaResult.ts"

export const CITATION_URL = "https://www.rfc-editor.org/rfc/rfc8659"

export const DESCRIPTION =
  "The certificate authority that issued each certificate the domain serves (web and mail servers) " +
  "is one its CAA records permit, so the next renewal is not refused."

/** One certificate the domain served, or why there is none to judge. */
export interface Served {
  readonly service: "web" | "mx"
  readonly host: string
  readonly address: string | null
  readonly certificate: {
    readonly issuer: string
    readonly subjectAltNames: ReadonlyArray<string>
    readonly selfIssued: boolean
  } | null
  /** No certificate: `none` (nothing served over TLS) or `unknown` (could not find out), and why. */
  readonly missing?: { readonly kind: "none" | "unknown"; readonly reason: string }
}

export interface CaaInput {
  readonly domain: string
  readonly issuers: ReadonlyArray<CaaIssuer>
  readonly served: ReadonlyArray<Served>
  /** The CAA answer of every name climbed, by name. */
  readonly lookups: Readonly<Record<string, CaaLookup>>
}

const presentation = (r: CaaRecord) => `${r.flags} ${r.tag} "${r.value}"`

/** The name a certificate's CAA is searched from, and whether the certificate covers it by a wildcard. */
export const searchedName = (s: Served): { readonly name: string; readonly covered: string | null } => {
  const covered = coveringName(s.host, s.certificate?.subjectAltNames ?? [])
  return { name: covered ?? s.host, covered }
}

/** RFC 8659 for one served certificate. Total. */
export const judgeCertificate = (
  s: Served,
  issuers: ReadonlyArray<CaaIssuer>,
  lookups: Readonly<Record<string, CaaLookup>>
): CaaCertificate => {
  const { name, covered } = searchedName(s)
  const wildcard = covered?.startsWith("*.") === true
  const identifiers = s.certificate ? identifiersOf(s.certificate.issuer, issuers) : []
  const base = {
    service: s.service,
    host: s.host,
    address: s.address,
    issuer: s.certificate?.issuer ?? null,
    caaIdentifiers: [...identifiers],
    coveredBy: covered,
    wildcard,
    caaAt: null,
    caaRecords: [],
    tag: null,
    permitted: []
  }
  const where = `${s.host}${s.address ? ` (${s.address})` : ""}`
  if (s.certificate === null) {
    const unknown = s.missing?.kind === "unknown"
    return {
      ...base,
      verdict: unknown ? "unknown" : "not-applicable",
      status: unknown ? "unknown" : "not-applicable",
      message: `${where}: ${s.missing?.reason ?? "no certificate"}`
    }
  }
  if (s.certificate.selfIssued)
    return {
      ...base,
      verdict: "not-applicable",
      status: "not-applicable",
      message: `${where}: self-signed, so no CA issued it and CAA does not apply`
    }
  const relevant = relevantSet(
    climb(name).map((n): CaaLookup => lookups[n] ?? { name: n, outcome: "unknown", reason: "not asked" })
  )
  if (relevant.kind === "unknown")
    return {
      ...base,
      verdict: "unknown",
      status: "unknown",
      message: `${where}: the CAA lookup of ${relevant.at} failed (${relevant.reason})`
    }
  if (relevant.kind === "none")
    return {
      ...base,
      verdict: "no-caa",
      status: "pass",
      message: `${where}: no CAA record up to the root, so any CA may issue`
    }
  const decision = decide(relevant.records, identifiers, wildcard)
  const properties = propertiesOf(relevant.records)
  const found = {
    ...base,
    caaAt: relevant.at,
    caaRecords: relevant.records.map(presentation),
    tag: decision.tag,
    permitted: decision.tag === null ? [] : permittedIssuers(relevant.records, decision.tag),
    properties: [...properties]
  }
  const issuer = s.certificate.issuer
  const bound =
    decision.verdict === "permitted" && decision.tag !== null && decision.issuer !== undefined
      ? bindingNote(properties, decision.tag, decision.issuer)
      : ""
  return decision.verdict === "permitted"
    ? {
        ...found,
        verdict: "permitted",
        status: "pass",
        message: `${where}: ${decision.detail} (issuer ${issuer})${bound}`
      }
    : decision.verdict === "forbidden"
      ? {
          ...found,
          verdict: "forbidden",
          status: "fail",
          message: `${where}: ${decision.detail} (issuer ${issuer})`
        }
      : {
          ...found,
          verdict: "unknown",
          status: "unknown",
          message: `${where}: ${decision.detail} (${issuer}); add it to CAA_ISSUERS to judge it`
        }
}

/** Pure and total; `now` stamps the result. */
export const analyse = (input: CaaInput, now: Date): CaaReport => {
  const certificates = input.served.map((s) => judgeCertificate(s, input.issuers, input.lookups))
  const judged = certificates.filter((c) => c.status !== "not-applicable")
  const status: CheckStatus = judged.length === 0 ? "not-applicable" : worstOf(judged.map((c) => c.status))
  return {
    domain: input.domain,
    timestamp: now.toISOString(),
    check: "caa",
    description: DESCRIPTION,
    result: {
      status,
      certificates,
      issues: certificates.filter((c) => c.status === "fail" || c.status === "unknown").map((c) => c.message),
      parameterProblems: [...parameterProblems(certificates)]
    },
    citationUrl: CITATION_URL
  }
}

export const toLookup = (name: string, answer: Either.Either<DnsAnswer, DnsError>): CaaLookup =>
  Either.isLeft(answer)
    ? { name, outcome: "unknown", reason: `${answer.left.reason}: ${answer.left.message}` }
    : {
        name,
        outcome: "records",
        // After a CNAME the records are the target's, which RFC 8659 §3 takes as the name's own.
        records: answer.right.answers.filter((r) => r.type === "CAA").map((r) => r.data as CaaData)
      }

/**
 * The home page as the headers check fetches it (the same question, so a scan makes it once): its
 * certificate, or, when the client does not trust it, the same page read without verification.
 */
const HOME_PAGE = { accept: "text/html,*/*;q=0.8", maxBytes: 65_536, truncateBody: true } as const

const webServed = (facts: FactsShape): Effect.Effect<Served> => {
  const fetchPage = (verifyTls: boolean) =>
    facts.fetch(`https://${facts.domain}/`, { verifyTls, ...HOME_PAGE })
  return fetchPage(true).pipe(
    Effect.catchIf(
      (e) => e.reason === "tls",
      () => fetchPage(false)
    ),
    Effect.map((res): Served => {
      const host = URL.canParse(res.finalUrl) ? new URL(res.finalUrl).hostname : facts.domain
      const served = { service: "web", host, address: res.address } as const
      const der = res.tls?.peerCertificate?.chain[0]
      if (!der)
        return {
          ...served,
          certificate: null,
          missing: { kind: "none", reason: "served no certificate (plain HTTP)" }
        }
      try {
        return { ...served, certificate: certificateFacts(Buffer.from(der)) }
      } catch {
        return {
          ...served,
          certificate: null,
          missing: { kind: "unknown", reason: "the certificate could not be read" }
        }
      }
    }),
    Effect.catchAll((e) =>
      Effect.succeed<Served>({
        service: "web",
        host: facts.domain,
        address: null,
        certificate: null,
        // No site at all is nothing to judge; anything else might have served a certificate.
        missing:
          e.reason === "connect" || e.reason === "no-address" || e.reason === "refused-address"
            ? { kind: "none", reason: `no HTTPS site (${e.reason})` }
            : { kind: "unknown", reason: `the HTTPS fetch failed (${e.reason}: ${e.message})` }
      })
    )
  )
}

const mxServed = (facts: FactsShape) =>
  Effect.gen(function* () {
    const servers = yield* facts.get(MailServers)
    // Every probe started, then awaited in turn in this fiber (no fiber per probe that only waits).
    const probing = yield* Effect.forEach(targets(servers), (t) => facts.startProbe(t.host, t.ip))
    return yield* Effect.forEach(targets(servers), (t, i) =>
      Effect.map(probing[i]!, (probe): Served => {
        const leaf = probe.tls?.chain[0]
        const base = { service: "mx" as const, host: t.host, address: t.ip }
        if (leaf) return { ...base, certificate: leaf }
        // Refused (nothing listens on port 25): no certificate served, an answer; any other
        // failure to connect might have hidden one.
        if (probe.failure?.reason === "refused")
          return {
            ...base,
            certificate: null,
            missing: {
              kind: "none",
              reason: `nothing accepts connections on port 25 (${probe.failure.message})`
            }
          }
        if (probe.status === "unknown")
          return {
            ...base,
            certificate: null,
            missing: { kind: "unknown", reason: "the server could not be reached" }
          }
        return {
          ...base,
          certificate: null,
          missing: { kind: "none", reason: probe.failure?.message ?? "no STARTTLS, so no certificate" }
        }
      })
    )
  })

export const gather = Effect.gen(function* () {
  const facts = yield* Facts
  const config = yield* AppConfig
  // The mail servers' in a fiber beside this one's web server: `Effect.all` would fork two more.
  const mxFiber = yield* Effect.fork(mxServed(facts))
  const web = yield* webServed(facts)
  const mx = yield* Fiber.join(mxFiber)
  const served = [web, ...mx]
  const names = [
    ...new Set(served.filter((s) => s.certificate !== null).flatMap((s) => climb(searchedName(s).name)))
  ]
  yield* facts.prefetch(names.map((name) => ({ name, type: "CAA" as const })))
  const lookups: Record<string, CaaLookup> = {}
  for (const name of names) lookups[name] = toLookup(name, yield* Effect.either(facts.query(name, "CAA")))
  return { domain: facts.domain, issuers: config.caaIssuers, served, lookups } satisfies CaaInput
})

/** The served certificates' issuers against CAA (the scan's `caa` check). */
export const Caa = define(about, { gather, analyse, exampleGathered: () => exampleGathered(toLookup) })
