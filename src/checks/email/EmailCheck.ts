/**
 * The email check's pure part (`GET /email/check`, composed in `src/scan/EmailCheck.ts` from the
 * SPF, DKIM and DMARC checks and the MX set): the MX reading, the 0-100 email score that
 * docs/scoring.md ("Email score") explains, and the result's schema.
 * The score is pure and total over a small input interface, so it does not depend on every field of
 * the DKIM and DMARC results, only on the verdicts it needs.
 */
import { Schema } from "effect"
import type { MxAnswer } from "../Facts.ts"
import { type CheckStatus, Status } from "../Status.ts"
import { DkimResult } from "../dkim/Dkim.ts"
import { DmarcResult } from "../dmarc/Dmarc.ts"
import { SpfResult, type SpfPolicy } from "../spf/Spf.ts"
import { Strings } from "../../records/Schemas.ts"

/** The domain's MX set as RFC 5321 5.1 and RFC 7505 read it. */
export interface MxSet {
  /** The MX records by priority; a null MX appears as host "" (RFC 7505 3: "0 ."). */
  readonly records: ReadonlyArray<{ readonly priority: number; readonly host: string }>
  /** The domain declares it accepts no mail: a single MX "0 ." (RFC 7505). */
  readonly nullMx: boolean
  /** A null MX mixed with other MX records: RFC 7505 3 says it MUST be the only one. */
  readonly nullMxMixed: boolean
  /** No MX records at all: senders fall back to the domain's own A/AAAA (RFC 5321 5.1). */
  readonly implicit: boolean
}

/** RFC 7505 3 / RFC 5321 5.1 reading of an MX answer (a null MX's exchange is "" or "."). */
export const mxSet = (answer: ReadonlyArray<MxAnswer>): MxSet => {
  const records = answer.map((r) => ({
    priority: r.priority,
    host: r.exchange === "" || r.exchange === "." ? "" : r.exchange
  }))
  const nulls = records.filter((r) => r.host === "")
  return {
    records,
    nullMx: nulls.length > 0 && records.length === 1,
    nullMxMixed: nulls.length > 0 && records.length > 1,
    implicit: records.length === 0
  }
}

/** What the score reads from the SPF result. */
export interface SpfScoreInput {
  readonly status: CheckStatus
  readonly exists: boolean
  readonly valid: boolean
  readonly policy: SpfPolicy
}

/** What the score reads from the DKIM result (both shapes carry these). */
export interface DkimScoreInput {
  readonly status: CheckStatus
  /** `found`, `not-found` (none among the selectors asked) or `unknown` (look-ups failed). */
  readonly discovery: "found" | "not-found" | "unknown"
  readonly valid_keys: number
  readonly selectorsFound: ReadonlyArray<{
    readonly valid: boolean
    readonly keyType: string
    readonly keyLength: number | null
  }>
}

/** What the score reads from the DMARC result. */
export interface DmarcScoreInput {
  readonly status: CheckStatus
  readonly exists: boolean
  readonly valid: boolean
  readonly policy?: "none" | "quarantine" | "reject" | undefined
  readonly subdomainPolicy?: "none" | "quarantine" | "reject" | undefined
  readonly pct?: number | undefined
  readonly reportingEnabled: boolean
}

export interface MxScoreInput {
  /** The MX set, or `unknown` when the MX lookup failed. */
  readonly set: MxSet | "unknown"
}

export const ScorePart = Schema.Struct({
  component: Schema.Literal("spf", "dkim", "dmarc"),
  earned: Schema.Int,
  /** 0 when the part is unknown or does not apply: it then leaves the total out. */
  possible: Schema.Int,
  notes: Strings
})
export type ScorePart = typeof ScorePart.Type

export const EmailScore = Schema.Struct({
  score: Schema.Int,
  /** True when some part could not be judged (a DNS failure) and was left out of the total. */
  partial: Schema.Boolean,
  parts: Schema.Array(ScorePart)
})
export type EmailScore = typeof EmailScore.Type

export const SpfWeight = 30
export const DkimWeight = 30
export const DmarcWeight = 40

const spfPart = (spf: SpfScoreInput): ScorePart => {
  const part = (earned: number, ...notes: Array<string>): ScorePart => ({
    component: "spf",
    earned,
    possible: SpfWeight,
    notes
  })
  if (spf.status === "unknown")
    return { component: "spf", earned: 0, possible: 0, notes: ["SPF lookup failed: left out"] }
  if (!spf.exists) return part(0, "no SPF record")
  if (spf.policy === "pass") return part(0, "'+all' authorises everyone")
  if (!spf.valid) return part(5, "SPF record present but receivers get permerror")
  const policy = { fail: 15, softfail: 12, neutral: 3, none: 0, unknown: 6, pass: 0 }[spf.policy]
  return part(15 + policy, `valid record, policy ${spf.policy}`)
}

const dkimPart = (dkim: DkimScoreInput, noMail: boolean): ScorePart => {
  if (noMail)
    return {
      component: "dkim",
      earned: 0,
      possible: 0,
      notes: ["null MX: a domain that sends no mail needs no DKIM key"]
    }
  if (dkim.discovery === "unknown" && dkim.valid_keys === 0)
    return { component: "dkim", earned: 0, possible: 0, notes: ["DKIM lookups failed: left out"] }
  const part = (earned: number, ...notes: Array<string>): ScorePart => ({
    component: "dkim",
    earned,
    possible: DkimWeight,
    notes
  })
  if (dkim.valid_keys === 0)
    return part(
      0,
      dkim.discovery === "not-found"
        ? "no key among the selectors asked (not proof of no DKIM)"
        : "no valid key"
    )
  const valid = dkim.selectorsFound.filter((s) => s.valid)
  const strong = valid.every((s) => s.keyType === "ed25519" || (s.keyLength ?? 0) >= 2048)
  return strong ? part(30, "valid keys, all strong") : part(22, "valid keys, some RSA keys under 2048 bits")
}

