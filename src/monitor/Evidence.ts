/**
 * Evidence over a period (docs/monitoring.md "Evidence over a period"): for an auditor who asks
 * whether a control held from one date to another, not on one day. It lists the history entries in
 * force during the period with their hashes, the share of the period each score record and each
 * NIS2 measure (Article 21(2), score/Nis2.ts) held `pass`, and the changes between the entries.
 *
 * Pure. An entry holds from its scan (or the period's start, for the entry in force then) until the
 * next entry's scan (or the period's end). Time in which a record or measure did not apply
 * (`not-applicable`) is left out of its share; time in which it could not be judged (`unknown`)
 * counts as not holding.
 */
import { NormalDomain, type Domain } from "../records/DomainName.ts"
import { Schema } from "effect"
import { Categories } from "../kernel/Check.ts"
import type { ScanResult } from "../scan/ScanResult.ts"
import { DateTime } from "../records/Schemas.ts"
import { MeasureId, nis2Scorecard } from "../score/Nis2.ts"
import { score } from "../score/Score.ts"
import { Change } from "./Change.ts"
import { diffScans } from "./Diff.ts"
import { type ChainVerdict, HistoryEntry } from "./HistoryChain.ts"

const Share = Schema.NullOr(Schema.Number.pipe(Schema.between(0, 1))).annotations({
  description: "the share of the observed time it held pass, 0-1 (4 decimals); null when it never applied"
})

export const HeldShare = Schema.Struct({
  id: Schema.String,
  label: Schema.String,
  passShare: Share,
  /** Seconds of the period it held pass, and seconds in which it applied (the share's denominator). */
  passSeconds: Schema.Number,
  appliedSeconds: Schema.Number
})
export type HeldShare = typeof HeldShare.Type

export const StepChanges = Schema.Struct({
  fromSeq: Schema.Int,
  toSeq: Schema.Int,
  at: DateTime,
  changes: Schema.Array(Change)
})

export const HistoryEvidence = Schema.Struct({
  domain: NormalDomain,
  period: Schema.Struct({ from: DateTime, to: DateTime }),
  chainValid: Schema.Boolean,
  invalidSeq: Schema.NullOr(Schema.Int),
  /** The entries in force during the period, oldest first: the one at its start, then each scan in it. */
  entries: Schema.Array(HistoryEntry),
  observedSeconds: Schema.Number,
  checks: Schema.Array(HeldShare),
  measures: Schema.Array(HeldShare.pipe(Schema.extend(Schema.Struct({ id: MeasureId })))),
  changes: Schema.Array(StepChanges),
  /**
   * The service's Ed25519 signature over the RFC 8785 canonical JSON of the export without this
   * member: a JWS with detached payload (RFC 7515 Appendix F) whose header carries the public key
   * (SignedEvidence.ts). Set where the export is served.
   */
  signature: Schema.optional(
    Schema.String.annotations({
      description:
        "JWS (RFC 7515 Appendix F, detached payload; alg EdDSA) over the RFC 8785 canonical JSON of this export without `signature`; its protected header carries the public key (jwk) and kid, the key's RFC 7638 thumbprint, published at /.well-known/domain-audit-keys.json"
    })
  )
}).annotations({ identifier: "HistoryEvidence" })
export type HistoryEvidence = typeof HistoryEvidence.Type

type Status = "pass" | "not-applicable" | string

/** Seconds with 3 decimals (milliseconds). */
const seconds = (ms: number) => Math.round(ms) / 1000

/** The share of `weights` in which each id held pass, over the ids of `statusesOf` in order. */
const shares = (
  spans: ReadonlyArray<{
    readonly ms: number
    readonly statuses: ReadonlyMap<string, { label: string; status: Status }>
  }>
): ReadonlyArray<HeldShare> => {
  const ids = [...new Map(spans.flatMap((s) => [...s.statuses]).map(([id, v]) => [id, v.label]))]
  return ids.map(([id, label]) => {
    let pass = 0
    let applied = 0
    for (const span of spans) {
      const status = span.statuses.get(id)?.status
      if (status === undefined || status === "not-applicable") continue
      applied += span.ms
      if (status === "pass") pass += span.ms
    }
    return {
      id,
      label,
      passShare: applied === 0 ? null : Math.round((pass / applied) * 10_000) / 10_000,
      passSeconds: seconds(pass),
      appliedSeconds: seconds(applied)
    }
  })
}

/**
 * The evidence of `entries` (oldest first, each with its stored scan: the entry in force at
 * `period.from`, if any, then every entry scanned in the period) over `period`.
 */
export const evidenceOf = (
  domain: Domain,
  period: { readonly from: string; readonly to: string },
  chain: ChainVerdict,
  entries: ReadonlyArray<{ readonly entry: HistoryEntry; readonly scan: ScanResult }>
): HistoryEvidence => {
  const fromMs = Date.parse(period.from)
  const toMs = Date.parse(period.to)
  const spans = entries.map(({ entry, scan }, i) => {
    const start = Math.max(fromMs, Date.parse(entry.scannedAt))
    const next = entries[i + 1]
    const end = Math.min(toMs, next === undefined ? toMs : Date.parse(next.entry.scannedAt))
    return { ms: Math.max(0, end - start), scan }
  })
  const checks = shares(
    spans.map(({ ms, scan }) => {
      const scored = score(scan)
      const records = Categories.flatMap((c) => scored.categories[c].checks)
      return { ms, statuses: new Map(records.map((r) => [r.id, { label: r.title, status: r.status }])) }
    })
  )
  const measures = shares(
    spans.map(({ ms, scan }) => ({
      ms,
      statuses: new Map(
        nis2Scorecard(scan, "en").measures.map((m) => [m.id, { label: m.label, status: m.status }])
      )
    }))
  ) as HistoryEvidence["measures"]
  return {
    domain,
    period,
    chainValid: chain.chainValid,
    invalidSeq: chain.invalidSeq,
    entries: entries.map((e) => e.entry),
    observedSeconds: seconds(spans.reduce((s, span) => s + span.ms, 0)),
    checks,
    measures,
    changes: entries.slice(1).map(({ entry, scan }, i) => ({
      fromSeq: entries[i]!.entry.seq,
      toSeq: entry.seq,
      at: entry.scannedAt,
      changes: diffScans(entries[i]!.scan, scan)
    }))
  }
}
