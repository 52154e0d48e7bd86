/**
 * The analyst's view of a period's aggregate reports, beside the owner's verdict (DmarcSummary.ts):
 * mail by header-from domain (subdomains apart), a per-day series, each source's MAIL FROM domains
 * and the identities that failed for it, the policy as receivers saw it published, the reasons
 * receivers gave for overriding it, the errors they reported and what was repaired to read their
 * reports (RFC 7489 Appendix C; RFC 9990's `np` and `testing`). Pure over the stored groups and
 * report rows; total: a stored text that cannot be read counts as absent, never as an error.
 */
import { Schema } from "effect"
import { Nullable, Strings } from "../records/Schemas.ts"
import type { DmarcReportRow, SourceGroup } from "../store/InboundReports.ts"

export const HeaderFromCount = Schema.Struct({
  /** The RFC5322.From domain receivers saw (RFC 7489 C `header_from`). */
  headerFrom: Schema.String,
  messages: Schema.Int,
  dmarcPass: Schema.Int,
  dmarcFail: Schema.Int
})

export const DayCount = Schema.Struct({
  /** A UTC day, `2026-11-24`. */
  date: Schema.String,
  messages: Schema.Int,
  dmarcPass: Schema.Int,
  dmarcFail: Schema.Int
})

export const EnvelopeFromCount = Schema.Struct({
  /** The RFC5321.MailFrom domain (RFC 7489 C `envelope_from`); "" for a null sender. */
  domain: Schema.String,
  messages: Schema.Int
})

/** An SPF or DKIM result other than `pass` (RFC 7489 C `auth_results`), with the messages it covered. */
export const FailingIdentity = Schema.Struct({
  method: Schema.Literal("dkim", "spf"),
  /** d= of the signature, or the domain SPF was checked for ("" when the receiver named none). */
  domain: Schema.String,
  /** The DKIM selector, s=; null for SPF or when not reported. */
  selector: Nullable(Schema.String),
  /** fail, softfail, neutral, none, temperror, permerror, policy (lower case, as reported). */
  result: Schema.String,
  messages: Schema.Int
})

/** One policy as receivers said the domain published it (RFC 7489 C `policy_published`). */
export const PolicySeen = Schema.Struct({
  p: Schema.String,
  sp: Nullable(Schema.String),
  pct: Nullable(Schema.Int),
  /** RFC 9990: the policy for non-existent subdomains. */
  np: Nullable(Schema.String),
  /** RFC 9990 `testing` (the record's t=): `y` while the owner is testing the policy. */
  testing: Nullable(Schema.String),
  adkim: Nullable(Schema.String),
  aspf: Nullable(Schema.String),
  /** Reports that saw this policy; several entries mean receivers disagree (a change mid-period, a stale cache). */
  reports: Schema.Int,
  reporters: Strings
})

/** A reason a receiver gave for applying another disposition than the policy (RFC 7489 C PolicyOverrideReason). */
export const ReasonCount = Schema.Struct({
  type: Schema.String,
  comment: Nullable(Schema.String),
  messages: Schema.Int
})

export const ReportErrorCount = Schema.Struct({
  /** An `<error>` of a report's metadata, as the receiver wrote it. */
  error: Schema.String,
  reports: Schema.Int
})

export const Repairs = Schema.Struct({
  /** Reports in the period that needed a repair to be read. */
  reports: Schema.Int,
  /** Reports stored before repairs were kept: whether they needed one is not known. */
  notKept: Schema.Int,
  /** Each repair, without its record numbers, with the reports that needed it (at most 20). */
  repairs: Schema.Array(Schema.Struct({ repair: Schema.String, reports: Schema.Int }))
})

/** Per source, added to the summary's `sources[]`. */
export const analystSourceFields = {
  /** Its MAIL FROM domains, busiest first (at most 10). */
  envelopeFrom: Schema.Array(EnvelopeFromCount),
  /** The SPF and DKIM identities that did not pass for its mail, busiest first (at most 20). */
  failingIdentities: Schema.Array(FailingIdentity)
}

