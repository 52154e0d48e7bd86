/**
 * The Schema of the Everything Report (SPEC "Everything Report and snapshot"): what GET
 * /report/everything answers, what a snapshot stores (as canonical JSON) and what the markdown is
 * rendered from. Field names of the top level and of `evidence` are the contract's; the inner
 * shapes of `summary`, `sections`, `citations` and `machineReadable` are ours (SPEC: "not shown"),
 * documented in docs/reports.md.
 */
import { Schema } from "effect"
import { Categories, type Category, type Registered } from "../kernel/Check.ts"
import { registry } from "../checks/index.ts"
import { RecordStatus } from "../kernel/Declaration.ts"
import { Severity } from "../kernel/Status.ts"
import { DateTime, Nullable } from "../records/Schemas.ts"
import { NormalDomain } from "../records/DomainName.ts"
import { CheckOutcome } from "../scan/ScanResult.ts"
import { CheckRecord, Grade, GradeInfo } from "../score/Model.ts"
import { Guidance } from "../score/Guidance.ts"
import { Recommendation, ScanScore } from "../score/Score.ts"
import { Citation } from "./Citations.ts"
import { Nis2Part } from "./Nis2Part.ts"
import { ReportsReceived } from "./ReceivedReports.ts"
import { inReportOrder } from "./Sections.ts"

/**
 * The version of this document's shape. Part of the hashed content: a reader knows which rules
 * produced a snapshot. Bump it when a field changes meaning or moves.
 */
export const formatVersion = "everything-report/1"

export const retentionPolicy = "indefinite" as const

export const retentionNotice =
  "Stored snapshots do not expire. A snapshot is removed only for abuse prevention, legal compliance " +
  "or operational integrity, by an explicit and logged operator action; it is never changed."

export const Evidence = Schema.Struct({
  liveReportUrl: Schema.String,
  snapshotCreateUrl: Schema.String,
  /** Empty in a live report (no snapshot yet): POST snapshotCreateUrl to make one. */
  snapshotUrl: Schema.String,
  snapshotMarkdownUrl: Schema.String,
  snapshotId: Schema.String,
  /** `sha256:<hex>` over the RFC 8785 canonical JSON of the report without `evidence`. */
  contentHash: Schema.String,
  formatVersion: Schema.String,
  retentionPolicy: Schema.Literal(retentionPolicy),
  retentionNotice: Schema.String,
  /** When the snapshot was stored; null in a live report. */
  createdAt: Nullable(DateTime),
  /**
   * The service's Ed25519 signature over the same bytes `contentHash` covers: a JWS with detached
   * payload (RFC 7515 Appendix F, report/Jws.ts). Absent in a live report and in snapshots stored
   * before the service signed them.
   */
  signature: Schema.optional(
    Schema.String.annotations({
      description:
        "JWS (RFC 7515 Appendix F, detached payload; alg EdDSA) over the RFC 8785 canonical JSON of the report without `evidence`; kid is the key's RFC 7638 thumbprint, published at /.well-known/domain-audit-keys.json"
    })
  )
})
export type Evidence = typeof Evidence.Type

export const Fact = Schema.Struct({ label: Schema.String, value: Schema.String })
export type Fact = typeof Fact.Type

export const Finding = Schema.Struct({
  issueId: Schema.String,
  severity: Severity,
  title: Schema.String,
  description: Schema.String,
  /** What to do, in words: the guidance's numbered steps and the points fixing it regains. */
  fix: Schema.String,
  fixable: Schema.Boolean,
  /** The endpoint that writes the fix (SPF, DMARC, TLSA, security headers), if one does. */
  generator: Nullable(Schema.String),
  /** Keys into the report's `citations`. */
  citations: Schema.Array(Schema.String),
  /**
   * The issue's guidance (docs/guidance.md) as it stood when the report was made, so a snapshot
   * keeps the text it was read with; absent for a finding outside the catalogue and in snapshots
   * stored before reports carried it.
   */
  guidance: Schema.optional(Guidance)
})
export type Finding = typeof Finding.Type

/** A section's status speaks as its records do (kernel/Declaration.ts `RecordStatus`). */
export const SectionStatus = RecordStatus
export type SectionStatus = RecordStatus

const sectionFields = {
  key: Schema.String,
  title: Schema.String,
  /** The check whose result this section presents (`machineReadable.scan.checks[check]`). */
  check: Schema.String,
  status: SectionStatus,
  /** Why the check could not finish, when status is `unknown`. */
  unknownReason: Nullable(Schema.String),
  points: Schema.Int,
  maxPoints: Schema.Int,
  records: Schema.Array(CheckRecord),
  facts: Schema.Array(Fact),
  findings: Schema.Array(Finding),
  sources: Schema.Array(Schema.String)
}

export const Section = Schema.Struct(sectionFields)
export type Section = typeof Section.Type

const CategorySummary = Schema.Struct({
  percentage: Schema.Int,
  points: Schema.Int,
  maxPoints: Schema.Int,
  status: Schema.String
})

