/**
 * A vitest reporter that writes where the suite's time goes: per test file its import (collect),
 * set-up and test time, the CPU its worker spent (test/support/timing.setup.ts) and so the time it
 * waited, and the same for each test. `npm test` writes it to test-results/durations.json;
 * scripts/test/slowest.mjs prints the slowest, scripts/test/budgets.mjs compares it with
 * test/budgets.json.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname, relative, resolve } from "node:path"
import type { Reporter, TestModule } from "vitest/node"

export interface FileDuration {
  readonly file: string
  readonly state: string
  /** Import of the file and everything it imports, and its describe() callbacks. */
  readonly collectMs: number
  /** Set-up files (timing.setup.ts). */
  readonly setupMs: number
  /** Tests and hooks. */
  readonly testsMs: number
  /** collect + setup + tests: what the file costs a worker. */
  readonly wallMs: number
  /** CPU of the worker process over the same span; wall minus CPU is time spent waiting. */
  readonly cpuMs: number | null
  readonly tests: ReadonlyArray<{
    readonly name: string
    readonly state: string
    readonly ms: number
    readonly cpuMs: number | null
  }>
}

export interface DurationReport {
  readonly startedAt: string
  readonly wallMs: number
  readonly workers: number
  readonly files: ReadonlyArray<FileDuration>
}

const fileDuration = (root: string, module: TestModule): FileDuration => {
  const d = module.diagnostic()
  const wallMs = Math.round(d.collectDuration + d.setupDuration + d.duration)
  return {
    file: relative(root, module.moduleId),
    state: module.state(),
    collectMs: Math.round(d.collectDuration),
    setupMs: Math.round(d.setupDuration),
    testsMs: Math.round(d.duration),
    wallMs,
    cpuMs: module.meta().cpuMs ?? null,
    tests: Array.from(module.children.allTests(), (test) => ({
      name: test.fullName,
      state: test.result().state,
      ms: Math.round(test.diagnostic()?.duration ?? 0),
      cpuMs: test.meta().cpuMs ?? null
    }))
  }
}

export default class DurationReporter implements Reporter {
  private started = Date.now()
  private root = process.cwd()
  private workers = 1

  private readonly outputFile: string

  /** vitest hands a reporter given by path its options: `["path", { outputFile }]` in the config. */
  constructor(options: { readonly outputFile?: string } = {}) {
    this.outputFile = options.outputFile ?? "test-results/durations.json"
  }

  onInit(vitest: { config: { root: string; maxWorkers?: number } }) {
    this.started = Date.now()
    this.root = vitest.config.root
    this.workers = vitest.config.maxWorkers ?? 1
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const report: DurationReport = {
      startedAt: new Date(this.started).toISOString(),
      wallMs: Date.now() - this.started,
      workers: this.workers,
      files: modules.map((m) => fileDuration(this.root, m)).sort((a, b) => b.wallMs - a.wallMs)
    }
    const file = resolve(this.root, this.outputFile)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, JSON.stringify(report, null, 1))
  }
}
