/**
 * The real app on a random local port, with settings from `env` and a fresh temp data dir,
 * for tests that talk HTTP to it through the provided HttpClient.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NodeHttpServer } from "@effect/platform-node"
import { ConfigProvider, Layer } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { AppLive } from "../../src/http/Server.ts"

export const testApp = (
  env: Record<string, string> = {},
  dataDir = mkdtempSync(join(tmpdir(), "domain-audit-test-"))
) => {
  const config = Layer.setConfigProvider(
    ConfigProvider.fromMap(new Map(Object.entries({ DATA_DIR: dataDir, LOG_LEVEL: "Error", ...env })))
  )
  return AppLive.pipe(
    Layer.provideMerge(NodeHttpServer.layerTest),
    Layer.provide(AppConfig.Default),
    Layer.provide(config)
  )
}
