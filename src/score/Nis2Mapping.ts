/**
 * The NIS2 mapping (pure data): which scored check records (docs/scoring.md) are evidence for which
 * measure of Article 21(2)(a)-(j) of Directive (EU) 2022/2555, and what each weighs.
 * docs/nis2.md has the table with the reasons; `test/score/nis2.test.ts` keeps the two in step.
 *
 * - A measure's `weight` is its share of the total (the observable ones sum to 100). Measures that
 *   an outside scan cannot see at all (a, f, i) weigh 0 and are always `not-applicable`.
 * - An evidence item's `weight` is its share within the measure. `passAt` is the fraction of the
 *   record's points that counts as passing (default 1: only a full pass), so `p=quarantine`
 *   (6 of 8) can pass "DMARC enforces" while `pct=50` (4 of 8) does not.
 */
import type { Registered } from "../kernel/Check.ts"
import { type MeasureId, MeasureIds } from "../kernel/Declaration.ts"
import { registry } from "../checks/index.ts"
import type { EvidenceText } from "../kernel/Nis2Evidence.ts"
import type { IssueId } from "./Catalogue.ts"

export { type MeasureId, MeasureIds } from "../kernel/Declaration.ts"

export interface EvidenceSpec {
  /** The id of a scored check record (the rules of `checks/<check>/Rules.ts`), shown as `checkId`. */
  readonly checkId: string
  readonly weight: number
  readonly passAt?: number
  readonly text: EvidenceText
}

export interface MeasureSpec {
  readonly id: MeasureId
  readonly weight: number
  readonly evidence: ReadonlyArray<EvidenceSpec>
}

/**
 * Each measure's share of the total. Measures an outside scan cannot see at all weigh 0: (a) risk
 * analysis policies, (f) assessing effectiveness, (i) HR security and access control.
 * What each measure reads is declared by the checks whose rules are its evidence (`about.nis2`).
 */
const WEIGHTS: { readonly [M in MeasureId]: number } = {
  a: 0,
  // (b) incident handling: the report channels that feed it (spoofing and TLS-failure reports).
  b: 10,
  // (c) business continuity: redundancy and resolvability of the domain's own DNS and mail routing.
  c: 10,
  // (d) supply chain security: CAA names the certificate suppliers allowed to issue for the domain.
  d: 5,
  // (e) acquisition, development and maintenance: fresh signatures, current algorithms, web hardening.
  e: 15,
  f: 0,
  // (g) basic cyber hygiene: mail authentication, a clean sending reputation, reverse DNS.
  g: 25,
  // (h) cryptography and encryption: encryption in transit of the public services, signed DNS.
  h: 30,
  i: 0,
  // (j) secured text communications: mail transport whose encryption senders must enforce.
  j: 5
}

/** The mapping over `checks`: every measure, with the evidence the checks declare, by rank. */
export const measuresOf = (checks: ReadonlyArray<Registered>): ReadonlyArray<MeasureSpec> =>
  MeasureIds.map((id) => ({
    id,
    weight: WEIGHTS[id],
    evidence: checks
      .flatMap((c) => c.about.nis2)
      .filter((e) => e.measure === id)
      .sort((a, b) => a.rank - b.rank)
      .map(({ record, weight, passAt, text }) =>
        passAt === undefined ? { checkId: record, weight, text } : { checkId: record, weight, passAt, text }
      )
  }))

export const MEASURES: ReadonlyArray<MeasureSpec> = measuresOf(registry)

/**
 * Issues that mean "the protection is not there at all": a failing evidence item with only these
 * reads `missing`; any other failure reads `fail`. (A lookup that did not answer is neither.)
 */
export const ABSENCE_ISSUES: ReadonlySet<IssueId> = new Set<IssueId>([
  "spf_missing",
  "dmarc_missing",
  "dmarc_no_rua",
  "tls_rpt_missing",
  "mta_sts_missing",
  "caa_missing",
  "soa_missing",
  "ptr_missing",
  "https_missing",
  "hsts_missing",
  "xcto_missing",
  "frame_protection_missing",
  "referrer_policy_missing",
  "csp_missing",
  "dnssec_unsigned",
  "dane_missing"
])

/** Every record id the mapping reads (for the completeness tests). */
export const evidenceCheckIds: ReadonlyArray<string> = MEASURES.flatMap((m) =>
  m.evidence.map((e) => e.checkId)
)

/** Thresholds of the scorecard's status (docs/nis2.md "Status"). */
export const COMPLIANT_AT = 90
export const NON_COMPLIANT_BELOW = 50
