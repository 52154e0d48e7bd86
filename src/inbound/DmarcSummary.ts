/**
 * What a domain owner acts on, from the aggregate reports of a period: how much mail claims the
 * domain, how much passes DMARC, who sends it, the DKIM selectors in use, and whether moving to
 * p=reject would lose legitimate mail (RFC 7489 6.6.2 and 7.2; RFC 9990). Pure over the stored
 * groups and what is known of each source.
 */
import { Schema } from "effect"
import { DateTime, Nullable, Strings } from "../records/Schemas.ts"
import type { ConflictRow, DmarcReportRow, ReporterRow, SourceGroup } from "../store/InboundReports.ts"
import { analystFields, analystSourceFields, analystSources, analystSummary } from "./DmarcAnalyst.ts"
import { reportAuthenticity, ReportAuthenticity } from "./Authenticity.ts"

export const Reporter = Schema.Struct({ name: Schema.String, reports: Schema.Int, messages: Schema.Int })

/**
 * A report identity (reporter, report id, domain) stored with different contents: every version is
 * kept and counted, and listed here so the owner can tell a forgery or a corrected re-send.
 */
export const Conflict = Schema.Struct({
  reporter: Schema.String,
  reportId: Schema.String,
  versions: Schema.Int
})

export const conflictsOf = (rows: ReadonlyArray<ConflictRow>) =>
  rows.map((c) => ({ reporter: c.reporter, reportId: c.report_id, versions: c.versions }))

export const DmarcSource = Schema.Struct({
  ip: Schema.String,
  /** The source's PTR name (looked up for the busiest sources only); null when none or not asked. */
  ptr: Nullable(Schema.String),
  /** The provider it belongs to: an SPF include of the domain covering its address, or its PTR. */
  provider: Nullable(Schema.String),
  providerFrom: Nullable(Schema.Literal("spf-include", "ptr")),
  messages: Schema.Int,
  /** Messages with an aligned SPF or DKIM pass (RFC 7489 4.2). */
  dmarcPass: Schema.Int,
  spfAligned: Schema.Int,
  dkimAligned: Schema.Int,
  dispositions: Schema.Struct({
    none: Schema.Int,
    quarantine: Schema.Int,
    reject: Schema.Int,
    pass: Schema.Int
  }),
  /** Messages whose disposition the receiver overrode, with a reason (RFC 7489 C: PolicyOverrideType). */
  overridden: Schema.Int,
  /** Mail it re-sends on a recipient's behalf: ARC or a forwarding reason, or a known forwarding service. */
  forwarder: Schema.Boolean,
  /** Identities that passed without aligning with the domain: `dkim:<d=>`, `spf:<MAIL FROM domain>`. */
  authenticatedAs: Strings,
  ...analystSourceFields
})
export type DmarcSource = typeof DmarcSource.Type

export const Blocker = Schema.Struct({
  ip: Schema.String,
  ptr: Nullable(Schema.String),
  provider: Nullable(Schema.String),
  /** Messages from it that fail DMARC and would be rejected under p=reject. */
  messages: Schema.Int,
  reason: Schema.String
})

/** A source whose mail fails DMARC that could not be told legitimate or not: a look-up it needs failed. */
export const Unclassified = Schema.Struct({
  ip: Schema.String,
  messages: Schema.Int,
  reason: Schema.String
})

export const ReadyForReject = Schema.Struct({
  /**
   * `no-data`: no report covers the period, or sources whose mail fails could not be classified
   * because look-ups failed (never `ready` on a guess).
   */
  verdict: Schema.Literal("ready", "not-ready", "no-data"),
  /** The busiest blockers (at most 100; `note` gives how many there are). */
  blockers: Schema.Array(Blocker),
  /** The busiest sources that could not be classified (at most 100). */
  unclassified: Schema.Array(Unclassified),
  note: Schema.String
})

export const DmarcSummary = Schema.Struct({
  domain: Schema.String,
  from: DateTime,
  to: DateTime,
  reports: Schema.Int,
  messages: Schema.Int,
  dmarcPass: Schema.Int,
  /** dmarcPass / messages; null without messages. */
  passRate: Nullable(Schema.Number),
  /** The busiest sources (at most 100), by messages. */
  sources: Schema.Array(DmarcSource),
  sourcesTotal: Schema.Int,
  selectors: Schema.Array(
    Schema.Struct({
      selector: Schema.String,
      /** The signing domain, d=. */
      domain: Schema.String,
      messages: Schema.Int,
      pass: Schema.Int,
      fail: Schema.Int
    })
  ),
  reporters: Schema.Array(Reporter),
  /** Report identities stored with more than one content in the period (at most 100). */
  conflicts: Schema.Array(Conflict),
  readyForReject: ReadyForReject,
  ...analystFields,
  /** Authenticated and unauthenticated reports counted apart, and what readyForReject rests on. */
  authenticity: ReportAuthenticity
})
export type DmarcSummary = typeof DmarcSummary.Type

