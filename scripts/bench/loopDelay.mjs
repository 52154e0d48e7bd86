/**
 * Preloaded into the server by scripts/bench/load.ts (`node --import`): once a second (or every
 * LOOP_DELAY_EVERY_MS, for a finer window on a burst), append the
 * event loop's delay over that second (p50, p99, max in ms, from `monitorEventLoopDelay`) and the
 * process's CPU use, heap and external memory (MB), and the ms its main thread waited for a CPU, to the file named by LOOP_DELAY_FILE. This is the delay every request, /health
 * included, waits inside the server; the prober's figure adds the kernel's and its own.
 */
import { appendFileSync, readFileSync } from "node:fs"
import { monitorEventLoopDelay } from "node:perf_hooks"

// LONG_TURNS_FILE: every turn of the loop over LONG_TURN_MS (30), one line each: when it began on
// the monotonic clock in µs (the clock of a --cpu-prof profile's timestamps), its length in ms and
// when it began in ms since the epoch. scripts/bench/profTurns.mjs says what each was made of.
const turnsFile = process.env.LONG_TURNS_FILE
if (turnsFile) {
  const longer = Number(process.env.LONG_TURN_MS ?? 30)
  let last = process.hrtime.bigint()
  setInterval(() => {
    const now = process.hrtime.bigint()
    const ms = Number(now - last) / 1e6
    if (ms > longer)
      appendFileSync(turnsFile, `${last / 1000n} ${ms.toFixed(1)} ${Math.round(Date.now() - ms)}\n`)
    last = now
  }, 2).unref()
}

const file = process.env.LOOP_DELAY_FILE
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 5 })
  histogram.enable()
  let cpu = process.cpuUsage()
  // The main thread's time waiting for a CPU (runnable, not running): a loop delay with a large
  // wait is the machine's doing, not the server's work (proc(5), /proc/<pid>/schedstat).
  const waited = () => {
    try {
      return Number(readFileSync("/proc/self/schedstat", "utf8").split(" ")[1]) / 1e6
    } catch {
      return NaN
    }
  }
  let wait = waited()
  const every = Number(process.env.LOOP_DELAY_EVERY_MS ?? 1000)
  setInterval(() => {
    const used = process.cpuUsage(cpu)
    cpu = process.cpuUsage()
    const ms = (ns) => Math.round(ns / 1e6)
    const line = [Date.now(), ms(histogram.percentile(50)), ms(histogram.percentile(99)), ms(histogram.max)]
    const { heapUsed, external, arrayBuffers } = process.memoryUsage()
    const mb = (bytes) => Math.round(bytes / 1048576)
    const cpuPercent = Math.round((used.user + used.system) / (10 * every))
    const nowWaited = waited()
    const waitMs = Math.round(nowWaited - wait)
    wait = nowWaited
    appendFileSync(
      file,
      `${[...line, cpuPercent, mb(heapUsed), mb(external + arrayBuffers), waitMs].join(" ")}\n`
    )
    histogram.reset()
  }, every).unref()
}
