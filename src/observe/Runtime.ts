/**
 * The process's own gauges, sampled when metrics are scraped rather than on a timer: event-loop
 * delay (node's histogram of timer lateness) and utilisation since the previous scrape, heap and
 * resident memory. Between scrapes this costs nothing but the delay histogram's own timer.
 */
import { type EventLoopUtilization, monitorEventLoopDelay, performance } from "node:perf_hooks"
import * as M from "./Metrics.ts"

const P50 = M.labels({ quantile: "0.5" })
const P99 = M.labels({ quantile: "0.99" })
const MAX = M.labels({ quantile: "1" })
const USED = M.labels({ kind: "used" })
const TOTAL = M.labels({ kind: "total" })

/** Starts the delay monitor; `sample` writes the gauges, `stop` ends the monitor. */
export const makeRuntimeSampler = () => {
  // 10 ms resolution: finer costs a timer firing more often for no decision it would change.
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  let last: EventLoopUtilization = performance.eventLoopUtilization()
  const sample = () => {
    // The histogram's values are nanoseconds; it has none until the monitor's timer fired once.
    if (delay.count > 0) {
      M.eventLoopDelay.unsafeUpdate(delay.percentile(50) / 1e9, P50)
      M.eventLoopDelay.unsafeUpdate(delay.percentile(99) / 1e9, P99)
      M.eventLoopDelay.unsafeUpdate(delay.max / 1e9, MAX)
    }
    delay.reset()
    const now = performance.eventLoopUtilization()
    M.eventLoopUtilization.unsafeUpdate(performance.eventLoopUtilization(now, last).utilization, [])
    last = now
    const memory = process.memoryUsage()
    M.heapBytes.unsafeUpdate(memory.heapUsed, USED)
    M.heapBytes.unsafeUpdate(memory.heapTotal, TOTAL)
    M.residentBytes.unsafeUpdate(memory.rss, [])
  }
  return { sample, stop: () => delay.disable() }
}
