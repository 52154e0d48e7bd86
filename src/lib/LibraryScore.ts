/**
 * `scoreRecords` as the package offers it: a caller's `domain` is any string, decoded as the API
 * decodes a domain (`normaliseDomain`), since the score carries a `Domain`; one that is not a domain
 * throws a `DomainAuditError` with the API's reason.
 */
import { Either } from "effect"
import { normaliseDomain } from "../records/DomainName.ts"
import { scoreRecords as scoreOfDomain } from "../score/Score.ts"
import { DomainAuditError } from "./ScanPromises.ts"

type Meta = Parameters<typeof scoreOfDomain>[1]

/** The score of scored records, for a policy that judges records of its own (docs/library.md). */
export const scoreRecords = (
  records: Parameters<typeof scoreOfDomain>[0],
  meta: Omit<Meta, "domain"> & { readonly domain: string }
) =>
  scoreOfDomain(records, {
    ...meta,
    domain: Either.getOrElse(normaliseDomain(meta.domain), (why) => {
      throw new DomainAuditError(why)
    })
  })