/** Added to the DMARC summary. */
export const analystFields = {
  /** Mail by header-from domain, busiest first (at most 100): a subdomain's mail is seen apart. */
  byHeaderFrom: Schema.Array(HeaderFromCount),
  /** Every UTC day with mail, in order; a report covering several days is shared out by its hours. */
  daily: Schema.Array(DayCount),
  /** The policies receivers saw published, most reports first. */
  policyPublished: Schema.Array(PolicySeen),
  /** Override reasons, busiest first (at most 100). */
  reasons: Schema.Array(ReasonCount),
  /** Report errors, most reports first (at most 100). */
  errors: Schema.Array(ReportErrorCount),
  repairs: Repairs
}

export type AnalystSource = Schema.Struct.Type<typeof analystSourceFields>
export type AnalystSummary = Schema.Struct.Type<typeof analystFields>

export const LIST_SHOWN = 100
const ENVELOPES_SHOWN = 10
const IDENTITIES_SHOWN = 20
const REPAIRS_SHOWN = 20
const DAY = 86_400
/** A report's range spread over more days than this is not a daily report: all of it goes to its first day. */
export const MAX_SPREAD_DAYS = 31

const parseJson = (text: string | null): unknown => {
  if (text === null || text === "") return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

type Obj = Readonly<Record<string, unknown>>
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v)
const strOrNull = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null)
const intOrNull = (v: unknown): number | null => (typeof v === "number" && Number.isSafeInteger(v) ? v : null)

const bump = <K>(m: Map<K, number>, key: K, n: number) => m.set(key, (m.get(key) ?? 0) + n)

/** Code-unit order: the same on every machine, and cheaper than a collation over thousands of keys. */
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const ranked = (m: Map<string, number>): Array<[string, number]> =>
  [...m].sort((a, b) => b[1] - a[1] || byKey(a[0], b[0]))

/**
 * `total` shared out over `weights` in integers that add up to `total` exactly (largest remainder;
 * ties to the earlier). BigInt: a report's messages times a day's seconds can pass 2^53.
 */
export const shareOut = (total: number, weights: ReadonlyArray<number>): ReadonlyArray<number> => {
  const sum = weights.reduce((a, b) => a + b, 0)
  if (weights.length === 0) return []
  if (sum <= 0) return weights.map((_, i) => (i === 0 ? total : 0))
  const t = BigInt(total)
  const w = weights.map(BigInt)
  const s = BigInt(sum)
  const base = w.map((x) => (t * x) / s)
  const rest = w.map((x, i) => ({ i, r: (t * x) % s }))
  let left = total - base.reduce((a, b) => a + Number(b), 0)
  const out = base.map(Number)
  for (const { i } of [...rest].sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1))) {
    if (left <= 0) break
    out[i]! += 1
    left--
  }
  return out
}

/** The UTC days a report's range [begin, end] covers, each weighed by its seconds in the range. */
export const daysOf = (begin: number, end: number): ReadonlyArray<{ day: number; weight: number }> => {
  const first = Math.floor(begin / DAY)
  const last = Math.floor(Math.max(begin, end) / DAY)
  if (end <= begin || last - first + 1 > MAX_SPREAD_DAYS) return [{ day: first, weight: 1 }]
  const out: Array<{ day: number; weight: number }> = []
  for (let d = first; d <= last; d++) {
    const weight = Math.min(end, (d + 1) * DAY) - Math.max(begin, d * DAY)
    if (weight > 0) out.push({ day: d, weight })
  }
  return out.length === 0 ? [{ day: first, weight: 1 }] : out
}

/**
 * The per-day series: each report's messages, passing and failing, shared out over the UTC days
 * its range covers (RFC 7489 7.2: a report covers its `date_range`; most cover one day).
 */
