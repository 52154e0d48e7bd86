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
import type { IssueId } from "./Catalogue.ts"

export const MeasureIds = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"] as const
export type MeasureId = (typeof MeasureIds)[number]

export interface EvidenceSpec {
  /** The id of a scored check record (`src/score/Rules*.ts`), shown as the evidence's `checkId`. */
  readonly checkId: string
  readonly weight: number
  readonly passAt?: number
}

export interface MeasureSpec {
  readonly id: MeasureId
  readonly weight: number
  readonly evidence: ReadonlyArray<EvidenceSpec>
}

const ev = (checkId: string, weight: number, passAt?: number): EvidenceSpec =>
  passAt === undefined ? { checkId, weight } : { checkId, weight, passAt }

export const MEASURES: ReadonlyArray<MeasureSpec> = [
  // (a) policies on risk analysis and information system security: organisational, invisible.
  { id: "a", weight: 0, evidence: [] },
  // (b) incident handling: the report channels that feed it (spoofing and TLS-failure reports).
  { id: "b", weight: 10, evidence: [ev("email.dmarc.reporting", 1), ev("email.tls_rpt", 1)] },
  // (c) business continuity: redundancy and resolvability of the domain's own DNS and mail routing.
  {
    id: "c",
    weight: 10,
    evidence: [ev("dns.ns.count", 2), ev("dns.soa", 1), ev("dns.mx.resolvable", 1)]
  },
  // (d) supply chain security: CAA names the certificate suppliers allowed to issue for the domain.
  { id: "d", weight: 5, evidence: [ev("dns.caa", 1)] },
  // (e) acquisition, development and maintenance: signatures kept fresh, current algorithms and
  //     parameters, and the web platform's hardening headers.
  {
    id: "e",
    weight: 15,
    evidence: [
      ev("dnssec.rrsig", 2),
      ev("dnssec.algorithm", 1),
      ev("dnssec.nsec3", 1),
      ev("security.headers.xcto", 1),
      ev("security.headers.frame", 1),
      ev("security.headers.referrer", 1),
      ev("security.csp", 2)
    ]
  },
  // (f) assessing the effectiveness of measures: organisational, invisible.
  { id: "f", weight: 0, evidence: [] },
  // (g) basic cyber hygiene: mail authentication, a clean sending reputation, reverse DNS.
  {
    id: "g",
    weight: 25,
    evidence: [
      ev("email.spf.valid", 2),
      ev("email.spf.policy", 2, 0.75),
      ev("email.dmarc.valid", 1),
      ev("email.dmarc.policy", 3, 0.75),
      ev("email.dkim", 2),
      ev("security.blocklist", 2),
      ev("dns.ptr", 1),
      ev("dns.fcrdns", 1)
    ]
  },
  // (h) cryptography and encryption: encryption in transit of the public services, signed DNS.
  {
    id: "h",
    weight: 30,
    evidence: [
      ev("security.web.https", 3),
      ev("security.web.hsts", 2),
      ev("security.mx.starttls", 3),
      ev("security.mx.cert", 2),
      ev("dnssec.signed", 1),
      ev("dnssec.valid", 2)
    ]
  },
  // (i) HR security, access control, asset management: organisational, invisible.
  { id: "i", weight: 0, evidence: [] },
  // (j) secured text communications: mail transport whose encryption senders must enforce.
  { id: "j", weight: 5, evidence: [ev("email.mta_sts", 1), ev("security.mx.dane", 1)] }
]

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