/** What is known of a source beyond the reports. */
export interface SourceFacts {
  readonly ptr: string | null
  readonly provider: string | null
  readonly providerFrom: "spf-include" | "ptr" | null
  /** Its PTR names a known forwarding service and the domain's SPF does not cover it. */
  readonly knownForwarder: boolean
  /** Why it could not be classified, when a look-up it depends on failed (its PTR, the SPF includes). */
  readonly lookupFailed?: string | undefined
}

export const SOURCES_SHOWN = 100

/** Reasons a receiver gives for accepting forwarded mail that failed (RFC 7489 C PolicyOverrideType). */
const FORWARDING_REASONS = ["forwarded", "trusted_forwarder", "mailing_list"]

const isForwarded = (g: SourceGroup) =>
  g.overrides.split(",").some((r) => FORWARDING_REASONS.includes(r)) ||
  (g.arc === 1 && g.overrides.split(",").includes("local_policy"))

const passing = (g: SourceGroup): ReadonlyArray<string> => [
  ...g.dkim_auth
    .split(" ")
    .filter((x) => x.endsWith("=pass"))
    .map((x) => `dkim:${x.split("/")[0]}`),
  ...g.spf_auth
    .split(" ")
    .filter((x) => x.endsWith("=pass") && !x.startsWith("="))
    .map((x) => `spf:${x.slice(0, -"=pass".length)}`)
]

interface Tally {
  messages: number
  dmarcPass: number
  spfAligned: number
  dkimAligned: number
  dispositions: { none: number; quarantine: number; reject: number; pass: number }
  overridden: number
  forwardedSignals: number
  failing: number
  failingForwarded: number
  authenticatedAs: Set<string>
}

/** The busiest sources first: the ones worth a PTR look-up. */
export const busiestSources = (groups: ReadonlyArray<SourceGroup>, n: number): ReadonlyArray<string> => {
  const totals = new Map<string, number>()
  for (const g of groups) totals.set(g.source_ip, (totals.get(g.source_ip) ?? 0) + g.messages)
  return [...totals]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([ip]) => ip)
}

