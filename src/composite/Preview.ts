/**
 * "What if": the full scan and score of a domain as it will be once some records are published
 * (and some removed, and an MTA-STS policy or security.txt replaced), before anybody publishes
 * them (`POST /scan/preview`, docs/preview.md).
 *
 * The scan is the Scanner's own over one Facts, with the Resolver and the Web client overlaid
 * (net/ResolverOverlay.ts, net/WebOverlay.ts): every check reads the domain through the same door
 * as in a live scan and cannot tell the difference. Beside it, the live scan as `POST /scan` gives
 * it (shared and cached by `Scans`), and the diff from the live scan to the preview as the history
 * reads it (monitor/Diff.ts, DiffLines.ts): the grade, the checks that change, the issues fixed and
 * created, the records.
 *
 * Never stored: the preview's scan is run apart from `Scans`, so it enters no cache, no history and
 * no hall of fame; its answer says `preview: true`.
 */
import type { Domain } from "../records/DomainName.ts"
import { Effect, Either, Schema } from "effect"
import { AppConfig } from "../Config.ts"
import { Change } from "../monitor/Change.ts"
import { diffScans } from "../monitor/Diff.ts"
import { diffLines, lineText } from "../monitor/DiffLines.ts"
import { Resolver } from "../net/Resolver.ts"
import { type NotJudged, overlayResolver } from "../net/ResolverOverlay.ts"
import { Smtp } from "../net/Smtp.ts"
import { Web } from "../net/Web.ts"
import { overlayGet } from "../net/WebOverlay.ts"
import { Grade } from "../score/Model.ts"
import { score, ScanScore } from "../score/Score.ts"
import type { ScanResult } from "../scan/ScanResult.ts"
import { Scans } from "../scan/Scans.ts"
import { scan } from "../scan/Scanner.ts"
import { type PreviewChanges, type PreviewPlan, readPreview } from "./PreviewInput.ts"

/** The preview was asked something it cannot preview; the message names the record (a 400). */
export class PreviewRefused extends Schema.TaggedError<PreviewRefused>()("PreviewRefused", {
  message: Schema.String
}) {}

export const NotJudgedVerdict = Schema.Struct({
  name: Schema.String,
  type: Schema.String,
  reason: Schema.String
}).annotations({ identifier: "NotJudgedVerdict" })

/** The live score beside the preview's, and what changes from the one to the other. */
export const Compared = Schema.Struct({
  live: Schema.Struct({
    grade: Grade,
    percentage: Schema.Number,
    timestamp: Schema.String.annotations({ description: "when the live scan's checks ran" })
  }),
  changes: Schema.Array(Change).annotations({
    description:
      "from the live scan to the preview, in the order the history reads them (docs/monitoring.md 'Changes'); empty when publishing changes nothing"
  }),
  summary: Schema.Array(Schema.String).annotations({
    description: "the changes in plain words, one sentence each (the history's lines)"
  })
}).annotations({ identifier: "PreviewCompared" })
export type Compared = typeof Compared.Type

/** The answer of `POST /scan/preview`: what `POST /scan` answers for the previewed domain, and more. */
export const PreviewScore = Schema.Struct({
  ...ScanScore.fields,
  preview: Schema.Literal(true),
  compared: Compared,
  notJudged: Schema.Array(NotJudgedVerdict).annotations({
    description:
      "DNSSEC verdicts the preview could not make itself: previewed RRsets of a signed zone are taken as signed by its signer (their signatures do not exist yet)"
  })
}).annotations({ identifier: "PreviewScore" })
export type PreviewScore = typeof PreviewScore.Type

/** The preview's answer from its scan, the live scan and the verdicts it could not make. Pure. */
export const previewAnswer = (
  previewed: ScanResult,
  live: ScanResult,
  notJudged: ReadonlyArray<NotJudged>
): PreviewScore => {
  const now = score(previewed)
  const was = score(live)
  const changes = diffScans(live, previewed)
  return {
    ...now,
    cached: false,
    preview: true,
    compared: {
      live: { grade: was.grade, percentage: was.percentage, timestamp: was.timestamp },
      changes,
      summary: diffLines(changes).map(lineText)
    },
    notJudged: [...notJudged]
  }
}

/** The changes read and checked, or the 400 naming the record at fault. */
const planOf = (domain: Domain, changes: PreviewChanges) =>
  Either.mapLeft(readPreview(domain, changes), (message) => new PreviewRefused({ message }))

/** The scan of `domain` with `plan` laid over the live DNS and web (never stored). */
const scanWith = (domain: Domain, plan: PreviewPlan, names: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const resolver = yield* Resolver
    const web = yield* Web
    const notJudged: Array<NotJudged> = []
    const overlaid = Resolver.make(overlayResolver(resolver, plan, (n) => notJudged.push(n)))
    const result = yield* scan(domain, { names }).pipe(
      Effect.provideService(Resolver, overlaid),
      Effect.provideService(Web, Web.make({ ...web, get: overlayGet(web.get, plan.files) }))
    )
    const sorted = [...notJudged].sort((a, b) => `${a.name} ${a.type}`.localeCompare(`${b.name} ${b.type}`))
    return { scan: result, notJudged: sorted }
  })

/** The scan of `domain` with `changes` laid over the live DNS and web (never stored). */
export const previewScan = (
  domain: Domain,
  changes: PreviewChanges,
  names: ReadonlyArray<string> = []
): Effect.Effect<
  { readonly scan: ScanResult; readonly notJudged: ReadonlyArray<NotJudged> },
  PreviewRefused,
  Resolver | Web | Smtp | AppConfig
> => Effect.flatMap(planOf(domain, changes), (plan) => scanWith(domain, plan, names))

/**
 * The preview's scan and score beside the live scan that `live` gives (run at once with the preview, once
 * the changes are found sound): the library and the command line scan it here, the service reads
 * it from `Scans`.
 */
export const previewAgainst = <R>(
  domain: Domain,
  changes: PreviewChanges,
  names: ReadonlyArray<string>,
  live: Effect.Effect<ScanResult, never, R>
): Effect.Effect<
  { readonly scan: ScanResult; readonly score: PreviewScore },
  PreviewRefused,
  R | Resolver | Web | Smtp | AppConfig
> =>
  Effect.flatMap(planOf(domain, changes), (plan) =>
    Effect.map(Effect.all([scanWith(domain, plan, names), live], { concurrency: 2 }), ([previewed, was]) => ({
      scan: previewed.scan,
      score: previewAnswer(previewed.scan, was, previewed.notJudged)
    }))
  )

/**
 * `POST /scan/preview`: the preview's score, with the live score beside it and the diff between
 * them. The live scan is the one `POST /scan` answers (shared and cached).
 */
export const preview = (
  domain: Domain,
  changes: PreviewChanges,
  names: ReadonlyArray<string> = []
): Effect.Effect<PreviewScore, PreviewRefused, Scans | Resolver | Web | Smtp | AppConfig> =>
  Effect.map(
    previewAgainst(
      domain,
      changes,
      names,
      Effect.flatMap(Scans, (scans) => scans.scan(domain, names))
    ),
    (previewed) => previewed.score
  )
