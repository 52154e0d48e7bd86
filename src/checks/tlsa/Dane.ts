/**
 * DANE for SMTP (RFC 7672, with the operational rules of RFC 7671): compare the TLSA RRset of
 * `_25._tcp.<mx>` with the chain each MX address actually presented. Pure: the TLSA lookup and the
 * SMTP sessions are gathered by the check (Tlsa.ts).
 */
import { createHash, X509Certificate } from "node:crypto"
import { Schema } from "effect"
import type { CertificateFacts } from "../../net/Certificate.ts"
import type { DnsAnswer } from "../../net/DnsTypes.ts"
import type { TlsaData } from "../../records/DnsRdata.ts"
import type { SmtpProbe } from "../../net/Smtp.ts"
import { Strings } from "../../records/Schemas.ts"
import { type CheckStatus, Status, worstOf } from "../../kernel/Status.ts"

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

const DaneRecordResult = Schema.Struct({
  usage: Schema.Int,
  selector: Schema.Int,
  matchingType: Schema.Int,
  data: Schema.String,
  usageDescription: Schema.String,
  selectorDescription: Schema.String,
  matchingTypeDescription: Schema.String,
  /** RFC 7672 3.1.3: PKIX-TA(0) and PKIX-EE(1) are unusable for SMTP; unknown parameters too. */
  usable: Schema.Boolean,
  note: Schema.NullOr(Schema.String),
  /** Addresses whose presented chain this record matched. */
  matchedBy: Strings
})
type DaneRecordResult = typeof DaneRecordResult.Type

const DaneServerResult = Schema.Struct({
  address: Schema.String,
  status: Status,
  matched: Schema.Boolean,
  /** Index in the presented chain of the matched certificate (0 = leaf). */
  matchedCertificate: Schema.NullOr(Schema.Int),
  reason: Schema.String
})
type DaneServerResult = typeof DaneServerResult.Type

/** DANE verification of one MX host. */
export const DaneHost = Schema.Struct({
  host: Schema.String,
  tlsaDomain: Schema.String,
  exists: Schema.Boolean,
  dnssecValidated: Schema.Boolean,
  records: Schema.Array(DaneRecordResult),
  servers: Schema.Array(DaneServerResult),
  /** True only when the RRset is DNSSEC-validated and every reachable address matched. */
  daneValid: Schema.Boolean,
  status: Status,
  issues: Strings
}).annotations({ identifier: "DaneHost" })
export type DaneResult = typeof DaneHost.Type

export const DaneSummary = Schema.Struct({
  /** Worst host verdict among hosts that publish TLSA; not-applicable when none does. */
  status: Status,
  /** Every host with TLSA records passed DANE (validated RRset, presented chain matches). */
  valid: Schema.Boolean,
  hostsWithTlsa: Schema.Int,
  hostsVerified: Schema.Int
}).annotations({ identifier: "DaneSummary" })
export type DaneSummary = typeof DaneSummary.Type

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
 * DANE for one MX host: its TLSA answer (a bogus one counts as not validated, RFC 7672 2.2) against
 * the sessions with its addresses.
 */
export const verifyHost = (
  host: string,
  lookup: { readonly answer: DnsAnswer; readonly bogus: boolean },
  probes: ReadonlyArray<SmtpProbe>
): DaneResult => {
  const records = lookup.answer.answers
    .filter((r) => r.type === "TLSA")
    .map((r) => r.data as TlsaData)
    .map((d) => ({ usage: d.usage, selector: d.selector, matchingType: d.matchingType, data: d.certificate }))
  return analyse({
    host,
    tlsaDomain: tlsaName(host),
    lookup: records.length > 0 ? "answer" : "none",
    validated: !lookup.bogus && lookup.answer.flags.ad,
    records,
    servers: probes.map(serverInput)
  })
}

/** The DANE verdict over the hosts that publish TLSA records. */
export const summarise = (verified: ReadonlyArray<DaneResult>): DaneSummary => ({
  status: verified.length === 0 ? "not-applicable" : worstOf(verified.map((d) => d.status)),
  valid: verified.length > 0 && verified.every((d) => d.daneValid),
  hostsWithTlsa: verified.length,
  hostsVerified: verified.filter((d) => d.daneValid).length
})
