/**
 * What a "what if" preview may be asked (`POST /scan/preview`, the library's `preview`, the CLI's
 * `domain-audit preview`): records to lay over the domain's live DNS, RRsets to remove, and the
 * MTA-STS policy or security.txt to serve in place of the live one (docs/preview.md).
 *
 * Pure. Every value is read by the parser the record's check reads it with (SPF, DMARC, MTA-STS,
 * TLS-RPT, DKIM, BIMI, CAA, TLSA), so a record the checks would call broken is refused here with
 * that parser's message, naming the record: a preview scores what would be published, and a typo
 * is worth a 400 before anybody publishes it.
 */
import { Either, Schema } from "effect"
import { parseTlsRpt, isTlsRptRecord } from "../checks/mta-sts/TlsRpt.ts"
import type { RecordType } from "../net/DnsTypes.ts"
import { tokenize } from "../net/DnsWire.ts"
import type { Overlay, OverlayRecord, OverlayRemoval } from "../net/ResolverOverlay.ts"
import type { OverlayFile } from "../net/WebOverlay.ts"
import { isBimiRecord, parseBimi } from "../records/BimiRecord.ts"
import { parseIssueValue } from "../records/CaaRecord.ts"
import { parseDkimKey } from "../records/DkimKey.ts"
import { isDmarcRecord, parseDmarc } from "../records/DmarcRecord.ts"
import { normaliseName } from "../records/DomainName.ts"
import { parseIPv4, parseIPv6 } from "../records/IpAddress.ts"
import { isUnder } from "../records/ListedNames.ts"
import { isStsRecord, parseStsPolicy, parseStsRecord } from "../records/MtaStsPolicy.ts"
import { parseSecurityTxt } from "../records/SecurityTxtFile.ts"
import { isSpfRecord, parse as parseSpf } from "../records/SpfParse.ts"

/** At most this many records (and as many removals): a preview is a change, not a zone. */
export const MAX_PREVIEW_RECORDS = 50
/** At most this many files, each at most `MAX_FILE_BYTES`. */
export const MAX_PREVIEW_FILES = 4
export const MAX_FILE_BYTES = 65_536

/** The types a preview may give: what the checks read. DNSSEC's own records need the zone's keys. */
export const PreviewTypes = ["A", "AAAA", "MX", "TXT", "NS", "CAA", "CNAME", "SRV", "TLSA"] as const

export const PreviewRecordInput = Schema.Struct({
  name: Schema.String.annotations({ description: "the owner name: the domain, a name under it, or @" }),
  type: Schema.String.annotations({ description: `one of ${PreviewTypes.join(", ")}` }),
  value: Schema.String.annotations({ description: "the record's data as a zone file writes it" }),
  ttl: Schema.optional(Schema.Int.pipe(Schema.between(0, 2_147_483_647)))
})
export type PreviewRecordInput = typeof PreviewRecordInput.Type

export const PreviewRemovalInput = Schema.Struct({ name: Schema.String, type: Schema.String })

export const PreviewFileInput = Schema.Struct({
  url: Schema.String.annotations({
    description:
      "https://mta-sts.<domain>/.well-known/mta-sts.txt, or https://<domain>/.well-known/security.txt"
  }),
  body: Schema.String
})

/** A preview's changes, as asked (the domain is the contract's, normalised). */
export interface PreviewChanges {
  readonly records: ReadonlyArray<PreviewRecordInput>
  readonly remove?: ReadonlyArray<typeof PreviewRemovalInput.Type> | undefined
  readonly files?: ReadonlyArray<typeof PreviewFileInput.Type> | undefined
}

/** The changes read and checked: what the overlays take. */
export interface PreviewPlan extends Overlay {
  readonly files: ReadonlyArray<OverlayFile>
}

