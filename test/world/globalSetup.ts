/**
 * vitest globalSetup: the test world up once before the tests (prepareWorld.ts says which world is
 * reused and when one is started). The world is left running for fast re-runs in development; under
 * CI (process.env.CI) a world started here is stopped at teardown. WORLD_SKIP=1 skips all of this.
 * The test command (scripts/test/run.ts) prepares the world beforehand, beside the type check, so
 * that here it is found running and reused. First, the bundle the tests' child processes run
 * (test/support/bundle.ts) is rebuilt if a source is newer.
 */
import { buildBundle } from "../support/bundle.ts"
import { prepareWorld, stopWorld } from "./prepareWorld.ts"

export default async function setup(): Promise<() => Promise<void>> {
  buildBundle()
  if (process.env.WORLD_SKIP === "1") return async () => {}
  const started = await prepareWorld()
  return async () => {
    if (process.env.CI && started) await stopWorld()
  }
}
