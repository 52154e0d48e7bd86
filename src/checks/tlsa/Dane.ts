/**
 * DANE for SMTP (RFC 7672, with the operational rules of RFC 7671): compare the TLSA RRset of
 * `_25._tcp.<mx>` with the chain each MX address actually presented. Pure: the TLSA lookup and the
 * SMTP sessions are gathered elsewhere.
 */
import { createHash, X509Certificate } from "node:crypto"
import { Effect, Either } from "effect"
import type { DnsAnswer, DnsError } from "../../net/Dns.ts"
import type { TlsaData } from "../../net/DnsWire.ts"
import { Resolver } from "../../net/Resolver.ts"
import { Smtp, type SmtpProbe } from "../../net/Smtp.ts"
import { bareHost, type MailHost, mailServers } from "../MailServers.ts"
import type { TlsaFacts, TlsaResult } from "./Tlsa.ts"
import type { CertificateFacts } from "../../net/Certificate.ts"
import { type CheckStatus, worstOf } from "../Status.ts"

export interface TlsaInput {
  readonly usage: number
  readonly selector: number
  readonly matchingType: number
  /** Certificate association data, hex (case and whitespace are ignored). */
  readonly data: string
}

/** What one MX address showed us (a projection of the Smtp probe). */
export interface DaneServerInput {
  readonly address: string
  readonly status: "complete" | "unknown" | "error"
  readonly stalledStage: string | null
  readonly starttls: boolean
  readonly chain: ReadonlyArray<Pick<CertificateFacts, "der" | "spkiDer" | "subject">> | null
  readonly hostnameMatch: boolean | null
}

export interface DaneInput {
  readonly host: string
  readonly tlsaDomain: string
  /** `answer`: records exist; `none`: NXDOMAIN/NODATA; `unknown`: the lookup failed. */
  readonly lookup: "answer" | "none" | "unknown"
  /** The AD bit of a validating resolver (RFC 4035 3.2.3). */
  readonly validated: boolean
  readonly records: ReadonlyArray<TlsaInput>
  readonly servers: ReadonlyArray<DaneServerInput>
}

export interface DaneRecordResult {
  readonly usage: number
  readonly selector: number
  readonly matchingType: number
  readonly data: string
  readonly usageDescription: string
  readonly selectorDescription: string
  readonly matchingTypeDescription: string
  /** RFC 7672 3.1.3: PKIX-TA(0) and PKIX-EE(1) are unusable for SMTP; unknown parameters too. */
  readonly usable: boolean
  readonly note: string | null
  /** Addresses whose presented chain this record matched. */
  readonly matchedBy: ReadonlyArray<string>
}

export interface DaneServerResult {
  readonly address: string
  readonly status: CheckStatus
  readonly matched: boolean
  /** Index in the presented chain of the matched certificate (0 = leaf). */
  readonly matchedCertificate: number | null
  readonly reason: string
}

export interface DaneResult {
  readonly host: string
  readonly tlsaDomain: string
  readonly exists: boolean
  readonly dnssecValidated: boolean
  readonly records: ReadonlyArray<DaneRecordResult>
  readonly servers: ReadonlyArray<DaneServerResult>
  /** True only when the RRset is DNSSEC-validated and every reachable address matched. */
  readonly daneValid: boolean
  readonly status: CheckStatus
  readonly issues: ReadonlyArray<string>
}

export const USAGES: Record<number, string> = {
  0: "PKIX-TA: CA constraint (unusable for SMTP, RFC 7672 3.1.3)",
  1: "PKIX-EE: service certificate constraint (unusable for SMTP, RFC 7672 3.1.3)",
  2: "DANE-TA: trust anchor assertion",
  3: "DANE-EE: domain-issued certificate"
}
export const SELECTORS: Record<number, string> = {
  0: "Cert: full certificate",
  1: "SPKI: SubjectPublicKeyInfo"
}
export const MATCHING_TYPES: Record<number, string> = {
  0: "Full: exact match",
  1: "SHA-256",
  2: "SHA-512"
}