const LABEL = /^(?:\*|[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)$/
const isHost = (name: string) => name.length <= 253 && name.split(".").every((l) => LABEL.test(l))
const uint = (text: string | undefined, max: number) =>
  text !== undefined && /^\d{1,10}$/.test(text) && Number(text) <= max

/** `@` is the domain; a name is taken as written (fully qualified), its trailing dot dropped. */
const ownerOf = (domain: string, name: string) => (name.trim() === "@" ? domain : normaliseName(name))

/** What is wrong with a TXT value at `name`, by the parser of the record it is (null: nothing). */
const txtProblem = (name: string, text: string): string | null => {
  if (isSpfRecord(text)) {
    const e = parseSpf(text).errors[0]
    return e ? `SPF: ${e.message} (at '${e.term}')` : null
  }
  if (name.startsWith("_dmarc.") || isDmarcRecord(text)) {
    const e = parseDmarc(text).errors[0]
    return e ? `DMARC: ${e.message}` : null
  }
  if (name.startsWith("_mta-sts.") || isStsRecord(text)) {
    const e = parseStsRecord(text).errors[0]
    return e ? `MTA-STS: ${e}` : null
  }
  if (name.startsWith("_smtp._tls.") || isTlsRptRecord(text)) {
    const e = parseTlsRpt(text).errors[0]
    return e ? `TLS-RPT: ${e}` : null
  }
  if (name.includes("._domainkey.") || /^\s*v\s*=\s*DKIM1\b/i.test(text)) {
    const e = parseDkimKey(text).errors[0]
    return e ? `DKIM: ${e}` : null
  }
  if (name.includes("._bimi.") || isBimiRecord(text)) {
    const e = parseBimi(text).errors[0]
    return e ? `BIMI: ${e}` : null
  }
  return null
}

/** The TXT value as its one string (a quoted zone-file value's strings joined, RFC 7208 3.3). */
const txtText = (value: string) => (value.trimStart().startsWith('"') ? tokenize(value).join("") : value)

/** What is wrong with a value of `type`, or null. */
const valueProblem = (domain: string, name: string, type: RecordType, value: string): string | null => {
  const t = tokenize(value.trim())
  switch (type) {
    case "A":
      return parseIPv4(value.trim()) ? null : `'${value}' is not an IPv4 address`
    case "AAAA":
      return parseIPv6(value.trim()) ? null : `'${value}' is not an IPv6 address`
    case "CNAME":
    case "NS":
      return t.length === 1 && isHost(normaliseName(t[0]!)) ? null : `'${value}' is not a host name`
    case "MX":
      return t.length === 2 && uint(t[0], 65535) && (t[1] === "." || isHost(normaliseName(t[1]!)))
        ? null
        : `'${value}' is not 'preference exchange' (RFC 1035 3.3.9; a null MX is '0 .')`
    case "SRV":
      return t.length === 4 &&
        uint(t[0], 65535) &&
        uint(t[1], 65535) &&
        uint(t[2], 65535) &&
        (t[3] === "." || isHost(normaliseName(t[3]!)))
        ? null
        : `'${value}' is not 'priority weight port target' (RFC 2782)`
    case "CAA": {
      if (t.length < 3 || !uint(t[0], 255) || !/^[a-z0-9]{1,15}$/i.test(t[1]!))
        return `'${value}' is not 'flags tag "value"' (RFC 8659 4.1)`
      const tag = t[1]!.toLowerCase()
      if ((tag === "issue" || tag === "issuewild") && parseIssueValue(t.slice(2).join(" ")) === null)
        return `CAA: '${t.slice(2).join(" ")}' is not an issuer domain with parameters (RFC 8659 4.2)`
      return null
    }
    case "TLSA": {
      const data = t.slice(3).join("")
      if (t.length < 4 || !uint(t[0], 3) || !uint(t[1], 1) || !uint(t[2], 2) || !/^[0-9a-f]+$/i.test(data))
        return `'${value}' is not 'usage selector matching-type hex-data' (RFC 6698 2.2)`
      const bytes = { 1: 32, 2: 64 }[Number(t[2])]
      return bytes !== undefined && data.length !== bytes * 2
        ? `TLSA: matching type ${t[2]} needs ${bytes} bytes of data, found ${data.length / 2}`
        : null
    }
    case "TXT":
      return txtProblem(name, txtText(value))
    default:
      return `type ${type} cannot be previewed`
  }
}

const asType = (type: string): RecordType | null => {
  const upper = type.trim().toUpperCase()
  return (PreviewTypes as ReadonlyArray<string>).includes(upper) ? (upper as RecordType) : null
}

const typeRefusal = (type: string) =>
  `type '${type}' cannot be previewed (one of ${PreviewTypes.join(", ")}; DNSSEC's own records need the zone's keys)`

/** The file a URL stands for, or null when a preview cannot serve it. */
const fileKind = (domain: string, url: URL): "mta-sts" | "security.txt" | null => {
  if (url.protocol !== "https:" || url.search !== "" || url.hash !== "") return null
  const host = normaliseName(url.hostname)
  if (host === `mta-sts.${domain}` && url.pathname === "/.well-known/mta-sts.txt") return "mta-sts"
  if (
    isUnder(domain, host) &&
    (url.pathname === "/.well-known/security.txt" || url.pathname === "/security.txt")
  )
    return "security.txt"
  return null
}

const fileProblem = (domain: string, file: typeof PreviewFileInput.Type): string | null => {
  let url: URL
  try {
    url = new URL(file.url)
  } catch {
    return `files: '${file.url}' is not a URL`
  }
  const kind = fileKind(domain, url)
  if (kind === null)
    return `files: '${file.url}' is not ${domain}'s MTA-STS policy (https://mta-sts.${domain}/.well-known/mta-sts.txt) or security.txt (https://${domain}/.well-known/security.txt)`
  if (new TextEncoder().encode(file.body).length > MAX_FILE_BYTES)
    return `files: the body for ${file.url} is over ${MAX_FILE_BYTES} bytes`
  const error =
    kind === "mta-sts" ? parseStsPolicy(file.body).errors[0] : parseSecurityTxt(file.body).errors[0]
  return error === undefined
    ? null
    : `files: ${file.url}: ${kind === "mta-sts" ? "MTA-STS policy" : "security.txt"}: ${error}`
}

/**
 * The changes for `domain` (normalised), read and checked; Left: the first problem, naming the
 * record, as a 400 says it.
 */
export const readPreview = (domain: string, changes: PreviewChanges): Either.Either<PreviewPlan, string> => {
  const remove = changes.remove ?? []
  const files = changes.files ?? []
  if (changes.records.length > MAX_PREVIEW_RECORDS)
    return Either.left(
      `at most ${MAX_PREVIEW_RECORDS} records per preview; ${changes.records.length} were given`
    )
  if (remove.length > MAX_PREVIEW_RECORDS)
    return Either.left(`at most ${MAX_PREVIEW_RECORDS} removals per preview; ${remove.length} were given`)
  if (files.length > MAX_PREVIEW_FILES)
    return Either.left(`at most ${MAX_PREVIEW_FILES} files per preview; ${files.length} were given`)
  const outside = [...changes.records, ...remove]
    .map((r) => ownerOf(domain, r.name))
    .filter((name) => !isUnder(domain, name))
  if (outside.length > 0)
    return Either.left(`records outside ${domain} cannot be previewed: ${[...new Set(outside)].join(", ")}`)
  const records: Array<OverlayRecord> = []
  for (const [i, r] of changes.records.entries()) {
    const name = ownerOf(domain, r.name)
    const label = `records[${i}] (${name} ${r.type})`
    const type = asType(r.type)
    if (type === null) return Either.left(`${label}: ${typeRefusal(r.type)}`)
    if (!isHost(name)) return Either.left(`${label}: '${r.name}' is not a host name`)
    const problem = valueProblem(domain, name, type, r.value)
    if (problem !== null) return Either.left(`${label}: ${problem}`)
    records.push({ name, type, value: r.value, ttl: r.ttl })
  }
  for (const r of records) {
    if (r.type !== "CNAME") continue
    if (r.name === domain)
      return Either.left(
        `${r.name} CNAME: the domain itself cannot be an alias (it has SOA and NS, RFC 1034 3.6.2)`
      )
    if (records.some((o) => o.name === r.name && o.type !== "CNAME"))
      return Either.left(`${r.name} CNAME: a name with a CNAME has no other data (RFC 2181 10.1)`)
    if (records.filter((o) => o.name === r.name && o.type === "CNAME").length > 1)
      return Either.left(`${r.name} CNAME: a name has at most one CNAME (RFC 2181 10.1)`)
  }
  const removals: Array<OverlayRemoval> = []
  for (const [i, r] of remove.entries()) {
    const name = ownerOf(domain, r.name)
    const type = asType(r.type)
    if (type === null) return Either.left(`remove[${i}] (${name} ${r.type}): ${typeRefusal(r.type)}`)
    if (records.some((o) => o.name === name && o.type === type))
      return Either.left(
        `remove[${i}] (${name} ${type}): records of that name and type are also given; give the new set only`
      )
    removals.push({ name, type })
  }
  for (const f of files) {
    const problem = fileProblem(domain, f)
    if (problem !== null) return Either.left(problem)
  }
  return Either.right({ records, remove: removals, files })
}

/**
 * `name TYPE value` (the command line's `--record`, a zone file's line without class and TTL):
 * the record, or why the line is not one. The value is the rest of the line, as written.
 */
export const parseRecordLine = (line: string): Either.Either<PreviewRecordInput, string> => {
  const m = /^\s*(\S+)\s+([A-Za-z0-9]+)\s+(\S.*?)\s*$/.exec(line)
  return m === null
    ? Either.left(`'${line}' is not 'name TYPE value' (e.g. '_dmarc.example.com TXT v=DMARC1; p=reject')`)
    : Either.right({ name: m[1]!, type: m[2]!.toUpperCase(), value: m[3]! })
}

/** `name TYPE` (the command line's `--remove`): the RRset to remove, or why the line is not one. */
export const parseRemovalLine = (line: string): Either.Either<typeof PreviewRemovalInput.Type, string> => {
  const m = /^\s*(\S+)\s+([A-Za-z0-9]+)\s*$/.exec(line)
  return m === null
    ? Either.left(`'${line}' is not 'name TYPE' (e.g. 'www.example.com CNAME')`)
    : Either.right({ name: m[1]!, type: m[2]!.toUpperCase() })
}
