/**
 * The SPF check (`GET /email/spf`): `gather` (the lookup graph, SpfGraph) and the pure `analyse`
 * producing the spec's SPF result: exists, record, valid, policy, mechanisms, includes, lookups,
 * lookupGraph, flattened, warnings, issues, plus structured `findings` for scoring.
 */
import { Effect } from "effect"
import { define } from "../../kernel/Check.ts"
import { Fact, Facts } from "../../kernel/Facts.ts"
import { type CheckStatus, Finding, type Severity } from "../../kernel/Status.ts"
import { answerBytes } from "../../records/TxtSize.ts"
import { flatten } from "./SpfFlatten.ts"
import { gather as gatherGraph, type SpfFetch } from "./SpfGraph.ts"
import { walk } from "./SpfWalk.ts"
import { SpfNode } from "./SpfNode.ts"
import { isSpfRecord, selectSpf } from "../../records/SpfParse.ts"
import { about, served } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { SpfResult, SpfPolicy } from "./SpfResult.ts"

export * from "./SpfResult.ts"

export const LookupLimit = 10

export const VoidLookupLimit = 2

const policyOf = (q: string | undefined): SpfPolicy =>
  q === "-" ? "fail" : q === "~" ? "softfail" : q === "?" ? "neutral" : q === "+" ? "pass" : "neutral"

const collect = (node: SpfNode, pred: (n: SpfNode) => boolean, out: Array<SpfNode> = []): Array<SpfNode> => {
  if (pred(node)) out.push(node)
  for (const c of node.children) collect(c, pred, out)
  return out
}

