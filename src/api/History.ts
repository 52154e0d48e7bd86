/**
 * The history group (docs/monitoring.md "History and evidence"): each domain's fresh full scans as
 * a hash chain, one stored scan, the diff of two entries and the evidence over a period. The
 * shapes are monitor/'s (Histories.ts, Evidence.ts).
 */
import { type HttpMethod, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware } from "@effect/platform"
import { Context, Schema } from "effect"
import { HistoryEvidence } from "../monitor/Evidence.ts"
import { HistoryDiff, HistoryList, HistoryScan } from "../monitor/Histories.ts"
import { Format } from "./Common.ts"
import { Domain, DomainPath } from "./Domain.ts"
import { BadRequest, Forbidden, InternalError, NotFound } from "./Errors.ts"
import { bearerGuard, type Viewer } from "./KeyGuard.ts"
import { Endpoint } from "./Docs.ts"

const Seq = Schema.NumberFromString.pipe(
  Schema.int(),
  Schema.between(1, Number.MAX_SAFE_INTEGER)
).annotations({
  description: "an entry's seq (1, 2, ...)"
})

const Instant = Schema.String.pipe(
  Schema.filter(
    (s) => /^\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(s) && !Number.isNaN(Date.parse(s)),
    {
      message: () => "expected an RFC 3339 date-time (2026-01-31T12:00:00Z) or a date (2026-01-31)"
    }
  )
)

/**
 * Whose history a request reads, as HistoryReadAccess decided: a tenant's key that of the domains
 * its tenant has verified (`tenant`), the operator and the open default every domain's (undefined).
 */
export class HistoryReader extends Context.Tag("HistoryReader")<HistoryReader, Viewer>() {}

/**
 * Who may read a domain's history and evidence (docs/access.md): the machine itself, an admin key,
 * or an API key with `history` for the domains its tenant has verified; anyone while no key exists
 * at all (the embedded default).
 */
export class HistoryReadAccess extends HttpApiMiddleware.Tag<HistoryReadAccess>()("HistoryReadAccess", {
  ...bearerGuard,
  provides: HistoryReader
}) {}

/**
 * A read of a domain's history: a domain that is no domain (400), none recorded (404), or not the
 * caller's to read (403, from HistoryReadAccess).
 */
const historyRead = <N extends string, M extends HttpMethod.HttpMethod, P, U, B, H, S, E, R, RE>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<N, M, P, U, B, H, S, E, R, RE>
) => endpoint.addError(BadRequest).addError(NotFound).addError(Forbidden).middleware(HistoryReadAccess)

const historyList = Endpoint.get("historyList", "/history/:domain", {
  summary: "A domain's scan history",
  description:
    "The domain's history: one entry per fresh full scan, oldest first, and whether the hash chain verifies (chainValid; invalidSeq names the first entry that does not)."
})
  .setPath(DomainPath)
  .addSuccess(HistoryList)
  .pipe(historyRead)

const historyDiff = Endpoint.get("historyDiff", "/history/:domain/diff", {
  summary: "What changed between two history entries",
  description:
    "What changed from entry `from` to entry `to`, each change with a sentence for the domain's owner. Without either, the last change: the newest two consecutive entries that differ (runs that changed nothing are skipped, up to 32 entries back), else the last two."
})
  .setPath(DomainPath)
  .setUrlParams(Schema.Struct({ from: Schema.optional(Seq), to: Schema.optional(Seq) }))
  .addSuccess(HistoryDiff)
  .pipe(historyRead)
  .addError(InternalError)

const historyEvidence = Endpoint.get("historyEvidence", "/history/:domain/evidence", {
  summary: "Evidence of a domain's security over a period",
  description:
    "Evidence over a period (default: from the first entry until now): the entries with their hashes, the share of the period each score record and NIS2 measure held pass, and the changes between. With format=markdown, as text/markdown."
})
  .setPath(DomainPath)
  .setUrlParams(
    Schema.Struct({
      from: Schema.optional(Instant),
      to: Schema.optional(Instant),
      format: Schema.optional(Format)
    })
  )
  .addSuccess(HistoryEvidence)
  .pipe(historyRead)
  .addError(InternalError)

const historyEntry = Endpoint.get("historyEntry", "/history/:domain/:seq", {
  summary: "One entry of a domain's history",
  description: "One entry with its stored scan, re-verified against the entry's content hash."
})
  .setPath(Schema.Struct({ domain: Domain, seq: Seq }))
  .addSuccess(HistoryScan)
  .pipe(historyRead)
  .addError(InternalError)

export class HistoryApi extends HttpApiGroup.make("history")
  .add(historyList)
  .add(historyDiff)
  .add(historyEvidence)
  .add(historyEntry) {}
