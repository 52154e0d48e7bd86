/**
 * The test world's settings: data/world/world.env, written by `scripts/world/up` (docs/world.md).
 * Importing this module never throws; `worldEnv()` does when no world is up.
 */
import { existsSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { ConfigProvider, Effect, Layer } from "effect"
import { parseEnvText } from "../../src/lib/LibraryOptions.ts"

/** This checkout's world.env. */
export const OWN_WORLD_ENV_FILE = fileURLToPath(new URL("../../data/world/world.env", import.meta.url))

/** `up` writes the path of the running world's world.env here (one world per machine). */
export const WORLD_POINTER_FILE = join(tmpdir(), "domain-audit-world.path")

/** Parse `KEY=value` lines (comments and blank lines skipped; a value may be single- or double-quoted). */
export const parseEnvFile = (text: string): Record<string, string> => Object.fromEntries(parseEnvText(text))

/** The world.env in use: WORLD_ENV_FILE if set, this checkout's, else the running world's. */
export const worldEnvFile = (): string | undefined => {
  const candidates = [
    process.env.WORLD_ENV_FILE,
    OWN_WORLD_ENV_FILE,
    existsSync(WORLD_POINTER_FILE) ? readFileSync(WORLD_POINTER_FILE, "utf8").trim() : undefined
  ]
  return candidates.find((file): file is string => file !== undefined && file !== "" && existsSync(file))
}

/** The world's settings; throws a clear error when the world is not up. */
export const worldEnv = (): Record<string, string> => {
  const file = worldEnvFile()
  if (file === undefined)
    throw new Error(
      `The test world is not up (no ${OWN_WORLD_ENV_FILE}). Run scripts/world/up as root, or run the tests with vitest, whose globalSetup starts it.`
    )
  return parseEnvFile(readFileSync(file, "utf8"))
}

/** A layer that makes every `Config` read (AppConfig) see the world's settings. Built lazily. */
export const WorldConfig: Layer.Layer<never> = Layer.unwrapEffect(
  Effect.sync(() => Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(worldEnv())))))
)