export const dailySeries = (
  reports: ReadonlyArray<Pick<DmarcReportRow, "begin_at" | "end_at" | "messages" | "dmarc_pass">>
): Array<typeof DayCount.Type> => {
  const days = new Map<number, { pass: number; fail: number }>()
  for (const r of reports) {
    const pass = Math.min(r.dmarc_pass ?? 0, r.messages)
    const spread = daysOf(r.begin_at, r.end_at)
    const weights = spread.map((d) => d.weight)
    const passes = shareOut(pass, weights)
    const fails = shareOut(r.messages - pass, weights)
    spread.forEach(({ day }, i) => {
      const entry = days.get(day) ?? { pass: 0, fail: 0 }
      entry.pass += passes[i]!
      entry.fail += fails[i]!
      days.set(day, entry)
    })
  }
  return [...days]
    .filter(([, c]) => c.pass + c.fail > 0)
    .sort((a, b) => a[0] - b[0])
    .map(([day, c]) => ({
      date: new Date(day * DAY * 1000).toISOString().slice(0, 10),
      messages: c.pass + c.fail,
      dmarcPass: c.pass,
      dmarcFail: c.fail
    }))
}

const passes = (g: SourceGroup) => g.dkim === "pass" || g.spf === "pass"

/** `domain/selector=result` (DKIM) and `domain=result` (SPF), as the store keeps them, that did not pass. */
export const failingOf = (g: SourceGroup): ReadonlyArray<Omit<typeof FailingIdentity.Type, "messages">> => {
  const out: Array<Omit<typeof FailingIdentity.Type, "messages">> = []
  for (const sig of g.dkim_auth.split(" ")) {
    const m = /^([^/]*)\/([^=]*)=(.*)$/.exec(sig)
    if (m && m[3] !== "pass")
      out.push({ method: "dkim", domain: m[1]!, selector: m[2] || null, result: m[3]! })
  }
  for (const res of g.spf_auth.split(" ")) {
    const at = res.lastIndexOf("=")
    if (res !== "" && at >= 0 && res.slice(at + 1) !== "pass")
      out.push({ method: "spf", domain: res.slice(0, at), selector: null, result: res.slice(at + 1) })
  }
  return out
}

/** The reasons of a group: as kept (type and comment), or for older rows their types alone. */
const reasonsOf = (g: SourceGroup): ReadonlyArray<{ type: string; comment: string | null }> => {
  const kept = parseJson(g.reasons ?? "")
  if (Array.isArray(kept))
    return kept.filter(isObj).map((r) => ({ type: String(r.type ?? ""), comment: strOrNull(r.comment) }))
  return g.overrides === "" ? [] : g.overrides.split(",").map((type) => ({ type, comment: null }))
}

/** A repair without where it was made (`(record[3], record[9] and 2 more)`, `(4 times)`): alike across reports. */
export const repairOf = (line: string) =>
  line.replace(/ \((record\[\d+\](, record\[\d+\])*( and \d+ more)?|\d+ times)\)$/, "")

/**
 * Per source: its MAIL FROM domains and failing identities, from its groups. Worked out when asked,
 * for the sources shown only: a million records can make tens of thousands of sources.
 */
export const analystSources = (groups: ReadonlyArray<SourceGroup>): ((ip: string) => AnalystSource) => {
  const byIp = new Map<string, Array<SourceGroup>>()
  for (const g of groups) {
    const list = byIp.get(g.source_ip)
    if (list === undefined) byIp.set(g.source_ip, [g])
    else list.push(g)
  }
  return (ip) => {
    const envelopes = new Map<string, number>()
    const failing = new Map<string, number>()
    for (const g of byIp.get(ip) ?? []) {
      if (g.envelope_from !== undefined && g.envelope_from !== "")
        bump(envelopes, g.envelope_from, g.messages)
      for (const f of failingOf(g))
        bump(failing, JSON.stringify([f.method, f.domain, f.selector, f.result]), g.messages)
    }
    return {
      envelopeFrom: ranked(envelopes)
        .slice(0, ENVELOPES_SHOWN)
        .map(([domain, messages]) => ({ domain, messages })),
      failingIdentities: ranked(failing)
        .slice(0, IDENTITIES_SHOWN)
        .map(([key, messages]) => {
          const [method, domain, selector, result] = JSON.parse(key) as [
            "dkim" | "spf",
            string,
            string | null,
            string
          ]
          return { method, domain, selector, result, messages }
        })
    }
  }
}

