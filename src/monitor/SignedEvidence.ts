/**
 * The signature of a history evidence export (docs/monitoring.md "Evidence over a period"): the
 * service's Ed25519 JWS (report/Jws.ts) over the RFC 8785 canonical JSON of the export as served,
 * without its `signature` member. Unlike a snapshot the export is made per request, so it is signed
 * when it is served; its JWS header carries the public key, so a copy that left the service can be
 * checked on its own (and against the issuer's published keys for who signed it). Pure.
 */
import { Schema } from "effect"
import { canonicalJson } from "../report/Canonical.ts"
import { HistoryEvidence } from "./Evidence.ts"

const encode = Schema.encodeSync(HistoryEvidence)

/** The signed bytes of an export as served (parsed JSON): its canonical JSON without `signature`. */
export const evidencePayloadOf = (document: Readonly<Record<string, unknown>>): string => {
  const { signature: _signature, ...signed } = document
  return canonicalJson(signed)
}

/** `evidence` with the signature `sign` makes over its encoded form (what the response carries). */
export const signEvidence = (
  evidence: HistoryEvidence,
  sign: (payload: string) => string
): HistoryEvidence => ({
  ...evidence,
  signature: sign(evidencePayloadOf(encode({ ...evidence, signature: undefined })))
})
