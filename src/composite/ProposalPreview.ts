/**
 * A proposed record checked by a preview (`POST /ai/fix`, the record generators): what publishing
 * it does to the domain's scan and grade, in the words `POST /scan/preview` uses (Preview.ts), so a
 * proposal says "publishing this moves the grade from D to B and fixes 3 issues" before anybody
 * publishes it.
 *
 * A preview is a full scan. The live scan beside it is the one `POST /scan` answers (from the scan
 * cache while it is fresh, Scans.ts); the preview's own scan is never stored. A proposal that
 * cannot be previewed (no domain named, a record outside the domain, a header rather than a
 * record) or whose preview the previewer refused answers `compared: null` and says why in
 * `comparedReason`: never a diff that was not computed.
 */
import type { Domain } from "../records/DomainName.ts"
import { Effect, Either, Schema } from "effect"
import type { AppConfig } from "../Config.ts"
import { Facts } from "../kernel/Facts.ts"
import { characterStrings } from "../net/DnsWire.ts"
import type { Resolver } from "../net/Resolver.ts"
import type { Smtp } from "../net/Smtp.ts"
import type { Web } from "../net/Web.ts"
import { isSpfRecord } from "../records/SpfParse.ts"
import { Grade } from "../score/Model.ts"
import type { ScanResult } from "../scan/ScanResult.ts"
import { withFacts } from "../scan/Scanner.ts"
import { Scans } from "../scan/Scans.ts"
import { Compared, NotJudgedVerdict, previewAgainst } from "./Preview.ts"
import type { PreviewChanges, PreviewRecordInput } from "./PreviewInput.ts"

/** The preview of a proposal: the grade once it is published, beside the live one, and the diff. */
export const ProposalCompared = Schema.Struct({
  ...Compared.fields,
  preview: Schema.Struct({ grade: Grade, percentage: Schema.Number }).annotations({
    description: "the domain's grade and percentage once the proposal is published, everything else as live"
  }),
  notJudged: Schema.Array(NotJudgedVerdict).annotations({
    description:
      "DNSSEC verdicts the preview could not make itself (the proposed RRsets have no signatures yet): docs/preview.md"
  })
}).annotations({ identifier: "ProposalCompared" })
export type ProposalCompared = typeof ProposalCompared.Type

/** The fields a previewed proposal adds to its answer. */
export const ProposalPreviewFields = {
  compared: Schema.NullOr(ProposalCompared).annotations({
    description:
      "what publishing the proposal does to the domain's scan (docs/preview.md); null when it could not be previewed, with the reason in comparedReason"
  }),
  comparedReason: Schema.NullOr(Schema.String).annotations({
    description: "why compared is null; null when it is not"
  })
}

export interface ProposalPreview {
  readonly compared: ProposalCompared | null
  readonly comparedReason: string | null
}

/** A proposal that is not previewed, and why (a sentence). */
export const notPreviewed = (reason: string): ProposalPreview => ({ compared: null, comparedReason: reason })

/**
 * What publishing `changes` at `domain` does, beside the live scan `live` gives. A change the
 * previewer refuses (a name outside the domain, a value its parser rejects) is reported, not failed:
 * the proposal itself is still answered.
 */
export const previewProposalAgainst = <R>(
  domain: Domain,
  changes: PreviewChanges,
  live: Effect.Effect<ScanResult, never, R>
): Effect.Effect<ProposalPreview, never, R | Resolver | Web | Smtp | AppConfig> =>
  previewAgainst(domain, changes, [], live).pipe(
    Effect.map(({ score }): ProposalPreview => ({
      compared: {
        ...score.compared,
        preview: { grade: score.grade, percentage: score.percentage },
        notJudged: score.notJudged
      },
      comparedReason: null
    })),
    Effect.catchTag("PreviewRefused", (e) =>
      Effect.succeed(notPreviewed(`the preview refused the proposal: ${e.message}`))
    )
  )