export const QuickScoreSection = Schema.Struct({
  key: Schema.Literal("quickScore"),
  title: Schema.String,
  grade: Grade,
  gradeInfo: GradeInfo,
  score: Schema.Int,
  percentage: Schema.Int,
  points: Schema.Int,
  maxPoints: Schema.Int,
  categories: Schema.Struct(
    Object.fromEntries(Categories.map((c) => [c, CategorySummary])) as Record<
      Category,
      typeof CategorySummary
    >
  ),
  critical_issues: Schema.Int,
  warnings: Schema.Int,
  recommendations: Schema.Array(Recommendation),
  /** Issues no other section owns (none today; kept so that nothing is ever dropped). */
  findings: Schema.Array(Finding)
})
export type QuickScoreSection = typeof QuickScoreSection.Type

/** A check's section: every section's fields, and those the check adds (`about.section.extra`). */
export const sectionOf = (check: Registered) => {
  const extra = check.about.section.extra
  return extra === undefined ? Section : Schema.Struct({ ...sectionFields, ...extra.fields })
}

/**
 * The sections of a report over `checks`: the quick score, each check's section under its key in
 * report order, and NIS2 readiness (the scorecard of the same scan, src/report/Nis2Part.ts).
 */
export const sectionsSchema = (checks: ReadonlyArray<Registered>) =>
  Schema.Struct({
    quickScore: QuickScoreSection,
    ...Object.fromEntries(inReportOrder(checks).map((c) => [c.about.section.key, sectionOf(c)])),
    nis2: Nis2Part
  })

export const Sections = sectionsSchema(registry)
export type Sections = typeof Sections.Type

/** The checks' sections of `sections` by key: all but the quick score and NIS2. */
export const checkSections = (sections: Sections): ReadonlyMap<string, Section> => {
  const { quickScore: _quick, nis2: _nis2, ...checks } = sections
  return new Map(Object.entries(checks))
}

export const Summary = Schema.Struct({
  grade: Grade,
  label: Schema.String,
  score: Schema.Int,
  percentage: Schema.Int,
  /** Why the domain could not be graded (it does not exist): the score's `unscannable`, else null. */
  unscannable: Schema.NullOr(Schema.String),
  /** One sentence a person can read first. */
  headline: Schema.String,
  critical_issues: Schema.Int,
  warnings: Schema.Int,
  /** One row per section, in report order: the summary table of the markdown. */
  sections: Schema.Array(
    Schema.Struct({ key: Schema.String, title: Schema.String, status: SectionStatus, findings: Schema.Int })
  ),
  /** Checks that could not finish, with the reason: their sections say `unknown`, never `fail`. */
  unknownChecks: Schema.Array(Schema.Struct({ check: Schema.String, reason: Schema.String }))
})
export type Summary = typeof Summary.Type

/**
 * The scan's typed results, as `POST /scan` and the single-check endpoints give them, with the
 * outcomes read by `checks` (a stored report reads them tolerantly: StoredReport.ts).
 */
export const machineReadableWith = <A, I>(checks: Schema.Schema<A, I>) =>
  Schema.Struct({
    scan: Schema.Struct({
      domain: NormalDomain,
      computedAt: DateTime,
      durationMs: Schema.Int,
      deadlineMs: Schema.Int,
      criticalPathMs: Schema.Int,
      checks
    }),
    score: ScanScore.pipe(Schema.omit("cached"))
  })

const machineReadable = (checks: ReadonlyArray<Registered>) =>
  machineReadableWith(
    Schema.Struct(
      Object.fromEntries(checks.map((c) => [c.id, CheckOutcome(c.result as Schema.Schema<unknown, unknown>)]))
    )
  )

export const MachineReadable = machineReadable(registry)
export type MachineReadable = typeof MachineReadable.Type

/** The report without its evidence, over `checks`: exactly what the content hash covers. */
export const reportContentSchema = (checks: ReadonlyArray<Registered>) =>
  Schema.Struct({
    domain: NormalDomain,
    /** When the checks behind the report ran (a report from the scan cache keeps their time). */
    generatedAt: DateTime,
    formatVersion: Schema.String,
    scoringVersion: Schema.String,
    reportUrl: Schema.String,
    summary: Summary,
    sections: sectionsSchema(checks),
    citations: Schema.Array(Citation),
    machineReadable: machineReadable(checks),
    /**
     * What DMARC and TLS reports received by this service say of the domain (ReceivedReports.ts);
     * absent where the report was made without the report store, and in snapshots stored before
     * reports carried it.
     */
    reportsReceived: Schema.optional(ReportsReceived)
  })

export const ReportContent = reportContentSchema(registry)
export type ReportContent = typeof ReportContent.Type

export const EverythingReport = Schema.Struct({ ...ReportContent.fields, evidence: Evidence })
export type EverythingReport = typeof EverythingReport.Type