const normalise = (hex: string) => hex.replace(/\s+/g, "").toLowerCase()

/** RFC 6698 2.1.2-2.1.3: the selected bytes, hashed per the matching type; null when unsupported. */
export const associationData = (
  cert: Pick<CertificateFacts, "der" | "spkiDer">,
  selector: number,
  matchingType: number
): string | null => {
  const bytes =
    selector === 0
      ? Buffer.from(cert.der, "base64")
      : selector === 1
        ? Buffer.from(cert.spkiDer, "base64")
        : null
  if (!bytes) return null
  if (matchingType === 0) return bytes.toString("hex")
  if (matchingType === 1) return createHash("sha256").update(bytes).digest("hex")
  if (matchingType === 2) return createHash("sha512").update(bytes).digest("hex")
  return null
}

/** Whether chain[0..index] is an issuer-signed path (each certificate signed by the next). */
const linksTo = (chain: ReadonlyArray<Pick<CertificateFacts, "der">>, index: number): boolean => {
  try {
    for (let i = 0; i < index; i++) {
      const child = new X509Certificate(Buffer.from(chain[i]!.der, "base64"))
      const parent = new X509Certificate(Buffer.from(chain[i + 1]!.der, "base64"))
      if (!child.checkIssued(parent) || !child.verify(parent.publicKey)) return false
    }
    return true
  } catch {
    return false
  }
}

const usability = (r: TlsaInput): string | null => {
  if (r.usage === 0 || r.usage === 1) return "PKIX usages are unusable with SMTP (RFC 7672 3.1.3)"
  if (r.usage !== 2 && r.usage !== 3) return `unknown usage ${r.usage} (RFC 7671 4.1: ignored)`
  if (r.selector !== 0 && r.selector !== 1) return `unknown selector ${r.selector} (ignored)`
  if (r.matchingType !== 0 && r.matchingType !== 1 && r.matchingType !== 2)
    return `unknown matching type ${r.matchingType} (ignored)`
  if (!/^[0-9a-f]*$/.test(normalise(r.data))) return "association data is not hex"
  return null
}

/**
 * Which certificate of the presented chain a usable record matches (RFC 7671 5.1, 5.2):
 * DANE-EE(3) only the leaf, names and dates ignored; DANE-TA(2) an issuer in the chain that the
 * leaf chains up to, and the leaf must carry the MX host name (RFC 7672 3.2.2).
 */
export const matchRecord = (
  record: TlsaInput,
  chain: ReadonlyArray<Pick<CertificateFacts, "der" | "spkiDer">>,
  hostnameMatch: boolean | null
): number | null => {
  const want = normalise(record.data)
  if (want.length === 0) return null
  const candidates = record.usage === 3 ? [0] : record.usage === 2 ? chain.map((_, i) => i).slice(1) : []
  for (const index of candidates) {
    const cert = chain[index]
    if (!cert || associationData(cert, record.selector, record.matchingType) !== want) continue
    if (record.usage === 2 && (!linksTo(chain, index) || hostnameMatch !== true)) continue
    return index
  }
  return null
}

