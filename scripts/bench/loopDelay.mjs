/**
 * Preloaded into the server by scripts/bench/load.ts (`node --import`): once a second, append the
 * event loop's delay over that second (p50, p99, max in ms, from `monitorEventLoopDelay`) and the
 * process's CPU use, heap and external memory (MB) to the file named by LOOP_DELAY_FILE. This is the delay every request, /health
 * included, waits inside the server; the prober's figure adds the kernel's and its own.
 */
import { appendFileSync } from "node:fs"
import { monitorEventLoopDelay } from "node:perf_hooks"

const file = process.env.LOOP_DELAY_FILE
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 5 })
  histogram.enable()
  let cpu = process.cpuUsage()
  setInterval(() => {
    const used = process.cpuUsage(cpu)
    cpu = process.cpuUsage()
    const ms = (ns) => Math.round(ns / 1e6)
    const line = [Date.now(), ms(histogram.percentile(50)), ms(histogram.percentile(99)), ms(histogram.max)]
    const { heapUsed, external, arrayBuffers } = process.memoryUsage()
    const mb = (bytes) => Math.round(bytes / 1048576)
    const cpuPercent = Math.round((used.user + used.system) / 1e4)
    appendFileSync(file, `${[...line, cpuPercent, mb(heapUsed), mb(external + arrayBuffers)].join(" ")}\n`)
    histogram.reset()
  }, 1000).unref()
}