export const summariseDmarc = (input: {
  readonly domain: string
  readonly from: number
  readonly to: number
  readonly groups: ReadonlyArray<SourceGroup>
  readonly reporters: ReadonlyArray<ReporterRow>
  readonly facts: (ip: string) => SourceFacts
  readonly conflicts?: ReadonlyArray<ConflictRow>
  /** The period's reports (the analyst's daily series, policies, errors and repairs read them). */
  readonly reports?: ReadonlyArray<DmarcReportRow>
  readonly authenticity?: ReportAuthenticity
}): DmarcSummary => {
  const analystOf = analystSources(input.groups)
  const tallies = new Map<string, Tally>()
  const selectors = new Map<
    string,
    { selector: string; domain: string; messages: number; pass: number; fail: number }
  >()
  for (const g of input.groups) {
    let t = tallies.get(g.source_ip)
    if (t === undefined) {
      t = {
        messages: 0,
        dmarcPass: 0,
        spfAligned: 0,
        dkimAligned: 0,
        dispositions: { none: 0, quarantine: 0, reject: 0, pass: 0 },
        overridden: 0,
        forwardedSignals: 0,
        failing: 0,
        failingForwarded: 0,
        authenticatedAs: new Set()
      }
      tallies.set(g.source_ip, t)
    }
    const n = g.messages
    const pass = g.dkim === "pass" || g.spf === "pass"
    t.messages += n
    if (pass) t.dmarcPass += n
    if (g.spf === "pass") t.spfAligned += n
    if (g.dkim === "pass") t.dkimAligned += n
    const d = g.disposition as keyof Tally["dispositions"]
    if (d in t.dispositions) t.dispositions[d] += n
    if (g.overrides !== "") t.overridden += n
    if (isForwarded(g)) t.forwardedSignals += n
    if (!pass) {
      t.failing += n
      if (isForwarded(g)) t.failingForwarded += n
      for (const who of passing(g)) t.authenticatedAs.add(who)
    }
    for (const sig of g.dkim_auth.split(" ").filter((x) => x !== "")) {
      const m = /^([^/]*)\/([^=]*)=(.*)$/.exec(sig)
      if (!m || m[2] === "") continue
      const key = `${m[2]}\u0000${m[1]}`
      const s = selectors.get(key) ?? { selector: m[2]!, domain: m[1]!, messages: 0, pass: 0, fail: 0 }
      s.messages += n
      if (m[3] === "pass") s.pass += n
      else s.fail += n
      selectors.set(key, s)
    }
  }
  const all = [...tallies].sort((a, b) => b[1].messages - a[1].messages || a[0].localeCompare(b[0]))
  const sources: Array<DmarcSource> = []
  const blockers: Array<typeof Blocker.Type> = []
  const unclassified: Array<typeof Unclassified.Type> = []
  for (const [ip, t] of all) {
    const facts = input.facts(ip)
    const forwarder = t.forwardedSignals > 0 || facts.knownForwarder
    if (sources.length < SOURCES_SHOWN)
      sources.push({
        ip,
        ptr: facts.ptr,
        provider: facts.provider,
        providerFrom: facts.providerFrom,
        messages: t.messages,
        dmarcPass: t.dmarcPass,
        spfAligned: t.spfAligned,
        dkimAligned: t.dkimAligned,
        dispositions: t.dispositions,
        overridden: t.overridden,
        forwarder,
        authenticatedAs: [...t.authenticatedAs].sort(),
        ...analystOf(ip)
      })
    const lost = facts.knownForwarder ? 0 : t.failing - t.failingForwarded
    const legitimate =
      facts.providerFrom === "spf-include" || facts.provider !== null || t.authenticatedAs.size > 0
    if (lost > 0 && !legitimate && facts.lookupFailed !== undefined)
      unclassified.push({ ip, messages: lost, reason: facts.lookupFailed })
    if (lost > 0 && legitimate)
      blockers.push({
        ip,
        ptr: facts.ptr,
        provider: facts.provider,
        messages: lost,
        reason: blockerReason(input.domain, facts, [...t.authenticatedAs].sort())
      })
  }
  const messages = all.reduce((n, [, t]) => n + t.messages, 0)
  const dmarcPass = all.reduce((n, [, t]) => n + t.dmarcPass, 0)
  const reports = input.reporters.reduce((n, r) => n + r.reports, 0)
  return {
    domain: input.domain,
    from: new Date(input.from * 1000).toISOString(),
    to: new Date(input.to * 1000).toISOString(),
    reports,
    messages,
    dmarcPass,
    passRate: messages === 0 ? null : dmarcPass / messages,
    sources,
    sourcesTotal: all.length,
    selectors: [...selectors.values()].sort(
      (a, b) => b.messages - a.messages || a.selector.localeCompare(b.selector)
    ),
    reporters: input.reporters.map((r) => ({ name: r.reporter, reports: r.reports, messages: r.messages })),
    conflicts: conflictsOf(input.conflicts ?? []),
    ...analystSummary(input.groups, input.reports ?? []),
    // without verdicts handed in (examples, tests), every report counts as unauthenticated
    authenticity:
      input.authenticity ?? reportAuthenticity(input.reporters.map((r) => ({ ...r, authenticated: 0 }))),
    readyForReject:
      messages === 0
        ? {
            verdict: "no-data",
            blockers: [],
            unclassified: [],
            note: "No aggregate report covers this period: point rua= at this service and wait a day or two."
          }
        : blockers.length > 0
          ? {
              verdict: "not-ready",
              blockers: blockers.slice(0, SOURCES_SHOWN),
              unclassified: unclassified.slice(0, SOURCES_SHOWN),
              note: `${blockers.length} legitimate-looking source(s) send mail that fails DMARC; under p=reject it would be refused. Align them first.`
            }
          : unclassified.length > 0
            ? {
                verdict: "no-data",
                blockers: [],
                unclassified: unclassified.slice(0, SOURCES_SHOWN),
                note: `${unclassified.length} source(s) whose mail fails DMARC could not be classified because the look-ups that tell a legitimate sender from a spoofer failed (PTR, SPF includes): no verdict until they answer.`
              }
            : {
                verdict: "ready",
                blockers: [],
                unclassified: [],
                note: "Every source whose mail fails DMARC is unknown (likely spoofing) or a forwarder: p=reject would lose no legitimate mail seen in this period."
              }
  }
}

const blockerReason = (domain: string, facts: SourceFacts, passed: ReadonlyArray<string>) => {
  const who =
    facts.providerFrom === "spf-include"
      ? `${facts.provider} is in ${domain}'s SPF record`
      : facts.provider !== null
        ? `its PTR (${facts.ptr}) names ${facts.provider}`
        : "it authenticates as another domain"
  const how =
    passed.length > 0
      ? `it passes ${passed.join(", ")} but neither aligns with ${domain}: sign with DKIM d=${domain} or use a MAIL FROM under ${domain}`
      : `neither SPF nor DKIM passes aligned with ${domain}: sign its mail with DKIM d=${domain}`
  return `${who}, yet ${how}`
}
