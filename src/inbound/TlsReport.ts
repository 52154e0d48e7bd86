/**
 * An SMTP TLS report (RFC 8460 4: the JSON a sending MTA posts or mails about its sessions to a
 * domain's MX hosts) read into a `TlsReport`. Pure and total: a report or the refusal naming its
 * first problem. Unknown members are ignored (RFC 8460 4.4 lets reports carry more).
 */
import { Either } from "effect"
import { normaliseDomain } from "../records/DomainName.ts"
import { refuse, type ReportLimits, type ReportRefused } from "./Refusal.ts"

export interface TlsFailure {
  /** RFC 8460 4.3: starttls-not-supported, certificate-expired, sts-policy-fetch-error, ... */
  readonly resultType: string
  readonly sendingMtaIp: string | null
  readonly receivingMxHostname: string | null
  readonly receivingIp: string | null
  /** The name the receiving MX gave in its HELO/EHLO greeting (RFC 8460 4.3 `receiving-mx-helo`). */
  readonly receivingMxHelo: string | null
  readonly failedSessions: number
  readonly reasonCode: string | null
}

export interface TlsPolicyResult {
  /** `tlsa`, `sts` or `no-policy-found` (RFC 8460 4.4). */
  readonly policyType: string
  readonly policyDomain: string
  readonly policyStrings: ReadonlyArray<string>
  readonly mxHosts: ReadonlyArray<string>
  readonly successfulSessions: number
  readonly failedSessions: number
  readonly failures: ReadonlyArray<TlsFailure>
}

export interface TlsReport {
  readonly orgName: string
  readonly contactInfo: string | null
  readonly reportId: string
  /** Epoch seconds. */
  readonly begin: number
  readonly end: number
  /**
   * The policy domain of the first policy. A report may cover several domains (one sender, one
   * day, every domain it delivered to at one receiver); each policy is filed under its own.
   */
  readonly domain: string
  readonly policies: ReadonlyArray<TlsPolicyResult>
}

class Bad {
  constructor(readonly message: string) {}
}

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v)
const MAX_TEXT = 1024

const obj = (o: Obj, key: string, path: string): Obj => {
  const v = o[key]
  if (isObj(v)) return v
  throw new Bad(`"${path}${key}" is ${v === undefined ? "missing" : "not an object"}`)
}

const optStr = (o: Obj, key: string, path: string): string | null => {
  const v = o[key]
  if (v === undefined || v === null) return null
  if (typeof v !== "string") throw new Bad(`"${path}${key}" must be a string`)
  if (v.length > MAX_TEXT) throw new Bad(`"${path}${key}" is longer than ${MAX_TEXT} characters`)
  return v
}

const str = (o: Obj, key: string, path: string): string => {
  const v = optStr(o, key, path)
  if (v === null || v === "") throw new Bad(`"${path}${key}" is missing or empty`)
  return v
}

const count = (o: Obj, key: string, path: string, fallback?: number): number => {
  const v = o[key]
  if (v === undefined && fallback !== undefined) return fallback
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
    throw new Bad(`"${path}${key}" must be a non-negative integer`)
  // no sender makes more than 2^31 sessions to one domain in one day; sums then stay exact
  if (v > 2 ** 31) throw new Bad(`"${path}${key}" is ${v}: more than 2^31 sessions is no real count`)
  return v
}

/** RFC 8460 4.4 uses RFC 3339 date-times. */
const time = (o: Obj, key: string, path: string): number => {
  const v = str(o, key, path)
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(v)
    ? Date.parse(v)
    : NaN
  if (Number.isNaN(ms)) throw new Bad(`"${path}${key}" is not an RFC 3339 date-time: '${v.slice(0, 40)}'`)
  return Math.floor(ms / 1000)
}

const list = (o: Obj, key: string, path: string): ReadonlyArray<unknown> => {
  const v = o[key]
  if (v === undefined) return []
  if (!Array.isArray(v)) throw new Bad(`"${path}${key}" must be an array`)
  return v
}

const strings = (o: Obj, key: string, path: string): ReadonlyArray<string> => {
  const v = o[key]
  // Some senders write a lone mx-host as a string rather than an array of one.
  const items = typeof v === "string" ? [v] : list(o, key, path)
  return items.map((s, i) => {
    if (typeof s !== "string" || s.length > MAX_TEXT) throw new Bad(`"${path}${key}"[${i}] must be a string`)
    return s
  })
}