const dmarcPart = (dmarc: DmarcScoreInput, noMail: boolean): ScorePart => {
  if (dmarc.status === "unknown")
    return { component: "dmarc", earned: 0, possible: 0, notes: ["DMARC lookup failed: left out"] }
  const part = (earned: number, ...notes: Array<string>): ScorePart => ({
    component: "dmarc",
    earned,
    possible: DmarcWeight,
    notes
  })
  if (!dmarc.exists) return part(0, "no DMARC record")
  if (!dmarc.valid) return part(3, "DMARC record present but invalid")
  const pct = Math.min(100, Math.max(0, dmarc.pct ?? 100)) / 100
  const enforcement = dmarc.policy === "reject" ? 20 : dmarc.policy === "quarantine" ? 14 : 0
  const sub = dmarc.subdomainPolicy ?? dmarc.policy
  const earned =
    10 +
    Math.round(enforcement * pct) +
    (dmarc.reportingEnabled || noMail ? 5 : 0) +
    (sub === "reject" || sub === "quarantine" ? 5 : 0)
  return part(
    earned,
    `policy ${dmarc.policy ?? "none"}${pct < 1 ? ` on ${Math.round(pct * 100)}%` : ""}`,
    dmarc.reportingEnabled
      ? "aggregate reports enabled"
      : noMail
        ? "no aggregate reports (optional for a domain that sends no mail)"
        : "no aggregate reports"
  )
}

/**
 * The email score: SPF 30, DKIM 30, DMARC 40 points; parts that could not be judged (DNS failures)
 * or do not apply (DKIM for a null-MX domain) leave the total, which is rescaled to 0-100.
 */
export const emailScore = (input: {
  readonly spf: SpfScoreInput
  readonly dkim: DkimScoreInput
  readonly dmarc: DmarcScoreInput
  readonly mx: MxScoreInput
}): EmailScore => {
  const noMail = input.mx.set !== "unknown" && input.mx.set.nullMx
  const parts = [spfPart(input.spf), dkimPart(input.dkim, noMail), dmarcPart(input.dmarc, noMail)].map(
    (p) => ({
      ...p,
      earned: Math.max(0, Math.min(p.earned, p.possible))
    })
  )
  const possible = parts.reduce((s, p) => s + p.possible, 0)
  const earned = parts.reduce((s, p) => s + p.earned, 0)
  const score = possible === 0 ? 0 : Math.round((100 * earned) / possible)
  return {
    score: Math.max(0, Math.min(100, score)),
    parts,
    partial: parts.some((p) => p.possible === 0 && !p.notes.some((n) => n.startsWith("null MX")))
  }
}

export const EmailMx = Schema.Struct({
  status: Status,
  /** A null MX (RFC 7505) appears as host ".". */
  records: Schema.Array(Schema.Struct({ priority: Schema.Int, host: Schema.String })),
  nullMx: Schema.Boolean,
  implicit: Schema.Boolean,
  issues: Strings
})
export type EmailMx = typeof EmailMx.Type

/** RFC 5321 5.1 / RFC 7505 reading of the MX set for the result. */
export const analyseMx = (set: MxSet | { readonly error: string }): EmailMx => {
  if ("error" in set)
    return {
      status: "unknown",
      records: [],
      nullMx: false,
      implicit: false,
      issues: [`MX lookup failed: ${set.error}`]
    }
  const issues: Array<string> = []
  if (set.nullMxMixed) issues.push("a null MX ('0 .') must be the only MX record (RFC 7505 3)")
  if (set.implicit)
    issues.push("no MX records: senders fall back to the domain's A/AAAA address (RFC 5321 5.1)")
  return {
    status: set.nullMxMixed ? "fail" : set.implicit ? "warning" : set.nullMx ? "not-applicable" : "pass",
    records: set.records.map((r) => ({ priority: r.priority, host: r.host === "" ? "." : r.host })),
    nullMx: set.nullMx,
    implicit: set.implicit,
    issues
  }
}

export const EmailCheckResult = Schema.Struct({
  success: Schema.Boolean,
  domain: Schema.String,
  spf: SpfResult,
  dkim: DkimResult,
  dmarc: DmarcResult,
  mx: EmailMx,
  /** 0-100, docs/scoring.md "Email score". */
  score: Schema.Int,
  scoreBreakdown: EmailScore
})
export type EmailCheckResult = typeof EmailCheckResult.Type

/** Assembles the result (pure). `success` is false only when nothing at all could be looked up. */
export const assemble = (
  domain: string,
  spf: SpfResult,
  dkim: DkimResult,
  dmarc: DmarcResult,
  mxSet: MxSet | { readonly error: string }
): EmailCheckResult => {
  const mx = analyseMx(mxSet)
  const breakdown = emailScore({ spf, dkim, dmarc, mx: { set: "error" in mxSet ? "unknown" : mxSet } })
  const allUnknown = [spf.status, dkim.status, dmarc.status, mx.status].every((s) => s === "unknown")
  return {
    success: !allUnknown,
    domain,
    spf,
    dkim,
    dmarc,
    mx,
    score: breakdown.score,
    scoreBreakdown: breakdown
  }
}
