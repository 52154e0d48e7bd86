/**
 * `domain-audit verify <snapshot.json | URL | ->`: checks, offline, that a report snapshot's content
 * hashes to its content hash (or to `--hash`, the one the reader holds), or that a history evidence
 * export's entries form an unbroken hash chain. Pure here: parsed JSON in, lines and a verdict out.
 */
import { verifyHistory } from "../monitor/VerifyHistory.ts"
import { verifySnapshot } from "../report/VerifySnapshot.ts"

export interface Verified {
  readonly valid: boolean
  readonly lines: ReadonlyArray<string>
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v)

/** The verdict on a document: a snapshot (it has `evidence`) or a history export (it has `entries`). */
export const verifyDocument = (document: unknown, expectedHash?: string): Verified => {
  if (isObject(document) && Array.isArray(document["entries"]) && !("evidence" in document)) {
    const v = verifyHistory(document)
    return v.valid
      ? {
          valid: true,
          lines: [
            `verified: ${v.entries} history entries of ${String(document["domain"])} form an unbroken chain`
          ]
        }
      : { valid: false, lines: [`NOT VERIFIED: ${v.problem}`] }
  }
  const v = verifySnapshot(document, expectedHash)
  return v.valid
    ? { valid: true, lines: [`verified ${v.computedHash}`] }
    : { valid: false, lines: [`NOT VERIFIED: ${v.problem}`] }
}
