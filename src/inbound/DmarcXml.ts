/**
 * The DMARC aggregate report's XML (RFC 7489 Appendix C; RFC 9990's schema, which adds
 * `generator`, `np`, `testing`, `discovery_method`, `human_result` and extension elements) read
 * into a `DmarcAggregateReport`. Pure and total: a report or the refusal naming its first problem.
 * Unknown elements (RFC 9990 `<extension>`s and vendor additions) are ignored.
 */
import { Either } from "effect"
import { normaliseDomain } from "../records/DomainName.ts"
import { formatIp, parseIp } from "../records/IpAddress.ts"
import type {
  DmarcAggregateReport,
  DmarcAuthDkim,
  DmarcAuthSpf,
  DmarcReason,
  DmarcRecord
} from "./DmarcReport.ts"
import { refuse, type ReportLimits, ReportRefused } from "./Refusal.ts"
import { decodeXmlText, parseXml } from "./XmlText.ts"

const ARRAYS = new Set([
  "feedback.record",
  "feedback.record.auth_results.dkim",
  "feedback.record.auth_results.spf",
  "feedback.record.row.policy_evaluated.reason",
  "feedback.report_metadata.error"
])

/** A schema problem at `path`, thrown inside this module only and returned as the refusal. */
class Bad {
  constructor(readonly message: string) {}
}

type Node = Record<string, unknown>

const MAX_TEXT = 1024

const isNode = (v: unknown): v is Node => v !== null && typeof v === "object" && !Array.isArray(v)

const child = (node: Node, key: string, path: string): Node => {
  const v = node[key]
  if (isNode(v)) return v
  throw new Bad(`<${path}.${key}> is ${v === undefined ? "missing" : "not an element"}`)
}

const optText = (node: Node, key: string, path: string): string | null => {
  const v = node[key]
  if (v === undefined) return null
  if (typeof v !== "string") throw new Bad(`<${path}.${key}> must be text`)
  if (v.length > MAX_TEXT) throw new Bad(`<${path}.${key}> is longer than ${MAX_TEXT} characters`)
  return decodeXmlText(v)
}

const text = (node: Node, key: string, path: string): string => {
  const v = optText(node, key, path)
  if (v === null || v === "") throw new Bad(`<${path}.${key}> is missing or empty`)
  return v
}

const integer = (node: Node, key: string, path: string): number => {
  const v = text(node, key, path)
  if (!/^\d{1,15}$/.test(v))
    throw new Bad(`<${path}.${key}> must be a non-negative integer; got '${v.slice(0, 40)}'`)
  return Number(v)
}

const oneOf = <T extends string>(value: string, allowed: ReadonlyArray<T>, where: string): T => {
  const v = value.toLowerCase()
  if (!(allowed as ReadonlyArray<string>).includes(v))
    throw new Bad(`<${where}> must be one of ${allowed.join(", ")}; got '${value.slice(0, 40)}'`)
  return v as T
}

const token = (value: string, where: string) => {
  const v = value.toLowerCase()
  if (!/^[a-z_]{1,32}$/.test(v)) throw new Bad(`<${where}> is not a result keyword: '${value.slice(0, 40)}'`)
  return v
}

const nodes = (v: unknown, where: string): ReadonlyArray<Node> => {
  if (v === undefined) return []
  const list = Array.isArray(v) ? v : [v]
  return list.map((n, i) => {
    if (!isNode(n)) throw new Bad(`<${where}>[${i}] is not an element`)
    return n
  })
}

const domainOf = (value: string, where: string) =>
  Either.getOrThrowWith(
    normaliseDomain(value),
    () => new Bad(`<${where}> is not a domain: '${value.slice(0, 60)}'`)
  )

