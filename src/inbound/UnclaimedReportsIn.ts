/**
 * Unclaimed reports (docs/access.md "Unclaimed reports"): what a tenant's address received for a
 * domain the tenant has not verified waits apart, whole, for `REPORTS_UNCLAIMED_RETENTION`. When the
 * tenant verifies the domain, its waiting reports are read again and stored as if they had just
 * arrived, with the verdict on their sender made when they did: at once after `POST
 * /api/domains/{domain}/verify`, and by an hourly pass for verifications seen elsewhere (another
 * runner, the daily re-check). Unread, they are deleted when their time is up.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Schedule, Schema } from "effect"
import { AppConfig } from "../Config.ts"
import {
  dropUnclaimed,
  pruneUnclaimed,
  unclaimedFor,
  unclaimedOwners,
  type UnclaimedRow
} from "../store/UnclaimedReports.ts"
import type { Authenticity } from "./Authenticity.ts"
import { FailureReportsIn } from "./FailureReportsIn.ts"
import { ReportRefused } from "./Refusal.ts"
import { ReportRecipients, routeFor, STORE } from "./ReportRecipients.ts"
import { ReportsIn } from "./ReportsIn.ts"

/** A report that names a domain its tenant has not verified yet (a TLS report of several): it waits on. */
class StillUnclaimed extends Schema.TaggedError<StillUnclaimed>()("StillUnclaimed", {}) {}

/** The (tenant, domain) pairs one adoption pass asks about; the rest wait for the next pass. */
const PASS_BATCH = 500

const verdictOf = (row: UnclaimedRow): Authenticity => ({
  authenticated: row.authenticated === 1,
  authenticatedFor: row.authenticated_for,
  authentication: row.authentication
})

export class UnclaimedReportsIn extends Effect.Service<UnclaimedReportsIn>()("UnclaimedReportsIn", {
  scoped: Effect.gen(function* () {
    const config = yield* AppConfig
    const sql = yield* SqlClient.SqlClient
    const aggregate = yield* ReportsIn
    const failures = yield* FailureReportsIn
    const owners = yield* ReportRecipients
    const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
      Effect.provideService(effect, SqlClient.SqlClient, sql)
    /** Stored only once the tenant has verified every domain the report names. */
    const ownedBy = (tenant: string) => (domains: ReadonlyArray<string>) =>
      Effect.flatMap(routeFor(owners, [tenant], domains), (route) =>
        route.to === "store" ? Effect.succeed(STORE) : Effect.fail(new StillUnclaimed())
      )

    /**
     * Store one waiting report now; a report refused now (past REPORTS_RETENTION) is dropped, one
     * that names a domain the tenant has not verified yet stays.
     */
    const adoptOne = (row: UnclaimedRow) =>
      (row.kind === "failure"
        ? Effect.asVoid(
            failures.take(row.message, "smtp", Effect.succeed(verdictOf(row)), ownedBy(row.tenant))
          )
        : Effect.asVoid(aggregate.mail(row.message, Effect.succeed(verdictOf(row)), ownedBy(row.tenant)))
      ).pipe(
        Effect.catchIf(
          (e) => e instanceof ReportRefused,
          () => Effect.void
        ),
        Effect.zipRight(run(dropUnclaimed(row.id)))
      )

    /**
     * The tenant's waiting reports for `domain`, stored: call once the tenant has verified it.
     * Returns how many were taken; one the store cannot take now waits for the next pass.
     */
    const adopt = (tenant: string, domain: string) =>
      Effect.flatMap(run(unclaimedFor(tenant, domain)), (rows) =>
        Effect.map(
          Effect.forEach(rows, (row) => Effect.either(adoptOne(row))),
          (done) => done.filter((d) => d._tag === "Right").length
        )
      ).pipe(Effect.withSpan("UnclaimedReportsIn.adopt"))

    /** One adoption pass: every waiting (tenant, domain) whose tenant has verified the domain since. */
    const pass = Effect.gen(function* () {
      const pairs = yield* run(unclaimedOwners(PASS_BATCH))
      let adopted = 0
      for (const { tenant, domain } of pairs)
        if (yield* owners.verifiedBy(tenant, domain)) adopted += yield* adopt(tenant, domain)
      return adopted
    })

    /** Remove what waited longer than REPORTS_UNCLAIMED_RETENTION; returns how many went. */
    const prune = Effect.gen(function* () {
      const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
      return yield* run(pruneUnclaimed(now - config.reportsUnclaimedRetentionS))
    })

    yield* Effect.all([pass, prune]).pipe(
      Effect.tap(([adopted, pruned]) =>
        Effect.all([
          adopted > 0
            ? Effect.logInfo(`${adopted} unclaimed reports stored: their domains are verified`)
            : Effect.void,
          pruned > 0
            ? Effect.logInfo(`pruned ${pruned} unclaimed reports past REPORTS_UNCLAIMED_RETENTION`)
            : Effect.void
        ])
      ),
      Effect.catchAllCause((cause) => Effect.logWarning("the unclaimed reports pass failed", cause)),
      Effect.repeat(Schedule.spaced(config.housekeepingIntervalMs)),
      Effect.delay("1 minute"),
      Effect.forkScoped
    )
    return { adopt, pass, prune }
  })
}) {}