/** A DNS record a proposal asks to publish, its value as a zone file writes it. */
export interface ProposedRecord {
  readonly name: string
  readonly type: "TXT" | "TLSA"
  readonly value: string
}

/**
 * A TXT value as zone-file strings: quoted, escaped, at most 255 octets each (RFC 1035 3.3.14), a
 * character never split.
 */
export const quotedTxt = (value: string): string =>
  characterStrings(value)
    .map((s) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`)
    .join(" ")

/**
 * The records to preview: the proposal's, and beside each proposed SPF record the live TXT
 * records at its name that are not SPF. A proposal replaces one record, not the RRset it lives in:
 * publishing an SPF record means replacing the SPF record only (RFC 7208 3.2), and the site
 * verifications beside it stay, while the preview takes a TXT record given as the whole RRset
 * (RFC 2181 5). Left: why the live ones could not be read.
 */
export const withKeptTxt = <R>(
  proposed: ReadonlyArray<ProposedRecord>,
  liveTxt: (name: string) => Effect.Effect<Either.Either<ReadonlyArray<string>, string>, never, R>
): Effect.Effect<Either.Either<ReadonlyArray<PreviewRecordInput>, string>, never, R> =>
  Effect.gen(function* () {
    const records: Array<PreviewRecordInput> = [...proposed]
    const spfNames = new Set(
      proposed.filter((r) => r.type === "TXT" && isSpfRecord(r.value)).map((r) => r.name)
    )
    for (const name of spfNames) {
      const live = yield* liveTxt(name)
      if (Either.isLeft(live)) return Either.left(live.left)
      for (const value of live.right)
        if (!isSpfRecord(value)) records.push({ name, type: "TXT", value: quotedTxt(value) })
    }
    return Either.right(records)
  })

/** The live TXT records at `name`, read as the checks read them. */
const readTxt = (domain: Domain) => (name: string) =>
  withFacts(
    domain,
    Effect.flatMap(Facts, (facts) => facts.txt(name))
  ).pipe(
    Effect.map((values): Either.Either<ReadonlyArray<string>, string> => Either.right(values)),
    Effect.catchAll((e) =>
      Effect.succeed<Either.Either<ReadonlyArray<string>, string>>(
        Either.left(
          `the TXT records at ${name} that stay beside the proposal could not be read (${e.message})`
        )
      )
    )
  )

/**
 * What publishing `proposed` at `domain` does, beside the live scan `POST /scan` answers (from the
 * scan cache while fresh). No record: nothing to preview, and `none` says why.
 */
export const previewProposal = (
  domain: Domain,
  proposed: ReadonlyArray<ProposedRecord>,
  none: string
): Effect.Effect<ProposalPreview, never, Scans | Resolver | Web | Smtp | AppConfig> =>
  Effect.gen(function* () {
    if (proposed.length === 0) return notPreviewed(none)
    const records = yield* withKeptTxt(proposed, readTxt(domain))
    if (Either.isLeft(records)) return notPreviewed(records.left)
    return yield* previewProposalAgainst(
      domain,
      { records: records.right },
      Effect.flatMap(Scans, (scans) => scans.scan(domain))
    )
  })

/** Why a generator's record is not previewed when no domain is named. */
export const NO_DOMAIN =
  "no domain was named: with ?domain=<the domain the record is for>, the record is previewed over that domain's live scan"

/**
 * A generator's record previewed at `domain` (the `domain` query parameter; undefined: not asked,
 * so the generator stays a pure computation and says so).
 */
export const previewGenerated = <A>(
  generated: A,
  domain: Domain | undefined,
  records: (generated: A) => ReadonlyArray<ProposedRecord>
): Effect.Effect<A & ProposalPreview, never, Scans | Resolver | Web | Smtp | AppConfig> =>
  domain === undefined
    ? Effect.succeed({ ...generated, ...notPreviewed(NO_DOMAIN) })
    : Effect.map(previewProposal(domain, records(generated), "the generator gave no record"), (p) => ({
        ...generated,
        ...p
      }))
