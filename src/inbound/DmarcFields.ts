/**
 * The fields of a DMARC aggregate report (RFC 7489 Appendix C; RFC 9990's `generator`, `np`,
 * `testing`, `discovery_method`, `human_result`) read from the small element trees the streaming
 * reader builds: one per `<record>`, one for `<report_metadata>` and `<policy_published>`. Pure.
 * Liberal in what it accepts (receivers' reports have quirks), and every repair is said in a
 * warning; a record that cannot be read is `Bad` (the reader skips it), a report that cannot be
 * `Fatal`.
 */
import { Either } from "effect"
import { normaliseDomain } from "../records/DomainName.ts"
import { organisationalDomainOf } from "../records/DmarcRecord.ts"
import { formatIp, parseIp } from "../records/IpAddress.ts"
import type { DmarcAuthDkim, DmarcAuthSpf, DmarcReason, DmarcRecord, DmarcReportHead } from "./DmarcReport.ts"

/** A problem with one record (or a head field): the record is skipped, the report kept. */
export class Bad {
  constructor(readonly message: string) {}
}

/** A problem that refuses the whole report (a count no receiver sends, a missing head). */
export class Fatal {
  constructor(readonly message: string) {}
}

/** An element: its children by local name (repeated ones as arrays); a text-only element is its text. */
export interface Node {
  readonly [name: string]: Value
}
export type Value = string | Node | ReadonlyArray<string | Node>

/** Repairs said to the sender, grouped so 10,000 alike records make one line. */
export class Warnings {
  private readonly byText = new Map<string, { records: Array<number>; count: number }>()
  add(text: string, record?: number) {
    const entry = this.byText.get(text) ?? { records: [], count: 0 }
    entry.count++
    if (record !== undefined && entry.records.length < 5) entry.records.push(record)
    this.byText.set(text, entry)
  }
  /** At most 20 lines: the first five record numbers of each and how many more. */
  list(): ReadonlyArray<string> {
    const out: Array<string> = []
    for (const [text, { records, count }] of this.byText) {
      if (records.length === 0) out.push(count > 1 ? `${text} (${count} times)` : text)
      else {
        const more = count - records.length
        const where = records.map((r) => `record[${r}]`).join(", ")
        out.push(`${text} (${where}${more > 0 ? ` and ${more} more` : ""})`)
      }
    }
    return out.length > 20 ? [...out.slice(0, 20), `and ${out.length - 20} other repairs`] : out
  }
}

export const MAX_TEXT = 1024

/** Where an element that holds markup keeps the text beside it (not an XML name: no clash). */
export const TEXT = "#text"

/** 2^31: no receiver reports more messages from one source in one day (RFC 7489 C: per-day reports). */
export const MAX_COUNT = 2 ** 31

const isNode = (v: Value | undefined): v is Node =>
  v !== undefined && typeof v === "object" && !Array.isArray(v)

const first = (v: Value | undefined): string | Node | undefined =>
  Array.isArray(v) ? (v as ReadonlyArray<string | Node>)[0] : (v as string | Node | undefined)

const child = (node: Node, key: string, path: string): Node => {
  const v = first(node[key])
  if (isNode(v)) return v
  // an element that is present but empty is text "": read it as an element without children
  if (v === "") return {}
  throw new Bad(`<${path}.${key}> is ${v === undefined ? "missing" : "not an element"}`)
}

/** Text of an optional field: null when absent; markup where text belongs is left out, said so. */
const optText = (node: Node, key: string, path: string, warnings?: Warnings, record?: number) => {
  const v = first(node[key])
  if (v === undefined) return null
  if (typeof v !== "string") {
    const beside = v[TEXT]
    if (warnings === undefined) throw new Bad(`<${path}.${key}> must be text`)
    if (typeof beside === "string") {
      warnings.add(`<${key}> held markup (an unescaped '<'?): read the text before it`, record)
      return beside.trim().slice(0, MAX_TEXT)
    }
    warnings.add(`<${key}> held markup instead of text: left out`, record)
    return null
  }
  if (v.length > MAX_TEXT) throw new Bad(`<${path}.${key}> is longer than ${MAX_TEXT} characters`)
  return v.trim()
}

const text = (node: Node, key: string, path: string, warnings?: Warnings, record?: number): string => {
  const v = optText(node, key, path, warnings, record)
  if (v === null || v === "") throw new Bad(`<${path}.${key}> is missing or empty`)
  return v
}

/** A count of messages: a non-negative integer below 2^31, else the report is refused. */
const messageCount = (node: Node, key: string, path: string): number => {
  const v = text(node, key, path)
  if (!/^\d{1,40}$/.test(v))
    throw new Bad(`<${path}.${key}> must be a non-negative integer; got '${v.slice(0, 40)}'`)
  if (BigInt(v) > BigInt(MAX_COUNT))
    throw new Fatal(
      `<${path}.${key}> is ${v.slice(0, 40)}: more than 2^31 messages from one source in one report is no real count`
    )
  return Number(v)
}

