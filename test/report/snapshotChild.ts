/**
 * The durability test's child: creates snapshots in a loop against the database under DATA_DIR
 * (argv[2]) through the real SnapshotStore, printing `ACK <id> <contentHash>` after each create has
 * returned (after COMMIT), until it is killed. Each snapshot carries some kilobytes so that a kill
 * often lands inside a write.
 */
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { SnapshotStore } from "../../src/report/SnapshotStore.ts"
import { sqliteAt } from "../../src/store/Sql.ts"

const dataDir = process.argv[2]!
const padding = "x".repeat(16_384)

const loop = Effect.gen(function* () {
  const store = yield* SnapshotStore
  for (let n = 0; ; n++) {
    const content = { domain: "perfect.com", n, padding }
    const { snapshot } = yield* store.create(
      {
        domain: "perfect.com",
        formatVersion: "durability/1",
        content,
        document: (s) => ({ ...content, evidence: { snapshotId: s.id, contentHash: s.contentHash } })
      },
      0
    )
    process.stdout.write(`ACK ${snapshot.id} ${snapshot.contentHash}\n`)
  }
})

Effect.runPromise(
  loop.pipe(
    Effect.provide(SnapshotStore.Default.pipe(Layer.provide(sqliteAt(join(dataDir, "domain-audit.sqlite")))))
  )
)
