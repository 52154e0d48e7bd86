/**
 * The record generators with their record previewed (`POST /email/spf/generate`,
 * `/email/dmarc/generate`, `/dns/tlsa/generate` with `?domain=`): the record the generator builds,
 * laid over the named domain's live DNS and scanned (ProposalPreview.ts), so the answer says what
 * publishing it does. Without a domain the generator stays the pure computation it is and says
 * that nothing was previewed.
 */
import type { Domain } from "../records/DomainName.ts"
import { Effect, Either } from "effect"
import { generateDmarc, type DmarcGenerateInput } from "../generate/DmarcGenerator.ts"
import { generate as generateSpf, type SpfGenerateInput } from "../generate/SpfGenerator.ts"
import { generate as generateTlsa, type TlsaRequest } from "../generate/TlsaGenerator.ts"
import type { GenerateError } from "../records/GenerateError.ts"
import { previewGenerated, type ProposedRecord } from "./ProposalPreview.ts"

/** The generator's record previewed at `domain`; its refusal (a 400) is left to the caller. */
const previewed = <A>(
  result: Either.Either<A, GenerateError>,
  domain: Domain | undefined,
  records: (generated: A) => ReadonlyArray<ProposedRecord>
) =>
  Either.match(result, {
    onLeft: (e) => Effect.fail(e),
    onRight: (generated) => previewGenerated(generated, domain, records)
  })

/** The SPF record, for `domain` when named (its DNS entry is then the domain's). */
export const spfPreviewed = (input: SpfGenerateInput, domain: Domain | undefined) =>
  previewed(generateSpf({ ...input, domain: domain ?? input.domain }), domain, (g) => [
    { name: g.dnsEntry.name, type: "TXT", value: g.dnsEntry.value }
  ])

/**
 * The DMARC record, for `domain` when named. The authorisations an external report address
 * needs are published in the destination's zone, not the domain's: the preview reads them live.
 */
export const dmarcPreviewed = (input: DmarcGenerateInput, domain: Domain | undefined) =>
  previewed(generateDmarc({ ...input, domain: domain ?? input.domain }), domain, (g) => [
    { name: g.dnsEntry.name, type: "TXT", value: g.dnsEntry.value }
  ])

/** The TLSA record at `_<port>._tcp.<host>`, previewed at `domain` when named (the host is under it). */
export const tlsaPreviewed = (input: TlsaRequest, domain: Domain | undefined) =>
  previewed(generateTlsa(input), domain, (g) => [{ name: g.name, type: "TLSA", value: g.value }])
