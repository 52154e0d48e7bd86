/**
 * The pure half of the SPF lookup graph: turns gathered facts (SpfGraph.gather) into the
 * `lookupGraph` with RFC 7208 4.6.4 counts per node, the policy of the evaluated `all` / redirect
 * chain, and the networks and terms the flattener needs. Total: never throws.
 */
import { formatCidr, makeCidr, parseIp4, parseIp6, type Cidr } from "../../records/SpfIp.ts"
import {
  effectiveQualifier,
  parse,
  selectSpf,
  type Located,
  type Mechanism,
  type ParsedSpf,
  type Qualifier,
  type Term
} from "../../records/SpfParse.ts"
import {
  costsLookup,
  evaluatedTerms,
  substituteDomain,
  termTarget,
  type Addresses,
  type SkipReason,
  type SpfFetch,
  type TermFacts
} from "./SpfGraph.ts"
import { FlatItem, NodeStatus, NodeType, SpfNode, WalkResult } from "./SpfNode.ts"

const describeFailure = (o: { reason: string; message: string }) => `DNS ${o.reason}: ${o.message}`

const cidrsOf = (addrs: Addresses, m: Mechanism): Array<Cidr> => [
  ...addrs.v4.flatMap((ip) => {
    const v = parseIp4(ip)
    return v === undefined ? [] : [makeCidr(4, v, m.cidr4 ?? 32)]
  }),
  ...addrs.v6.flatMap((ip) => {
    const v = parseIp6(ip)
    return v === undefined ? [] : [makeCidr(6, v, m.cidr6 ?? 128)]
  })
]

const isVoid = (a: Addresses) => a.v4.length === 0 && a.v6.length === 0

/**
 * Builds the lookup graph from gathered facts (pure). Records reached through include contribute
 * only their pass results to the flattened set (RFC 7208 5.2); a redirect target's record replaces
 * the rest of the evaluation, its `all` included (6.1).
 */
