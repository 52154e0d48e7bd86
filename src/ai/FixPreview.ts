/**
 * `POST /ai/fix` with the proposal previewed (docs/ai.md, docs/preview.md): the records a fix asks
 * to publish laid over the domain's live DNS and scanned (composite/ProposalPreview.ts), so the
 * answer says what publishing them does to the grade and to the issues, before anybody publishes
 * them.
 */
import type { Domain } from "../records/DomainName.ts"
import { Effect, Schema } from "effect"
import { ProposalPreviewFields, previewProposal } from "../composite/ProposalPreview.ts"
import type { IssueId } from "../score/Catalogue.ts"
import type { ScanContext } from "../scan/FactsLive.ts"
import type { Scans } from "../scan/Scans.ts"
import { FixAnswer, propose } from "./Fix.ts"

/** What POST /ai/fix answers: the fix, and what publishing it does (`compared`, or why not). */
export const PreviewedFixAnswer = Schema.Struct({ ...FixAnswer.fields, ...ProposalPreviewFields })
export type PreviewedFixAnswer = typeof PreviewedFixAnswer.Type

/** The fix for `issue` at `domain`, previewed over the domain's live scan. */
export const fixPreviewed = (
  issue: IssueId,
  domain: Domain,
  rawConfig: unknown
): Effect.Effect<PreviewedFixAnswer, never, ScanContext | Scans> =>
  Effect.gen(function* () {
    const proposed = yield* propose(issue, domain, rawConfig)
    const preview = yield* previewProposal(domain, proposed.records, proposed.notPreviewable)
    return { ...proposed.answer, ...preview }
  })