/** The analyst's fields of a period, from its groups and its reports. */
export const analystSummary = (
  groups: ReadonlyArray<SourceGroup>,
  reports: ReadonlyArray<DmarcReportRow>
): AnalystSummary => {
  const headerFrom = new Map<string, { messages: number; pass: number }>()
  const reasons = new Map<string, number>()
  for (const g of groups) {
    const hf = g.header_from ?? ""
    const entry = headerFrom.get(hf) ?? { messages: 0, pass: 0 }
    entry.messages += g.messages
    if (passes(g)) entry.pass += g.messages
    headerFrom.set(hf, entry)
    for (const r of reasonsOf(g)) bump(reasons, JSON.stringify([r.type, r.comment]), g.messages)
  }
  const policies = new Map<string, { reports: number; reporters: Set<string> }>()
  const errors = new Map<string, number>()
  const repairs = new Map<string, number>()
  let repaired = 0
  let notKept = 0
  // reports of one receiver, and of most receivers, repeat the same policy text: read each text once
  const readPolicy = new Map<string, { key: string; errors: ReadonlyArray<string> }>()
  const policyOf = (text: string) => {
    const known = readPolicy.get(text)
    if (known !== undefined) return known
    const policy = parseJson(text)
    const seen = isObj(policy) ? policy : {}
    const errs = Array.isArray(seen.errors)
      ? seen.errors.filter((e): e is string => typeof e === "string")
      : []
    const read = {
      key: JSON.stringify([
        strOrNull(seen.p) ?? "(not given)",
        strOrNull(seen.sp),
        intOrNull(seen.pct),
        strOrNull(seen.np),
        strOrNull(seen.testing),
        strOrNull(seen.adkim),
        strOrNull(seen.aspf)
      ]),
      errors: [...new Set(errs)]
    }
    readPolicy.set(text, read)
    return read
  }
  for (const r of reports) {
    const { key, errors: errs } = policyOf(r.policy)
    const entry = policies.get(key) ?? { reports: 0, reporters: new Set<string>() }
    entry.reports++
    entry.reporters.add(r.reporter)
    policies.set(key, entry)
    for (const e of errs) bump(errors, e, 1)
    if (r.warnings === "[]") continue
    const lines = parseJson(r.warnings)
    if (!Array.isArray(lines)) notKept++
    else if (lines.length > 0) {
      repaired++
      for (const line of new Set(lines.filter((l): l is string => typeof l === "string").map(repairOf)))
        bump(repairs, line, 1)
    }
  }
  return {
    byHeaderFrom: [...headerFrom]
      .sort((a, b) => b[1].messages - a[1].messages || byKey(a[0], b[0]))
      .slice(0, LIST_SHOWN)
      .map(([domain, c]) => ({
        headerFrom: domain,
        messages: c.messages,
        dmarcPass: c.pass,
        dmarcFail: c.messages - c.pass
      })),
    daily: dailySeries(reports),
    policyPublished: [...policies]
      .sort((a, b) => b[1].reports - a[1].reports || byKey(a[0], b[0]))
      .map(([key, c]) => {
        const [p, sp, pct, np, testing, adkim, aspf] = JSON.parse(key) as [
          string,
          string | null,
          number | null,
          string | null,
          string | null,
          string | null,
          string | null
        ]
        return {
          p,
          sp,
          pct,
          np,
          testing,
          adkim,
          aspf,
          reports: c.reports,
          reporters: [...c.reporters].sort()
        }
      }),
    reasons: ranked(reasons)
      .slice(0, LIST_SHOWN)
      .map(([key, messages]) => {
        const [type, comment] = JSON.parse(key) as [string, string | null]
        return { type, comment, messages }
      }),
    errors: ranked(errors)
      .slice(0, LIST_SHOWN)
      .map(([error, n]) => ({ error, reports: n })),
    repairs: {
      reports: repaired,
      notKept,
      repairs: ranked(repairs)
        .slice(0, REPAIRS_SHOWN)
        .map(([repair, n]) => ({ repair, reports: n }))
    }
  }
}
