/**
 * A stored snapshot's report, read by a registry that may have changed since it was stored
 * (docs/reports.md "When the checks change"). The snapshot's bytes are verified and served exactly
 * as stored (SnapshotStore.ts); what is read here is only what the page, the markdown and the PDF
 * render from:
 *
 * - a check added since has no section and no outcome in the snapshot: it is not shown (the report
 *   lists the sections it was made with), and its outcome reads "not checked" (scan/StoredScan.ts),
 *   so the NIS2 summary of the PDF is judged on the checks the snapshot ran;
 * - a check removed since keeps its section, read with the fields every section has (its own extra
 *   fields are not shown); its outcome is skipped, since nothing can judge it any more.
 */
import { Effect, type ParseResult, Schema } from "effect"
import type { Registered } from "../kernel/Check.ts"
import { registry } from "../checks/index.ts"
import { completeOutcomes, type StoredOutcomes, storedOutcomesSchema } from "../scan/StoredScan.ts"
import { Nis2Part } from "./Nis2Part.ts"
import {
  EverythingReport,
  machineReadableWith,
  QuickScoreSection,
  ReportContent,
  Section,
  sectionOf
} from "./ReportSchema.ts"
import { inReportOrder } from "./Sections.ts"

// Unknown, not a Section: an index signature's value is also checked against the known members.
const Others = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** The sections of a stored report over `checks`: some or all of the checks' sections, and others as stored. */
const storedSections = (checks: ReadonlyArray<Registered>) =>
  Schema.Struct(
    {
      quickScore: QuickScoreSection,
      ...Object.fromEntries(
        inReportOrder(checks).map((c) => [c.about.section.key, Schema.optional(sectionOf(c))])
      ),
      nis2: Nis2Part
    },
    Others
  )

/** The Schema of a stored report (with its evidence) over `checks`, the registry's by default. */
export const storedReportSchema = (checks: ReadonlyArray<Registered>) =>
  Schema.Struct({
    ...ReportContent.fields,
    sections: storedSections(checks),
    machineReadable: machineReadableWith(storedOutcomesSchema(checks)),
    evidence: EverythingReport.fields.evidence
  })

const StoredReport = storedReportSchema(registry)
type StoredReport = typeof StoredReport.Type

const decodeStored = Schema.decodeUnknown(Schema.parseJson(StoredReport))
const decodeSection = Schema.decodeUnknownOption(Section)

/**
 * The sections in report order: the quick score, each of the registry's sections that is there,
 * then those of checks removed since in the order the report's summary lists them (each read as
 * every section reads; one that does not even read so is left out), then NIS2.
 */
const sectionsOf = (stored: StoredReport): EverythingReport["sections"] => {
  const { quickScore, nis2, ...rest } = stored.sections as Readonly<Record<string, unknown>>
  const known = inReportOrder(registry).map((c) => c.about.section.key)
  const others = [...new Set([...stored.summary.sections.map((row) => row.key), ...Object.keys(rest)])]
    .filter((key) => Object.hasOwn(rest, key) && !known.includes(key))
    .flatMap((key): ReadonlyArray<readonly [string, unknown]> => {
      const section = decodeSection(rest[key])
      return section._tag === "Some" ? [[key, section.value]] : []
    })
  return {
    quickScore,
    ...Object.fromEntries(known.filter((key) => Object.hasOwn(rest, key)).map((key) => [key, rest[key]])),
    ...Object.fromEntries(others),
    nis2
  } as EverythingReport["sections"]
}

/** A stored report as the typed report of today's registry (what the renderers read). */
const toReport = (stored: StoredReport): EverythingReport => {
  const scan = stored.machineReadable.scan
  return {
    ...stored,
    sections: sectionsOf(stored),
    machineReadable: {
      ...stored.machineReadable,
      scan: {
        ...scan,
        checks: completeOutcomes(scan.checks as StoredOutcomes)
      }
    }
  } as EverythingReport
}

/** The report of a snapshot's stored bytes (already verified), whatever registry stored it. */
export const readStoredReport = (body: string): Effect.Effect<EverythingReport, ParseResult.ParseError> =>
  Effect.map(decodeStored(body), toReport)