const readRecord = (node: Node, i: number): DmarcRecord => {
  const at = `record[${i}]`
  const row = child(node, "row", at)
  const ipText = text(row, "source_ip", `${at}.row`)
  const ip = parseIp(ipText)
  if (ip === undefined) throw new Bad(`<${at}.row.source_ip> is not an IP address: '${ipText.slice(0, 40)}'`)
  const evaluated = child(row, "policy_evaluated", `${at}.row`)
  const ev = `${at}.row.policy_evaluated`
  const ids = child(node, "identifiers", at)
  const auth = isNode(node.auth_results) ? node.auth_results : {}
  const reasons = nodes(evaluated.reason, `${ev}.reason`).map((r, j): DmarcReason => ({
    type: token(text(r, "type", `${ev}.reason[${j}]`), `${ev}.reason[${j}].type`),
    comment: optText(r, "comment", `${ev}.reason[${j}]`)
  }))
  const authDkim = nodes(auth.dkim, `${at}.auth_results.dkim`).map((d, j): DmarcAuthDkim => {
    const w = `${at}.auth_results.dkim[${j}]`
    const selector = optText(d, "selector", w)
    return {
      domain: text(d, "domain", w).toLowerCase(),
      selector: selector === null || selector === "" ? null : selector.toLowerCase(),
      result: token(text(d, "result", w), `${w}.result`),
      humanResult: optText(d, "human_result", w)
    }
  })
  const authSpf = nodes(auth.spf, `${at}.auth_results.spf`).map((s, j): DmarcAuthSpf => {
    const w = `${at}.auth_results.spf[${j}]`
    const scope = optText(s, "scope", w)
    const domain = optText(s, "domain", w)
    return {
      // an SPF result for an empty MAIL FROM names the HELO domain, or nothing at all
      domain: domain === null || domain === "" ? "" : domain.toLowerCase(),
      scope: scope === null || scope === "" ? null : token(scope, `${w}.scope`),
      result: token(text(s, "result", w), `${w}.result`),
      humanResult: optText(s, "human_result", w)
    }
  })
  const headerFrom = text(ids, "header_from", `${at}.identifiers`)
  return {
    sourceIp: formatIp(ip),
    count: integer(row, "count", `${at}.row`),
    disposition: oneOf(
      text(evaluated, "disposition", ev),
      ["none", "quarantine", "reject", "pass"],
      `${ev}.disposition`
    ),
    dkim: oneOf(text(evaluated, "dkim", ev), ["pass", "fail"], `${ev}.dkim`),
    spf: oneOf(text(evaluated, "spf", ev), ["pass", "fail"], `${ev}.spf`),
    reasons,
    headerFrom: headerFrom.toLowerCase(),
    envelopeFrom: optText(ids, "envelope_from", `${at}.identifiers`),
    envelopeTo: optText(ids, "envelope_to", `${at}.identifiers`),
    authDkim,
    authSpf
  }
}

const readReport = (doc: Node, maxRecords: number): DmarcAggregateReport => {
  const feedback = child(doc, "feedback", "")
  const meta = child(feedback, "report_metadata", "feedback")
  const range = child(meta, "date_range", "feedback.report_metadata")
  const policy = child(feedback, "policy_published", "feedback")
  const pp = "feedback.policy_published"
  const records = nodes(feedback.record, "feedback.record")
  if (records.length === 0) throw new Bad("the report holds no <record> (RFC 7489 C: at least one)")
  if (records.length > maxRecords)
    throw new Bad(`the report holds ${records.length} records; the limit is ${maxRecords}`)
  const begin = integer(range, "begin", "feedback.report_metadata.date_range")
  const end = integer(range, "end", "feedback.report_metadata.date_range")
  if (end < begin) throw new Bad("<date_range> ends before it begins")
  const pct = optText(policy, "pct", pp)
  if (pct !== null && !/^\d{1,3}$/.test(pct))
    throw new Bad(`<${pp}.pct> must be 0-100; got '${pct.slice(0, 20)}'`)
  const m = "feedback.report_metadata"
  return {
    version: optText(feedback, "version", "feedback"),
    orgName: text(meta, "org_name", m),
    email: optText(meta, "email", m),
    extraContactInfo: optText(meta, "extra_contact_info", m),
    reportId: text(meta, "report_id", m),
    begin,
    end,
    errors: (Array.isArray(meta.error) ? meta.error : [])
      .filter((e): e is string => typeof e === "string")
      .slice(0, 20)
      .map((e) => decodeXmlText(e.slice(0, MAX_TEXT))),
    generator: optText(meta, "generator", m),
    policy: {
      domain: domainOf(text(policy, "domain", pp), `${pp}.domain`),
      adkim: optText(policy, "adkim", pp),
      aspf: optText(policy, "aspf", pp),
      p: oneOf(text(policy, "p", pp), ["none", "quarantine", "reject"], `${pp}.p`),
      sp: optText(policy, "sp", pp),
      np: optText(policy, "np", pp),
      pct: pct === null ? null : Number(pct),
      fo: optText(policy, "fo", pp),
      testing: optText(policy, "testing", pp),
      discoveryMethod: optText(policy, "discovery_method", pp)
    },
    records: records.map(readRecord)
  }
}

/** An aggregate report from its XML text, or the refusal naming what is wrong. */
export const parseDmarcXml = (
  xml: string,
  limits: Pick<ReportLimits, "maxRecords">
): DmarcAggregateReport | ReportRefused => {
  const doc = parseXml(xml, ARRAYS)
  if (doc instanceof ReportRefused) return doc
  try {
    return readReport(doc, limits.maxRecords)
  } catch (e) {
    if (e instanceof Bad) return refuse("schema", `not a DMARC aggregate report: ${e.message}`)
    return refuse("schema", `not a DMARC aggregate report: ${e instanceof Error ? e.message : String(e)}`)
  }
}
