/**
 * The operator's command for hall-of-fame removals (abuse, legal requests): docs/presentation.md.
 *
 *   npm run hall-of-fame:suppress -- <domain> --reason "<why>" [--operator <name>]
 *   npm run hall-of-fame:suppress -- <domain> --lift --reason "<why>" [--operator <name>]
 *   npm run hall-of-fame:suppress -- --list
 *
 * Writes to the app's database ($DATA_DIR/domain-audit.sqlite; the running service sees the change
 * on its next GET /hall-of-fame). Every suppression and lift is logged to stdout and to the
 * append-only table hall_of_fame_operator_log, with the operator (default: the OS user) and reason.
 */
import { userInfo } from "node:os"
import { parseArgs } from "node:util"
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Either, Layer } from "effect"
import { normaliseDomain } from "../../src/records/DomainName.ts"
import { AppConfig } from "../../src/Config.ts"
import { HallOfFameStore } from "../../src/store/HallOfFame.ts"
import { SqlLive } from "../../src/store/Sql.ts"

const USAGE = `usage: npm run hall-of-fame:suppress -- <domain> --reason "<why>" [--operator <name>] [--lift]
       npm run hall-of-fame:suppress -- --list`

const usage = (message: string) =>
  Effect.zipRight(
    Console.error(`${message}\n${USAGE}`),
    Effect.sync(() => process.exit(2))
  )

const program = Effect.gen(function* () {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      reason: { type: "string" },
      operator: { type: "string" },
      lift: { type: "boolean", default: false },
      list: { type: "boolean", default: false }
    }
  })
  const store = yield* HallOfFameStore
  if (values.list) {
    for (const s of yield* store.suppressions)
      yield* Console.log(
        `${s.domain}\tsince ${new Date(Number(s.suppressed_at)).toISOString()}\tby ${s.operator}\t${s.reason}`
      )
    return
  }
  if (positionals.length !== 1) return yield* usage("give exactly one domain")
  const domain = normaliseDomain(positionals[0]!)
  if (Either.isLeft(domain)) return yield* usage(domain.left)
  const reason = values.reason?.trim() ?? ""
  if (reason === "") return yield* usage("--reason is required: the log must say why")
  const action = {
    domain: domain.right,
    reason,
    operator: values.operator?.trim() || userInfo().username,
    atMs: Date.now()
  }
  if (values.lift) {
    const lifted = yield* store.lift(action)
    if (lifted)
      yield* Effect.logInfo(`hall of fame: suppression of ${action.domain} lifted`).pipe(
        Effect.annotateLogs(action)
      )
    else yield* Effect.logWarning(`hall of fame: ${action.domain} was not suppressed; nothing changed`)
  } else {
    yield* store.suppress(action)
    yield* Effect.logInfo(`hall of fame: ${action.domain} suppressed`).pipe(Effect.annotateLogs(action))
  }
})

program.pipe(
  Effect.provide(HallOfFameStore.Default.pipe(Layer.provide(SqlLive), Layer.provide(AppConfig.Default))),
  NodeRuntime.runMain
)
