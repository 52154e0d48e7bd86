/**
 * The operator's removal of a stored report snapshot (docs/reports.md "Retention"): the only way a
 * snapshot leaves the database. Snapshots have no expiry; removal is for the exceptions of the
 * retentionNotice only (abuse prevention, legal compliance, operational integrity).
 *
 *   npm run snapshot:remove -- <snapshotId> --reason "<why>" [--operator <name>]
 *
 * The removal is logged in the database (report_snapshot_removal, append-only) in the same
 * transaction as the deletion, and as a line on stdout; GET of the id then answers 404 saying it was
 * removed. Uses DATA_DIR like the service. Exit status: 0 removed, 1 no such snapshot, 2 usage.
 */
import { userInfo } from "node:os"
import { parseArgs } from "node:util"
import { Effect, Layer, Option } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { SnapshotStore } from "../../src/report/SnapshotStore.ts"
import { SqlLive } from "../../src/store/Sql.ts"

const usage = 'usage: npm run snapshot:remove -- <snapshotId> --reason "<why>" [--operator <name>]'

const parsed = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: { reason: { type: "string" }, operator: { type: "string" } }
    })
  } catch (e) {
    return { error: String(e) }
  }
})()

if ("error" in parsed || parsed.positionals.length !== 1 || (parsed.values.reason ?? "").trim() === "") {
  console.error("error" in parsed ? `${parsed.error}\n${usage}` : usage)
  process.exit(2)
}

const id = parsed.positionals[0]!
const reason = parsed.values.reason!.trim()
const operator = parsed.values.operator ?? process.env["SUDO_USER"] ?? userInfo().username

const program = Effect.gen(function* () {
  const store = yield* SnapshotStore
  const removed = yield* store.remove(id, reason, operator)
  if (Option.isNone(removed)) {
    console.error(JSON.stringify({ event: "snapshot-remove", result: "not-found", snapshotId: id }))
    return 1
  }
  console.log(
    JSON.stringify({ event: "snapshot-remove", result: "removed", ...removed.value, reason, operator })
  )
  return 0
})

const code = await Effect.runPromise(
  program.pipe(
    Effect.provide(SnapshotStore.Default.pipe(Layer.provide(SqlLive), Layer.provide(AppConfig.Default)))
  )
)
process.exit(code)