/** The verdict for one MX host. Total: never throws, whatever the input. */
export const analyse = (input: DaneInput): DaneResult => {
  const issues: Array<string> = []
  const usable = input.records.map(usability)
  const usableRecords = input.records.filter((_, i) => usable[i] === null)
  const servers: Array<DaneServerResult> = []
  const matchedBy = input.records.map(() => [] as Array<string>)
  for (const server of input.servers) {
    let matched: { record: number; cert: number } | null = null
    if (server.chain) {
      input.records.forEach((record, i) => {
        if (usable[i] !== null) return
        const cert = matchRecord(record, server.chain!, server.hostnameMatch)
        if (cert !== null) {
          matchedBy[i]!.push(server.address)
          matched ??= { record: i, cert }
        }
      })
    }
    const m = matched as { record: number; cert: number } | null
    const [status, reason]: [CheckStatus, string] =
      server.status === "unknown"
        ? ["unknown", `no answer (stalled at ${server.stalledStage ?? "connect"})`]
        : !server.starttls
          ? ["fail", "STARTTLS not offered: a DANE sender defers delivery (RFC 7672 2.2)"]
          : !server.chain || server.chain.length === 0
            ? ["fail", "TLS handshake failed or presented no certificate"]
            : m
              ? ["pass", `matches TLSA ${recordText(input.records[m.record]!)} at chain position ${m.cert}`]
              : ["fail", "no usable TLSA record matches the presented chain"]
    servers.push({
      address: server.address,
      status,
      matched: m !== null,
      matchedCertificate: m?.cert ?? null,
      reason
    })
  }
  const records: Array<DaneRecordResult> = input.records.map((r, i) => ({
    usage: r.usage,
    selector: r.selector,
    matchingType: r.matchingType,
    data: normalise(r.data),
    usageDescription: USAGES[r.usage] ?? `unknown (${r.usage})`,
    selectorDescription: SELECTORS[r.selector] ?? `unknown (${r.selector})`,
    matchingTypeDescription: MATCHING_TYPES[r.matchingType] ?? `unknown (${r.matchingType})`,
    usable: usable[i] === null,
    note: usable[i] ?? null,
    matchedBy: matchedBy[i]!
  }))
  const exists = input.lookup === "answer" && input.records.length > 0
  let status: CheckStatus
  if (input.lookup === "unknown") {
    status = "unknown"
    issues.push(`TLSA lookup for ${input.tlsaDomain} failed: DANE status unknown`)
  } else if (!exists) {
    status = "missing"
  } else if (!input.validated) {
    status = "warning"
    issues.push(
      `TLSA at ${input.tlsaDomain} is not DNSSEC-validated: senders must ignore it (RFC 7672 2.2); sign the zone`
    )
  } else if (usableRecords.length === 0) {
    status = "fail"
    issues.push(`no usable TLSA record at ${input.tlsaDomain} (only PKIX or unknown parameters)`)
  } else if (servers.length === 0) {
    status = "unknown"
    issues.push(`no address of ${input.host} could be checked against its TLSA records`)
  } else {
    status = servers.some((s) => s.status === "fail")
      ? "fail"
      : servers.some((s) => s.status === "unknown")
        ? "unknown"
        : "pass"
    for (const s of servers) if (s.status === "fail") issues.push(`${input.host} (${s.address}): ${s.reason}`)
  }
  if (exists && input.validated)
    for (const r of records) if (!r.usable) issues.push(`TLSA ${recordText(r)}: ${r.note}`)
  return {
    host: input.host,
    tlsaDomain: input.tlsaDomain,
    exists,
    dnssecValidated: input.validated,
    records,
    servers,
    daneValid: status === "pass",
    status,
    issues
  }
}

const recordText = (r: TlsaInput) => `${r.usage} ${r.selector} ${r.matchingType}`

/** The TLSA base name for SMTP (RFC 7672 2.2.3): `_25._tcp.<mx host>`. */
export const tlsaName = (host: string, port = 25) => `_${port}._tcp.${host.toLowerCase().replace(/\.$/, "")}`

const serverInput = (probe: SmtpProbe): DaneServerInput => ({
  address: probe.address,
  // an address the policy refused was never contacted: nothing is known about its chain
  status: probe.failure?.reason === "policy" ? "unknown" : probe.status,
  stalledStage:
    probe.failure?.reason === "policy"
      ? "connect (address refused by policy)"
      : (probe.failure?.stage ?? null),
  starttls: probe.starttlsOffered,
  chain: probe.tls?.chain ?? null,
  hostnameMatch: probe.tls?.hostnameMatch ?? null
})

/**
 * DANE for one MX host, given the TLSA lookup (done here, or by the TLSA endpoint which passes its
 * answer in). The host's addresses are probed only when there is something to verify.
 */
