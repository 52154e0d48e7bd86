/**
 * What a shallow scan's score leaves out (kernel/Depth.ts, docs/batch.md "Depth"): the records whose
 * rule rates what the scan did not ask. They are not checked, as the records of a check a stored
 * scan predates (scan/StoredScan.ts): left out of the score, 0 of 0, never failed nor unknown, and
 * the score names them in `depth` so that a reader knows the grade is partial.
 */
import { Schema } from "effect"
import type { Spec } from "../kernel/Declaration.ts"
import { enumeratesTls, ScanDepth } from "../kernel/Depth.ts"
import { SMTP_TLS_SPECS } from "../checks/smtp-tls/Rules.ts"
import { WEB_TLS_SPECS } from "../checks/web-tls/Rules.ts"

/** The records not checked at `depth`: the TLS configuration of the servers it did not enumerate. */
export const notCheckedAt = (depth: ScanDepth): ReadonlyArray<Spec> => [
  ...(enumeratesTls(depth, "mail") ? [] : [SMTP_TLS_SPECS.mxTls]),
  ...(enumeratesTls(depth, "web") ? [] : [WEB_TLS_SPECS.tls])
]

/** What a shallow scan's score says of its depth. */
export const DepthNote = Schema.Struct({
  level: ScanDepth,
  /** The score is partial: these records were not checked at this depth and are left out of it. */
  notChecked: Schema.Array(Schema.Struct({ id: Schema.String, title: Schema.String, reason: Schema.String }))
}).annotations({ identifier: "DepthNote" })
export type DepthNote = typeof DepthNote.Type

/** The note of a scan at `depth`, or undefined for a full scan (its score is complete). */
export const depthNoteOf = (depth: ScanDepth | undefined): DepthNote | undefined =>
  depth === undefined || depth === "full"
    ? undefined
    : {
        level: depth,
        notChecked: notCheckedAt(depth).map((spec) => ({
          id: spec.id,
          title: spec.title,
          reason: `not checked at depth ${depth}: TLS versions and cipher suites were not enumerated`
        }))
      }