export const walk = (fetch: SpfFetch): WalkResult => {
  const flat: Array<FlatItem> = []
  const nestedErrors: Array<string> = []
  const includeTargets: Array<string> = []
  const includePassAll: Array<string> = []
  let policyUnknown = false

  interface RecordWalk {
    readonly node: SpfNode
    readonly parsed: ParsedSpf | undefined
    readonly all: Qualifier | undefined
    readonly allFrom: string | undefined
  }

  const recordNode = (
    f: SpfFetch,
    type: NodeType,
    term: string | null,
    cost: number,
    // whether this record's terms contribute to the flattened pass set
    contributes: boolean,
    nested: boolean
  ): RecordWalk => {
    const errors: Array<string> = []
    const base = { type, term, domain: f.domain, lookups: cost }
    const leaf = (status: NodeStatus, voids: number, record: string | null = null): RecordWalk => ({
      node: {
        ...base,
        record,
        status,
        totalLookups: cost,
        voidLookups: voids,
        totalVoidLookups: voids,
        errors,
        children: []
      },
      parsed: undefined,
      all: undefined,
      allFrom: undefined
    })
    if (!f.txt.ok) {
      errors.push(describeFailure(f.txt))
      if (contributes)
        flat.push({ kind: "incomplete", source: f.domain, why: `${f.domain}: ${describeFailure(f.txt)}` })
      if (type === "redirect") policyUnknown = true
      return leaf("unknown", 0)
    }
    const selected = selectSpf(f.txt.value)
    if (selected._tag === "none") {
      // RFC 7208 5.2 / 6.1: an include or redirect target without an SPF record is permerror
      const voids = f.txt.value.length === 0 ? 1 : 0
      if (nested) errors.push(`${f.domain} has no SPF record (permerror)`)
      if (contributes && nested)
        flat.push({ kind: "incomplete", source: f.domain, why: `${f.domain} has no SPF record` })
      return leaf("missing", nested ? voids : 0)
    }
    if (selected._tag === "multiple") {
      errors.push(`${f.domain} publishes ${selected.records.length} SPF records (permerror, RFC 7208 4.5)`)
      if (contributes && nested)
        flat.push({ kind: "incomplete", source: f.domain, why: `${f.domain} has several SPF records` })
      return leaf("multiple", 0, selected.records[0] ?? null)
    }
    const parsed = parse(selected.record)
    for (const e of parsed.errors) errors.push(`position ${e.position} ('${e.term}'): ${e.message}`)
    if (nested) for (const e of errors) nestedErrors.push(`${f.domain}: ${e}`)
    const children: Array<SpfNode> = []
    let all: Qualifier | undefined
    let allFrom: string | undefined
    const evaluated = new Set(evaluatedTerms(parsed))
    parsed.terms.forEach((located, index) => {
      const t = located.term
      if (!evaluated.has(index)) return
      if (t.kind === "mechanism" && t.name === "all") {
        all = effectiveQualifier(t)
        allFrom = f.domain
        return
      }
      const q = t.kind === "mechanism" ? effectiveQualifier(t) : "+"
      const facts = f.terms[index]
      const pass = contributes && q === "+"
      if (t.kind === "mechanism" && (t.name === "ip4" || t.name === "ip6")) {
        const four = t.name === "ip4"
        const v = t.ip === undefined ? undefined : four ? parseIp4(t.ip) : parseIp6(t.ip)
        if (v === undefined) return
        const cidr = makeCidr(four ? 4 : 6, v, (four ? t.cidr4 : t.cidr6) ?? (four ? 32 : 128))
        if (pass) flat.push({ kind: "cidr", cidr, source: f.domain })
        else if (contributes)
          flat.push({
            kind: "lost",
            text: located.text,
            source: f.domain,
            why: "a non-pass qualifier depends on term order"
          })
        return
      }
      const walked = termNode(located, f.domain, facts, pass, contributes && q !== "+", t.kind === "modifier")
      if (walked) {
        children.push(walked.node)
        if (walked.all !== undefined && t.kind === "modifier") {
          all = walked.all
          allFrom = walked.allFrom
        }
      }
    })
    const totalLookups = cost + children.reduce((s, c) => s + c.totalLookups, 0)
    const totalVoidLookups = children.reduce((s, c) => s + c.totalVoidLookups, 0)
    return {
      node: {
        ...base,
        record: selected.record,
        status: parsed.errors.length > 0 ? "invalid" : "ok",
        totalLookups,
        voidLookups: 0,
        totalVoidLookups,
        errors,
        children
      },
      parsed,
      all,
      allFrom
    }
  }

  const termNode = (
    located: Located<Term>,
    current: string,
    facts: TermFacts | undefined,
    pass: boolean,
    lostIfNotPass: boolean,
    isRedirect: boolean
  ): { node: SpfNode; all: Qualifier | undefined; allFrom: string | undefined } | undefined => {
    const t = located.term
    if (!costsLookup(t)) return undefined
    const type: NodeType = t.kind === "modifier" ? "redirect" : (t.name as NodeType)
    const target = termTarget(t, current) ?? null
    const leaf = (status: NodeStatus, extra: Partial<SpfNode> = {}, voids = 0): SpfNode => ({
      type,
      term: located.text,
      domain: target,
      record: null,
      status,
      lookups: 1,
      totalLookups: 1,
      voidLookups: voids,
      totalVoidLookups: voids,
      errors: [],
      children: [],
      ...extra
    })
    const lose = (why: string) => {
      if (pass || lostIfNotPass) flat.push({ kind: "lost", text: located.text, source: current, why })
    }
    if (type === "include" && target) includeTargets.push(target)
    if (lostIfNotPass && (type === "include" || type === "a" || type === "mx"))
      lose("a non-pass qualifier depends on term order")
    if (!facts || facts.kind === "skipped") {
      const reason: SkipReason = facts?.kind === "skipped" ? facts.reason : "not-evaluated"
      if (reason === "macro") {
        if (pass)
          flat.push({
            kind: "kept",
            text: substituteDomain(located.text, current),
            source: current,
            why: "its target depends on the message (macro)"
          })
        if (isRedirect) policyUnknown = true
        return { node: leaf("macro"), all: undefined, allFrom: undefined }
      }
      if (type === "exists" || type === "ptr") {
        if (pass && type === "exists")
          flat.push({
            kind: "kept",
            text: substituteDomain(located.text, current),
            source: current,
            why: "exists cannot be flattened"
          })
        else
          lose(type === "ptr" ? "ptr cannot be flattened (and is deprecated)" : "exists cannot be flattened")
        return { node: leaf("not-evaluated"), all: undefined, allFrom: undefined }
      }
      const errors =
        reason === "loop"
          ? [`${target} is already being evaluated: include/redirect loop (permerror)`]
          : reason === "depth"
            ? [`nesting deeper than the walk follows`]
            : reason === "budget"
              ? ["not followed: the walk's query budget is spent"]
              : []
      if (pass || (isRedirect && !lostIfNotPass))
        flat.push({ kind: "incomplete", source: current, why: `${located.text}: ${errors[0] ?? reason}` })
      if (isRedirect) policyUnknown = true
      return { node: leaf(reason, { errors }), all: undefined, allFrom: undefined }
    }
    const m0 = t as Mechanism
    if (facts.kind === "spf") {
      const sub = recordNode(facts.fetch, type, located.text, 1, pass || (isRedirect && !lostIfNotPass), true)
      // RFC 7208 5.2: an included '+all' makes the include match every sender, whatever the root says
      if (!isRedirect && sub.all === "+" && effectiveQualifier(m0) === "+") {
        includePassAll.push(facts.fetch.domain)
        if (pass)
          flat.push({
            kind: "lost",
            text: `+all (in ${facts.fetch.domain})`,
            source: facts.fetch.domain,
            why: "it authorises every sender; it cannot be copied"
          })
      }
      return { node: sub.node, all: isRedirect ? sub.all : undefined, allFrom: sub.allFrom }
    }
    const m = t as Mechanism
    // A failed address or MX lookup leaves the term's networks unknown, never empty.
    if (!facts.result.ok) {
      if (pass)
        flat.push({
          kind: "incomplete",
          source: current,
          why: `${located.text}: ${describeFailure(facts.result)}`
        })
      return {
        node: leaf("unknown", { errors: [describeFailure(facts.result)] }),
        all: undefined,
        allFrom: undefined
      }
    }
    if (facts.kind === "addresses") {
      const addrs = facts.result.value
      if (type === "exists") {
        if (pass)
          flat.push({ kind: "kept", text: located.text, source: current, why: "exists cannot be flattened" })
        return {
          node: leaf(isVoid(addrs) ? "void" : "ok", {}, isVoid(addrs) ? 1 : 0),
          all: undefined,
          allFrom: undefined
        }
      }
      const cidrs = cidrsOf(addrs, m)
      if (pass) for (const cidr of cidrs) flat.push({ kind: "cidr", cidr, source: current })
      return {
        node: leaf(isVoid(addrs) ? "void" : "ok", { networks: cidrs.map(formatCidr) }, isVoid(addrs) ? 1 : 0),
        all: undefined,
        allFrom: undefined
      }
    }
    // mx
    const exchanges = facts.result.value
    const errors: Array<string> = []
    const real = exchanges.filter((x) => x.exchange !== "")
    if (real.length > 10)
      errors.push(`${real.length} MX hosts: more than 10 makes 'mx' a permerror (RFC 7208 4.6.4)`)
    let voids = exchanges.length === 0 ? 1 : 0
    const networks: Array<Cidr> = []
    for (const h of facts.hosts) {
      if (!h.result.ok) {
        errors.push(`${h.host}: ${describeFailure(h.result)}`)
        if (pass)
          flat.push({
            kind: "incomplete",
            source: current,
            why: `${located.text} (${h.host}): ${describeFailure(h.result)}`
          })
        continue
      }
      if (isVoid(h.result.value)) voids++
      networks.push(...cidrsOf(h.result.value, m))
    }
    if (pass) for (const cidr of networks) flat.push({ kind: "cidr", cidr, source: current })
    return {
      node: leaf(
        exchanges.length === 0 ? "void" : facts.hosts.some((h) => !h.result.ok) ? "unknown" : "ok",
        {
          errors,
          networks: networks.map(formatCidr),
          hosts: real.map((x) => x.exchange)
        },
        voids
      ),
      all: undefined,
      allFrom: undefined
    }
  }

  const root = recordNode(fetch, "root", null, 0, true, false)
  return {
    root: root.node,
    parsed: root.parsed,
    nestedErrors,
    finalAll: root.all,
    finalAllFrom: root.allFrom,
    policyUnknown: root.all === undefined && policyUnknown,
    flat,
    includeTargets,
    includePassAll
  }
}
