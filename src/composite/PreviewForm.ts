/**
 * The "what if" page's form (`/preview/{domain}`, docs/preview.md): the live records worth
 * starting from, as lines to edit, and the submitted lines read back into a preview's changes.
 * The preview itself is `POST /scan/preview`'s (Preview.ts), beside the live scan it answers.
 */
import type { Domain } from "../records/DomainName.ts"
import { Effect, Either } from "effect"
import { Facts } from "../kernel/Facts.ts"
import { isSpfRecord } from "../records/SpfParse.ts"
import type { ScanContext } from "../scan/FactsLive.ts"
import { withFacts } from "../scan/Scanner.ts"
import { Scans } from "../scan/Scans.ts"
import { previewAgainst } from "./Preview.ts"
import {
  parseRecordLine,
  parseRemovalLine,
  type PreviewChanges,
  type PreviewRecordInput
} from "./PreviewInput.ts"
import { quotedTxt } from "./ProposalPreview.ts"

/** What the form holds: one record per line (`name TYPE value`), one removal per line (`name TYPE`). */
export interface PreviewForm {
  readonly records: string
  readonly remove: string
}

/** The TXT records a domain owner most often changes, at their names: SPF, DMARC, MTA-STS, TLS-RPT. */
const txtNames = (domain: Domain) => [
  domain,
  `_dmarc.${domain}`,
  `_mta-sts.${domain}`,
  `_smtp._tls.${domain}`
]

/**
 * The live SPF, DMARC, MTA-STS and TLS-RPT TXT records and CAA RRset of `domain`, one
 * `name TYPE value` line each: what a change usually starts from. A name that cannot be read is
 * left out (the form is a starting point, not a verdict).
 */
export const liveRecordLines = (domain: Domain): Effect.Effect<string, never, ScanContext> =>
  withFacts(
    domain,
    Effect.gen(function* () {
      const facts = yield* Facts
      const lines: Array<string> = []
      for (const name of txtNames(domain)) {
        const values = yield* Effect.orElseSucceed(facts.txt(name), (): ReadonlyArray<string> => [])
        // at the domain itself only the SPF record: its other TXT records are not the checks' business
        for (const v of values)
          if (name !== domain || isSpfRecord(v)) lines.push(`${name} TXT ${quotedTxt(v)}`)
      }
      const caa = yield* Effect.either(facts.query(domain, "CAA"))
      if (Either.isRight(caa))
        for (const r of caa.right.answers) if (r.type === "CAA") lines.push(`${domain} CAA ${r.text}`)
      return lines.join("\n")
    })
  )

const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith(";"))

/**
 * The form read into a preview's changes; Left: the first line that is not a record (or a
 * removal), numbered as the person sees it. Values are checked by the preview itself.
 */
export const readForm = (form: PreviewForm): Either.Either<PreviewChanges, string> => {
  const records: Array<PreviewRecordInput> = []
  for (const [i, line] of lines(form.records).entries()) {
    const read = parseRecordLine(line)
    if (Either.isLeft(read)) return Either.left(`records, line ${i + 1}: ${read.left}`)
    records.push(read.right)
  }
  const remove: Array<{ readonly name: string; readonly type: string }> = []
  for (const [i, line] of lines(form.remove).entries()) {
    const read = parseRemovalLine(line)
    if (Either.isLeft(read)) return Either.left(`removals, line ${i + 1}: ${read.left}`)
    remove.push(read.right)
  }
  return Either.right({ records, remove })
}

/** The preview of `changes` at `domain` beside the live scan `POST /scan` answers (cached while fresh). */
export const previewOfForm = (domain: Domain, changes: PreviewChanges) =>
  previewAgainst(
    domain,
    changes,
    [],
    Effect.flatMap(Scans, (scans) => scans.scan(domain))
  )
