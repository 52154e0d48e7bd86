/**
 * Handlers of the history group (monitor/Histories.ts): a history that is not there is a 404, a
 * period that ends before it starts a 400, a stored scan that fails its integrity check a 500.
 * The JSON evidence export is signed as it is served (monitor/SignedEvidence.ts).
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Layer } from "effect"
import { Api } from "../../Api.ts"
import { BadRequest, InternalError, NotFound } from "../../api/Errors.ts"
import { HistoryReader } from "../../api/History.ts"
import { HistoryReadAccessLive } from "../edge/Access.ts"
import { ownedBy } from "./OwnedDomain.ts"
import { evidenceMarkdown } from "../../monitor/EvidenceMarkdown.ts"
import { Histories } from "../../monitor/Histories.ts"
import { signEvidence } from "../../monitor/SignedEvidence.ts"
import { SigningKey } from "../../report/SigningKey.ts"

const answered = <A, R>(
  effect: Effect.Effect<
    A,
    | { _tag: "HistoryMissing"; message: string }
    | { _tag: "HistoryRangeInvalid"; message: string }
    | { _tag: "HistoryCorrupt"; message: string },
    R
  >
) =>
  Effect.catchAll(effect, (e) =>
    Effect.fail(
      e._tag === "HistoryMissing"
        ? new NotFound({ error: e.message })
        : e._tag === "HistoryRangeInvalid"
          ? new BadRequest({ error: e.message })
          : new InternalError({ error: e.message })
    )
  )

/** `read`, once the request may read the domain's history (OwnedDomain.ts). */
const readable = <A, E, R>(domain: string, read: Effect.Effect<A, E, R>) =>
  Effect.zipRight(
    Effect.flatMap(HistoryReader, ({ tenant }) => ownedBy(tenant, domain, "history")),
    read
  )

export const HistoryHandlers = HttpApiBuilder.group(Api, "history", (handlers) =>
  Effect.map(Effect.all([Histories, SigningKey]), ([histories, key]) =>
    handlers
      .handle("historyList", ({ path }) => readable(path.domain, answered(histories.list(path.domain))))
      .handle("historyEntry", ({ path }) =>
        readable(path.domain, answered(histories.entry(path.domain, path.seq)))
      )
      .handle("historyDiff", ({ path, urlParams }) =>
        readable(path.domain, answered(histories.diff(path.domain, urlParams.from, urlParams.to)))
      )
      .handle("historyEvidence", ({ path, urlParams }) =>
        readable(
          path.domain,
          Effect.map(answered(histories.evidence(path.domain, urlParams.from, urlParams.to)), (evidence) =>
            urlParams.format === "markdown"
              ? HttpServerResponse.text(evidenceMarkdown(evidence), {
                  contentType: "text/markdown; charset=utf-8"
                })
              : signEvidence(evidence, key.sign)
          )
        )
      )
  )
).pipe(Layer.provide(HistoryReadAccessLive))
