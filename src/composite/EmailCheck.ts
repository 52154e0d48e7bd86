/**
 * `GET /email/check`: the SPF, DKIM and DMARC checks' own results and the MX set, over one Facts,
 * scored by the scoring model's email category (`score/Score.ts` `emailCategory`). A composite rather
 * than a registered check: a full scan already runs these checks, and a check repeating their
 * results would put each of them in the report twice; here `need` reads them, so inside a scan
 * nothing is asked again.
 *
 * The score is the same model's email category as `GET /scan/quick` (one model, not two),
 * so the composite also runs the other checks that category reads (MTA-STS with TLS-RPT, BIMI);
 * their verdicts appear in `scoreBreakdown.checks`.
 */
import type { Domain } from "../records/DomainName.ts"
import { Effect, Schema } from "effect"
import { need } from "../kernel/Check.ts"
import { Facts } from "../kernel/Facts.ts"
import { Bimi } from "../checks/bimi/Bimi.ts"
import { Dkim, DkimResult } from "../checks/dkim/Dkim.ts"
import { Dmarc, DmarcResult } from "../checks/dmarc/Dmarc.ts"
import { analyseMx, EmailMx, type MxSet, mxSet } from "../checks/email/EmailMx.ts"
import { MailServers } from "../kernel/MailServers.ts"
import { MtaSts } from "../checks/mta-sts/MtaSts.ts"
import { Spf, SpfResult } from "../checks/spf/Spf.ts"
import { EmailCategoryScore, emailCategory } from "../score/Score.ts"
import { AppConfig } from "../Config.ts"
import type { ScanContext } from "../scan/FactsLive.ts"
import { withFacts } from "../scan/Scanner.ts"
import { makeShared } from "../scan/Shared.ts"

export const EmailCheckResult = Schema.Struct({
  success: Schema.Boolean,
  domain: Schema.String,
  spf: SpfResult,
  dkim: DkimResult,
  dmarc: DmarcResult,
  mx: EmailMx,
  /** 0-100: the percentage of the model's email category (docs/scoring.md). */
  score: Schema.Int,
  /** The email category's checks, points and issues: every point of `score` traced to a rule. */
  scoreBreakdown: EmailCategoryScore
})
export type EmailCheckResult = typeof EmailCheckResult.Type

/** A check's result as the scoring rules read an outcome (it finished: the checks fold failures into data). */
const done = <A>(result: A) => ({ status: "done" as const, reason: null, result })

/** The checks and the MX lookup concurrently; a failed MX lookup is kept as unknown, never as "no MX". */
export const emailCheck = (domain: Domain) =>
  withFacts(
    domain,
    Effect.gen(function* () {
      const facts = yield* Facts
      // The implicit MX as the mail checks read it (MailServers): no MX RRset and an address to
      // deliver to; no MX and no address is nowhere to deliver (RFC 5321 5.1 "unusable").
      const mx = facts.mx(facts.domain).pipe(
        Effect.flatMap((answer) =>
          Effect.map(facts.get(MailServers), (servers): MxSet | { readonly error: string } => ({
            ...mxSet(answer),
            implicit: servers.mxStatus === "implicit"
          }))
        ),
        Effect.catchAll((e) => Effect.succeed({ error: `${e.reason}: ${e.message}` }))
      )
      const [spf, dkim, dmarc, mtaSts, bimi, set] = yield* Effect.all(
        [need(Spf), need(Dkim), need(Dmarc), need(MtaSts), need(Bimi), mx],
        { concurrency: "unbounded" }
      )
      const breakdown = emailCategory({
        spf: done(spf),
        dkim: done(dkim),
        dmarc: done(dmarc),
        "mta-sts": done(mtaSts),
        bimi: done(bimi)
      })
      const mxResult = analyseMx(set)
      const allUnknown = [spf.status, dkim.status, dmarc.status, mxResult.status].every(
        (s) => s === "unknown"
      )
      return {
        success: !allUnknown,
        domain: facts.domain,
        spf,
        dkim,
        dmarc,
        mx: mxResult,
        score: breakdown.score,
        scoreBreakdown: breakdown
      } satisfies EmailCheckResult
    })
  ).pipe(Effect.withSpan("EmailCheck", { attributes: { domain } }))

/**
 * `GET /email/check` as the service offers it: shared by concurrent requests for one domain and
 * served again for `CHECK_CACHE_TTL_MS` (`Shared.ts`; 0 turns the cache off).
 */
export class EmailChecks extends Effect.Service<EmailChecks>()("EmailChecks", {
  scoped: Effect.gen(function* () {
    const config = yield* AppConfig
    const context = yield* Effect.context<ScanContext>()
    const shared = makeShared((domain: Domain) => emailCheck(domain).pipe(Effect.provide(context)), {
      ttlMs: config.checkCacheTtlMs,
      size: config.scanCacheSize,
      scope: yield* Effect.scope
    })
    return { check: (domain: Domain) => shared.get(domain) } as const
  })
}) {}