export const verifyHost = Effect.fn("Dane.verifyHost")(function* (
  host: MailHost,
  tlsa?: Either.Either<DnsAnswer, DnsError>
) {
  const resolver = yield* Resolver
  const smtp = yield* Smtp
  const name = tlsaName(host.host)
  const answer = tlsa ?? (yield* Effect.either(resolver.query(name, "TLSA")))
  const records = Either.isRight(answer)
    ? answer.right.answers
        .filter((r) => r.type === "TLSA")
        .map((r) => r.data as TlsaData)
        .map((d) => ({
          usage: d.usage,
          selector: d.selector,
          matchingType: d.matchingType,
          data: d.certificate
        }))
    : []
  const probes =
    records.length > 0
      ? yield* Effect.forEach([...host.v4, ...host.v6], (ip) => smtp.probe(host.host, ip), {
          concurrency: "unbounded"
        })
      : []
  return analyse({
    host: host.host,
    tlsaDomain: name,
    lookup: Either.isLeft(answer) ? "unknown" : records.length > 0 ? "answer" : "none",
    validated: Either.isRight(answer) && answer.right.flags.ad,
    records,
    servers: probes.map(serverInput)
  })
})

/** DANE for every MX host of a domain. */
export const check = Effect.fn("Dane.check")(function* (domain: string) {
  const servers = yield* mailServers(domain)
  const hosts = yield* Effect.forEach(servers.hosts, (h) => verifyHost(h), { concurrency: "unbounded" })
  return { domain, mxStatus: servers.mxStatus, hosts }
})

export interface DaneSummary {
  /** Worst host verdict among hosts that publish TLSA; not-applicable when none does. */
  readonly status: CheckStatus
  /** Every host with TLSA records passed DANE (validated RRset, presented chain matches). */
  readonly valid: boolean
  readonly hostsWithTlsa: number
  readonly hostsVerified: number
}

/**
 * GET /dns/tlsa with DANE verification: each host's TLSA RRset (as the TLSA check gathered it,
 * bogus answers included) is compared with the chains its addresses present. The endpoint status
 * becomes `fail` when a validated RRset matches no presented chain, `unknown` when the servers
 * could not be reached to compare.
 */
export const attach = Effect.fn("Dane.attach")(function* (result: TlsaResult, lookups: TlsaFacts["tlsa"]) {
  const resolver = yield* Resolver
  const hosts = yield* Effect.forEach(
    result.hosts,
    (h) =>
      Effect.gen(function* () {
        const gathered = lookups.find((l) => l.host === h.host)?.lookup
        if (!h.exists || !gathered || gathered._tag === "Failed")
          return { ...h, dane: null as DaneResult | null }
        const found = yield* Effect.either(resolver.addresses(h.host))
        const mailHost: MailHost = Either.isRight(found)
          ? { host: bareHost(h.host), priority: h.priority, status: "ok", ...found.right }
          : { host: bareHost(h.host), priority: h.priority, status: "unknown", v4: [], v6: [] }
        const answer = gathered.bogus
          ? { ...gathered.answer, flags: { ...gathered.answer.flags, ad: false } }
          : gathered.answer
        return { ...h, dane: yield* verifyHost(mailHost, Either.right(answer)) }
      }),
    { concurrency: "unbounded" }
  )
  const verified = hosts.flatMap((h) => (h.dane ? [h.dane] : []))
  const statuses = verified.map((d) => d.status)
  const daneStatus: CheckStatus = verified.length === 0 ? "not-applicable" : worstOf(statuses)
  const dane: DaneSummary = {
    status: daneStatus,
    valid: verified.length > 0 && verified.every((d) => d.daneValid),
    hostsWithTlsa: verified.length,
    hostsVerified: verified.filter((d) => d.daneValid).length
  }
  const status: CheckStatus =
    daneStatus === "fail"
      ? "fail"
      : daneStatus === "unknown" && result.status === "pass"
        ? "unknown"
        : result.status
  const issues = [
    ...result.issues,
    ...verified.flatMap((d) => d.issues.filter((i) => !i.includes("not DNSSEC-validated")))
  ]
  return { ...result, status, hosts, issues, dane }
})
