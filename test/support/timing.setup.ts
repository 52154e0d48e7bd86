/**
 * Records, for each test file and each test, the CPU time its worker process spent beside the wall
 * time (vitest's setupFiles: runs in every file before the file's own code). The difference is the
 * time the file waited: on a server, a timeout, a child process. DurationReporter.ts writes both;
 * `node scripts/test/slowest.mjs` prints them. A file on a worker thread (the pure files) records no
 * CPU: there the process's CPU is every thread's, and Node 20 cannot read one thread's alone.
 */
import { isMainThread } from "node:worker_threads"
import { afterAll, afterEach, beforeEach } from "vitest"

const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

// Imports of the file itself are collected after this module runs, so this also counts them.
const fileCpuStart = cpuMs()
// Keyed by test: tests of a concurrent suite overlap (their CPU then counts each other's too).
const testCpuStart = new Map<string, number>()

afterAll((suite) => {
  if (!isMainThread) return
  suite.meta.cpuMs = Math.round(cpuMs() - fileCpuStart)
})

beforeEach((context) => {
  if (!isMainThread) return
  testCpuStart.set(context.task.id, cpuMs())
})

afterEach((context) => {
  const start = testCpuStart.get(context.task.id)
  testCpuStart.delete(context.task.id)
  if (start !== undefined) context.task.meta.cpuMs = Math.round(cpuMs() - start)
})

declare module "vitest" {
  interface TaskMeta {
    cpuMs?: number
  }
}