/** RFC 7208 sections 4.5, 4.6.4, 5, 6 and 7 applied to a gathered graph. Pure and total. */
export const analyse = (domain: string, fetch: SpfFetch): SpfResult => {
  const findings: Array<Finding> = []
  const add = (id: string, severity: Severity, message: string) => findings.push({ id, severity, message })
  const w = walk(fetch)
  const txt = fetch.txt.ok ? fetch.txt.value : []
  const selected = selectSpf(txt)
  // in selectSpf's order: several records sorted, so the one named first does not rotate
  const records =
    selected._tag === "multiple" ? selected.records : selected._tag === "one" ? [selected.record] : []
  const parsed = w.parsed
  const lookups = w.root.totalLookups
  const voidLookups = w.root.totalVoidLookups

  if (!fetch.txt.ok) {
    add(
      "spf-unknown",
      "high",
      `the TXT lookup for ${domain} failed (${fetch.txt.reason}): SPF is unknown, not missing`
    )
  } else if (selected._tag === "none") {
    add(
      "spf-missing",
      "high",
      `${domain} publishes no SPF record: anyone can send mail claiming to be from it`
    )
  } else if (selected._tag === "multiple") {
    add(
      "spf-multiple",
      "critical",
      `${domain} publishes ${records.length} SPF records: receivers return permerror (RFC 7208 4.5)`
    )
  }
  const errors = parsed?.errors ?? []
  for (const e of errors)
    add("spf-syntax", "critical", `syntax error at position ${e.position} ('${e.term}'): ${e.message}`)
  for (const e of w.nestedErrors) add("spf-nested-error", "high", e)

  if (lookups > LookupLimit)
    add(
      "spf-too-many-lookups",
      "critical",
      `${lookups} DNS lookups: more than ${LookupLimit} makes receivers return permerror (RFC 7208 4.6.4)`
    )
  else if (lookups >= 8)
    add(
      "spf-lookups-near-limit",
      "low",
      `${lookups} of ${LookupLimit} DNS lookups used: little room for another include`
    )
  if (voidLookups > VoidLookupLimit)
    add(
      "spf-too-many-void-lookups",
      "high",
      `${voidLookups} void lookups (no answer or NXDOMAIN): more than ${VoidLookupLimit} makes receivers return permerror (RFC 7208 4.6.4)`
    )
  else if (voidLookups > 0)
    add("spf-void-lookup", "low", `${voidLookups} void lookup(s): terms that point at names without records`)

  for (const n of collect(w.root, (n) => n.status === "loop"))
    add(
      "spf-loop",
      "critical",
      `${n.term} in ${n.domain ?? "?"} loops back to a record already being evaluated (permerror)`
    )
  // RFC 7208 5.2, 5.4, 5.6, 5.7: a lookup that fails inside include/exists/a/mx is a temperror:
  // the record's verdict cannot be known until it answers.
  const temperrors = collect(w.root, (n) => n.type !== "root" && n.status === "unknown")
  for (const n of temperrors)
    add(
      "spf-dns-unknown",
      "medium",
      `${n.term}: ${n.errors[0] ?? "lookup failed"} (temperror, RFC 7208 2.6.6): the verdict and the count below it are unknown`
    )
  for (const n of collect(
    w.root,
    (n) => n.type !== "root" && (n.status === "missing" || n.status === "multiple")
  ))
    add("spf-include-broken", "high", `${n.term}: ${n.errors[0] ?? "target has no usable SPF record"}`)
  for (const n of collect(w.root, (n) => n.type === "mx" && n.errors.some((e) => e.includes("more than 10"))))
    add("spf-mx-too-many", "high", `${n.term}: ${n.errors[0]}`)
  for (const d of w.includePassAll)
    add(
      "spf-include-pass-all",
      "critical",
      `the included record of ${d} ends in '+all': the include matches every sender on the internet`
    )
  if (collect(w.root, (n) => n.type === "ptr").length > 0)
    add(
      "spf-ptr",
      "low",
      "'ptr' is slow, unreliable and deprecated (RFC 7208 5.5): list the addresses instead"
    )
  if (collect(w.root, (n) => n.status === "budget" || n.status === "depth").length > 0)
    add(
      "spf-graph-truncated",
      "medium",
      "the graph is larger than this check follows; the counts are a minimum"
    )

  let policy: SpfPolicy = "none"
  if (!fetch.txt.ok) policy = "unknown"
  else if (parsed) {
    policy = w.finalAll !== undefined ? policyOf(w.finalAll) : w.policyUnknown ? "unknown" : "neutral"
    if (w.finalAll === "+")
      add("spf-pass-all", "critical", "'+all' authorises every server on the internet to send as this domain")
    else if (w.finalAll === "?")
      add("spf-neutral-all", "medium", "'?all' (neutral) gives receivers no instruction for unlisted servers")
    else if (w.finalAll === "~")
      add(
        "spf-softfail",
        "low",
        "'~all' (softfail): fine with DMARC enforcement; '-all' is stricter once every sender is listed"
      )
    else if (w.finalAll === undefined && !w.policyUnknown)
      add(
        "spf-no-all",
        "medium",
        "no 'all' mechanism or redirect: unlisted servers get the default neutral result (RFC 7208 4.7)"
      )
    for (const wn of parsed.warnings)
      if (!wn.message.includes("SHOULD NOT be used"))
        add("spf-warning", "info", `position ${wn.position} ('${wn.term}'): ${wn.message}`)
    const size = answerBytes(domain, txt)
    if (size > 512)
      add(
        "spf-answer-too-large",
        "low",
        `the TXT answer at ${domain} is ${size} bytes: over 512, resolvers without EDNS must retry over TCP (RFC 7208 3.4)`
      )
  }

  const flattened = flatten({
    domain,
    items: w.flat,
    all: w.finalAll,
    lookups,
    otherTxt: txt.filter((t) => !isSpfRecord(t))
  })

  const fatal = findings.some((f) =>
    [
      "spf-multiple",
      "spf-syntax",
      "spf-too-many-lookups",
      "spf-too-many-void-lookups",
      "spf-loop",
      "spf-include-broken",
      "spf-mx-too-many",
      "spf-nested-error"
    ].includes(f.id)
  )
  const exists = records.length > 0
  const valid = exists && !fatal
  const unknown = !fetch.txt.ok
  const status: CheckStatus = unknown
    ? "unknown"
    : !exists
      ? "missing"
      : !valid || policy === "pass" || w.includePassAll.length > 0
        ? "fail"
        : policy === "unknown" || temperrors.length > 0
          ? "unknown"
          : findings.some((f) => f.severity === "medium" || f.severity === "high")
            ? "warning"
            : "pass"

  const mechanisms = parsed?.terms.filter((t) => t.term.kind === "mechanism").map((t) => t.text) ?? []
  const modifiers = parsed?.terms.filter((t) => t.term.kind === "modifier").map((t) => t.text) ?? []
  const redirectTerm = parsed?.terms.find((t) => t.term.kind === "modifier" && t.term.name === "redirect")
  const includes =
    parsed?.terms.flatMap((t) =>
      t.term.kind === "mechanism" && t.term.name === "include" && t.term.domain ? [t.term.domain] : []
    ) ?? []

  return {
    domain,
    status,
    exists,
    record: records[0] ?? "",
    records,
    valid,
    policy,
    policySource: w.finalAllFrom ?? null,
    mechanisms,
    modifiers,
    redirect: redirectTerm && redirectTerm.term.kind === "modifier" ? redirectTerm.term.value : null,
    includes,
    lookups,
    lookupLimit: LookupLimit,
    voidLookups,
    voidLookupLimit: VoidLookupLimit,
    lookupGraph: w.root,
    flattened,
    errors,
    findings,
    issues: findings.filter((f) => f.severity !== "low" && f.severity !== "info").map((f) => f.message),
    warnings: findings.filter((f) => f.severity === "low" || f.severity === "info").map((f) => f.message)
  }
}

/** The SPF graph of the scanned domain, gathered once per scan (never fails: DNS failures are inside). */
export const SpfGraph = Fact.define(
  "spf.graph",
  Effect.flatMap(Facts, (facts) => gatherGraph(facts, facts.domain))
)

const gather = Effect.flatMap(Facts, (facts) =>
  Effect.map(facts.get(SpfGraph), (fetch) => ({ domain: facts.domain, fetch }))
)

export const Spf = define(about, {
  served,
  gather,
  analyse: ({ domain, fetch }: { readonly domain: string; readonly fetch: SpfFetch }) =>
    analyse(domain, fetch),
  exampleGathered
})