const epoch = (node: Node, key: string, path: string): number => {
  const v = text(node, key, path)
  if (!/^\d{1,12}$/.test(v))
    throw new Bad(`<${path}.${key}> must be seconds since 1970; got '${v.slice(0, 40)}'`)
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

const nodes = (v: Value | undefined, where: string): ReadonlyArray<Node> => {
  if (v === undefined) return []
  const list: ReadonlyArray<string | Node> = Array.isArray(v) ? v : [v as string | Node]
  return list.map((n, i) => {
    if (n === "") return {}
    if (!isNode(n)) throw new Bad(`<${where}>[${i}] is not an element`)
    return n
  })
}

const domainOf = (value: string, where: string) =>
  Either.getOrThrowWith(
    normaliseDomain(value),
    () => new Bad(`<${where}> is not a domain: '${value.slice(0, 60)}'`)
  )

/** RFC 7489 3.1: an identifier aligns with the From domain, strictly (equal) or relaxed (same organisation). */
const aligned = (identifier: string, headerFrom: string, mode: string | null) =>
  identifier === headerFrom ||
  (mode !== "s" &&
    identifier !== "" &&
    organisationalDomainOf(identifier) === organisationalDomainOf(headerFrom))

/**
 * One `<record>`. Repairs: a `<reason>` without a type and a DKIM result without a domain are left
 * out; a `policy_evaluated` without its `dkim`/`spf` verdict (reports of the pre-RFC draft) gets
 * the verdict RFC 7489 3.1 and 4.2 give from `auth_results` and the published alignment modes.
 */
export const readRecord = (
  node: Node,
  i: number,
  policy: { readonly adkim: string | null; readonly aspf: string | null },
  warnings: Warnings
): DmarcRecord => {
  const at = `record[${i}]`
  const row = child(node, "row", at)
  const ipText = text(row, "source_ip", `${at}.row`)
  const ip = parseIp(ipText)
  if (ip === undefined) throw new Bad(`<${at}.row.source_ip> is not an IP address: '${ipText.slice(0, 40)}'`)
  const evaluated = child(row, "policy_evaluated", `${at}.row`)
  const ev = `${at}.row.policy_evaluated`
  const ids = child(node, "identifiers", at)
  const auth = isNode(first(node.auth_results)) ? (first(node.auth_results) as Node) : {}
  const reasons: Array<DmarcReason> = []
  for (const [j, r] of nodes(evaluated.reason, `${ev}.reason`).entries()) {
    const type = optText(r, "type", `${ev}.reason[${j}]`, warnings, i)
    if (type === null || type === "") {
      warnings.add("a <reason> without a type was left out", i)
      continue
    }
    reasons.push({
      type: token(type, `${ev}.reason[${j}].type`),
      comment: optText(r, "comment", `${ev}.reason[${j}]`, warnings, i)
    })
  }
  const authDkim: Array<DmarcAuthDkim> = []
  for (const [j, d] of nodes(auth.dkim, `${at}.auth_results.dkim`).entries()) {
    const w = `${at}.auth_results.dkim[${j}]`
    const domain = optText(d, "domain", w, warnings, i)
    const result = optText(d, "result", w, warnings, i)
    if (domain === null || domain === "" || result === null || result === "") {
      warnings.add(`a DKIM result without a ${domain ? "result" : "domain"} was left out`, i)
      continue
    }
    const selector = optText(d, "selector", w, warnings, i)
    authDkim.push({
      domain: domain.toLowerCase(),
      selector: selector === null || selector === "" ? null : selector.toLowerCase(),
      result: token(result, `${w}.result`),
      humanResult: optText(d, "human_result", w, warnings, i)
    })
  }
  const authSpf: Array<DmarcAuthSpf> = []
  for (const [j, s] of nodes(auth.spf, `${at}.auth_results.spf`).entries()) {
    const w = `${at}.auth_results.spf[${j}]`
    const result = optText(s, "result", w, warnings, i)
    if (result === null || result === "") {
      warnings.add("an SPF result without a result was left out", i)
      continue
    }
    const scope = optText(s, "scope", w, warnings, i)
    const domain = optText(s, "domain", w, warnings, i)
    authSpf.push({
      // an SPF result for an empty MAIL FROM names the HELO domain, or nothing at all
      domain: domain === null ? "" : domain.toLowerCase(),
      scope: scope === null || scope === "" ? null : token(scope, `${w}.scope`),
      result: token(result, `${w}.result`),
      humanResult: optText(s, "human_result", w, warnings, i)
    })
  }
  const headerFrom = text(ids, "header_from", `${at}.identifiers`, warnings, i).toLowerCase()
  // `passes` only when the report gives no verdict: alignment reads the public suffix list
  const verdict = (key: "dkim" | "spf", passes: () => boolean): "pass" | "fail" => {
    const given = optText(evaluated, key, ev, warnings, i)
    if (given !== null && given !== "") return oneOf(given, ["pass", "fail"], `${ev}.${key}`)
    warnings.add(`<policy_evaluated> gave no <${key}> verdict: computed from auth_results and alignment`, i)
    return passes() ? "pass" : "fail"
  }
  const disposition = optText(evaluated, "disposition", ev, warnings, i)
  if (disposition === null || disposition === "")
    warnings.add("<policy_evaluated> gave no <disposition>: read as none", i)
  return {
    sourceIp: formatIp(ip),
    count: messageCount(row, "count", `${at}.row`),
    disposition:
      disposition === null || disposition === ""
        ? "none"
        : oneOf(disposition, ["none", "quarantine", "reject", "pass"], `${ev}.disposition`),
    dkim: verdict("dkim", () =>
      authDkim.some((d) => d.result === "pass" && aligned(d.domain, headerFrom, policy.adkim))
    ),
    spf: verdict("spf", () =>
      authSpf.some((s) => s.result === "pass" && aligned(s.domain, headerFrom, policy.aspf))
    ),
    reasons,
    headerFrom,
    envelopeFrom: optText(ids, "envelope_from", `${at}.identifiers`, warnings, i),
    envelopeTo: optText(ids, "envelope_to", `${at}.identifiers`, warnings, i),
    authDkim,
    authSpf
  }
}

/** The alignment modes the report says were published, read before the records (RFC 7489 C). */
export const alignmentOf = (policy: Node | undefined) => ({
  adkim: policy === undefined ? null : (optText(policy, "adkim", "") ?? null),
  aspf: policy === undefined ? null : (optText(policy, "aspf", "") ?? null)
})

/**
 * The report's head: `<report_metadata>`, `<policy_published>` and `<version>`. An empty
 * `org_name` is repaired from the report's e-mail address (its domain names the reporter).
 */
export const readHead = (
  meta: Node | undefined,
  policy: Node | undefined,
  version: string | null,
  warnings: Warnings
): DmarcReportHead => {
  if (meta === undefined) throw new Bad("<feedback.report_metadata> is missing")
  if (policy === undefined) throw new Bad("<feedback.policy_published> is missing")
  const m = "feedback.report_metadata"
  const pp = "feedback.policy_published"
  const range = child(meta, "date_range", m)
  const begin = epoch(range, "begin", `${m}.date_range`)
  const end = epoch(range, "end", `${m}.date_range`)
  if (end < begin) throw new Bad("<date_range> ends before it begins")
  const pct = optText(policy, "pct", pp)
  if (pct !== null && pct !== "" && !/^\d{1,3}$/.test(pct))
    throw new Bad(`<${pp}.pct> must be 0-100; got '${pct.slice(0, 20)}'`)
  const email = optText(meta, "email", m, warnings)
  let orgName = optText(meta, "org_name", m)
  if (orgName === null || orgName === "") {
    const fromEmail =
      email
        ?.slice(email.lastIndexOf("@") + 1)
        .replace(/>$/, "")
        .toLowerCase() ?? ""
    if (!email?.includes("@") || fromEmail === "")
      throw new Bad(`<${m}.org_name> is empty and no <email> names the reporter`)
    warnings.add(`org_name empty: used the report's e-mail domain (${fromEmail})`)
    orgName = fromEmail
  }
  const errors = meta.error === undefined ? [] : Array.isArray(meta.error) ? meta.error : [meta.error]
  const optional = (key: string) => {
    const v = optText(policy, key, pp, warnings)
    return v === "" ? null : v
  }
  return {
    version,
    orgName,
    email,
    extraContactInfo: optText(meta, "extra_contact_info", m, warnings),
    reportId: text(meta, "report_id", m),
    begin,
    end,
    errors: errors
      .filter((e): e is string => typeof e === "string")
      .slice(0, 20)
      .map((e) => e.slice(0, MAX_TEXT)),
    generator: optText(meta, "generator", m, warnings),
    policy: {
      domain: domainOf(text(policy, "domain", pp), `${pp}.domain`),
      adkim: optional("adkim"),
      aspf: optional("aspf"),
      p: oneOf(text(policy, "p", pp), ["none", "quarantine", "reject"], `${pp}.p`),
      sp: optional("sp"),
      np: optional("np"),
      pct: pct === null || pct === "" ? null : Number(pct),
      fo: optional("fo"),
      testing: optional("testing"),
      discoveryMethod: optional("discovery_method")
    }
  }
}
