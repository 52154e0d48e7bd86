/**
 * `scanOnCluster`, the batch scanner's door to the cluster, in the default single-process mode:
 * a full scan of a world domain runs as a durable job and resolves with the Scanner's result; the
 * same (domain, batch id) is one job, so a repeat returns the same scan instead of scanning again.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { registry } from "../../src/checks/index.ts"
import { AppConfig } from "../../src/Config.ts"
import { JobsLive, scanOnCluster } from "../../src/jobs/DeepScans.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { Smtp } from "../../src/net/Smtp.ts"
import { Web } from "../../src/net/Web.ts"
import { worldEnv } from "./env.ts"
import { domain as toDomain } from "../support/domain.ts"

const config = Layer.unwrapEffect(
  Effect.sync(() =>
    Layer.setConfigProvider(
      ConfigProvider.fromMap(
        new Map(
          Object.entries({
            ...worldEnv(),
            DATA_DIR: mkdtempSync(join(tmpdir(), "domain-audit-batchjobs-")),
            LOG_LEVEL: "Error"
          })
        )
      )
    )
  )
)

const live = JobsLive.pipe(
  Layer.provideMerge(Layer.merge(Web.Default, Smtp.Default)),
  Layer.provideMerge(Resolver.Default),
  Layer.provideMerge(AppConfig.Default),
  Layer.provide(config)
)

describe("scanOnCluster", () => {
  layer(live, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("runs a full scan of perfect.com as a job; the same batch id is the same job", () =>
      Effect.gen(function* () {
        const first = yield* scanOnCluster(toDomain("perfect.com"), "test-batch")
        expect(first.type).toBe("full")
        expect(first.domain).toBe("perfect.com")
        if (first.type !== "full") return
        expect(Object.keys(first.scan.checks).sort()).toEqual(registry.map((c) => c.id).sort())
        expect(first.scan.checks.spf.status).toBe("done")
        const again = yield* scanOnCluster(toDomain("Perfect.COM"), "test-batch")
        expect(again.type === "full" && again.scan.computedAt).toBe(first.scan.computedAt)
        const other = yield* scanOnCluster(toDomain("perfect.com"), "another-batch")
        expect(other.type).toBe("full")
      })
    )
  })
})
