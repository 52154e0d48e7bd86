import { defineConfig } from "vitest/config"
import { BaseSequencer, type TestSpecification } from "vitest/node"
import { relative } from "node:path"
const order = (process.env.FILE_ORDER ?? "").split(",")
class S extends BaseSequencer {
  override async sort(files: Array<TestSpecification>) {
    const at = (s: TestSpecification) => order.indexOf(relative(this.ctx.config.root, s.moduleId))
    return [...files].sort((a, b) => at(a) - at(b))
  }
}
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/support/quick.setup.ts"],
    env: { TEST_QUICK: "1", WORLD_SKIP: "1" },
    pool: "forks",
    poolOptions: { forks: { isolate: false, singleFork: true } },
    sequence: { sequencer: S },
    maxWorkers: 1, minWorkers: 1
  }
})