/** RFC 1035 2.3.1 host name syntax, for names outside the public suffix list (RFC 8460's own examples). */
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/

const policyDomainOf = (value: string, where: string) =>
  Either.getOrElse(normaliseDomain(value), () => {
    const name = value.trim().toLowerCase().replace(/\.$/, "")
    if (HOST_NAME.test(name)) return name
    throw new Bad(`"${where}" is not a domain: '${value.slice(0, 60)}'`)
  })

const readPolicy = (p: unknown, i: number): TlsPolicyResult => {
  const at = `policies[${i}].`
  if (!isObj(p)) throw new Bad(`"${at.slice(0, -1)}" is not an object`)
  const policy = obj(p, "policy", at)
  const summary = obj(p, "summary", at)
  const pAt = `${at}policy.`
  const type = str(policy, "policy-type", pAt).toLowerCase()
  if (!["tlsa", "sts", "no-policy-found"].includes(type))
    throw new Bad(`"${pAt}policy-type" must be tlsa, sts or no-policy-found; got '${type.slice(0, 40)}'`)
  const domain = str(policy, "policy-domain", pAt)
  const failures = list(p, "failure-details", at).map((f, j): TlsFailure => {
    const fAt = `${at}failure-details[${j}].`
    if (!isObj(f)) throw new Bad(`"${fAt.slice(0, -1)}" is not an object`)
    return {
      resultType: str(f, "result-type", fAt).toLowerCase(),
      sendingMtaIp: optStr(f, "sending-mta-ip", fAt),
      receivingMxHostname: optStr(f, "receiving-mx-hostname", fAt)?.toLowerCase().replace(/\.$/, "") ?? null,
      receivingIp: optStr(f, "receiving-ip", fAt),
      receivingMxHelo: optStr(f, "receiving-mx-helo", fAt),
      failedSessions: count(f, "failed-session-count", fAt),
      reasonCode: optStr(f, "failure-reason-code", fAt)
    }
  })
  return {
    policyType: type,
    policyDomain: policyDomainOf(domain, `${pAt}policy-domain`),
    policyStrings: strings(policy, "policy-string", pAt),
    mxHosts: strings(policy, "mx-host", pAt).map((h) => h.toLowerCase()),
    successfulSessions: count(summary, "total-successful-session-count", `${at}summary.`),
    failedSessions: count(summary, "total-failure-session-count", `${at}summary.`),
    failures
  }
}

const readReport = (doc: unknown, maxRecords: number): TlsReport => {
  if (!isObj(doc)) throw new Bad("the report must be a JSON object")
  const range = obj(doc, "date-range", "")
  const policies = list(doc, "policies", "")
  if (policies.length === 0) throw new Bad('"policies" is missing or empty')
  const entries = policies.reduce<number>(
    (n, p) => n + 1 + (isObj(p) && Array.isArray(p["failure-details"]) ? p["failure-details"].length : 0),
    0
  )
  if (entries > maxRecords)
    throw new Bad(`the report holds ${entries} policies and failure details; the limit is ${maxRecords}`)
  const begin = time(range, "start-datetime", "date-range.")
  const end = time(range, "end-datetime", "date-range.")
  if (end < begin) throw new Bad('"date-range" ends before it begins')
  const read = policies.map(readPolicy)
  return {
    orgName: str(doc, "organization-name", ""),
    contactInfo: optStr(doc, "contact-info", ""),
    reportId: str(doc, "report-id", ""),
    begin,
    end,
    domain: read[0]!.policyDomain,
    policies: read
  }
}

/** A TLS report from its JSON text, or the refusal naming what is wrong. */
export const parseTlsReport = (
  json: string,
  limits: Pick<ReportLimits, "maxRecords">
): TlsReport | ReportRefused => {
  let doc: unknown
  try {
    doc = JSON.parse(json)
  } catch (e) {
    return refuse(
      "malformed",
      `the TLS report is not valid JSON: ${e instanceof Error ? e.message : String(e)}`
    )
  }
  try {
    return readReport(doc, limits.maxRecords)
  } catch (e) {
    return refuse(
      "schema",
      `not an SMTP TLS report (RFC 8460): ${e instanceof Bad ? e.message : e instanceof Error ? e.message : String(e)}`
    )
  }
}
