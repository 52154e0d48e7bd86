/**
 * `GET /email/check`: the SPF, DKIM and DMARC checks' own results and the MX set, over one Facts,
 * with the email score (`checks/email/EmailCheck.ts`). A composite rather than a registered check:
 * a full scan already runs SPF, DKIM and DMARC, and a check repeating their results would put each
 * of them in the report twice; here `need` reads them, so inside a scan nothing is asked again.
 */
import { Effect } from "effect"
import { need } from "../checks/Check.ts"
import { Facts } from "../checks/Facts.ts"
import { Dkim } from "../checks/dkim/Dkim.ts"
import { Dmarc } from "../checks/dmarc/Dmarc.ts"
import { assemble, mxSet } from "../checks/email/EmailCheck.ts"
import { Spf } from "../checks/spf/Spf.ts"
import { withFacts } from "./Scanner.ts"

/** The four parts concurrently; a failed MX lookup is kept as unknown, never as "no MX". */
export const emailCheck = (domain: string) =>
  withFacts(
    domain,
    Effect.gen(function* () {
      const facts = yield* Facts
      const mx = facts.mx(facts.domain).pipe(
        Effect.map(mxSet),
        Effect.catchAll((e) => Effect.succeed({ error: `${e.reason}: ${e.message}` }))
      )
      const [spf, dkim, dmarc, set] = yield* Effect.all([need(Spf), need(Dkim), need(Dmarc), mx], {
        concurrency: "unbounded"
      })
      return assemble(facts.domain, spf, dkim, dmarc, set)
    })
  ).pipe(Effect.withSpan("EmailCheck", { attributes: { domain } }))
