/**
 * This process's own CPU use, for the shedding decision (Gatekeeper.ts).
 *
 * Why CPU time and not the event loop's lag or utilisation: both are wall-clock measures. On a
 * machine whose cores another process keeps busy, or while V8 compiles the code at start-up, a timer
 * fires late and the loop reads as busy although this process does little, and a lone client was
 * refused. `process.cpuUsage()` counts only the CPU time this process was given: a busy neighbour
 * lowers it, and it reaches a whole core only when this process's own work fills one.
 */

/** Samples per second, and the seconds the share is measured over. */
const SAMPLE_MS = 100
const WINDOW_MS = 1_000

/**
 * The share of one core this process used over the last second (100 = one core's worth; more when
 * its worker threads, garbage collection and libuv's pool run beside the loop), measured up to now.
 */
export const makeCpuMeter = () => {
  const cpuMicros = () => {
    const { user, system } = process.cpuUsage()
    return user + system
  }
  const samples: Array<{ readonly at: number; readonly cpu: number }> = [
    { at: performance.now(), cpu: cpuMicros() }
  ]
  const timer = setInterval(() => {
    const now = performance.now()
    samples.push({ at: now, cpu: cpuMicros() })
    while (samples.length > 2 && samples[1]!.at <= now - WINDOW_MS) samples.shift()
  }, SAMPLE_MS)
  timer.unref()
  return {
    percent: (): number => {
      const since = samples[0]!
      const elapsedMs = performance.now() - since.at
      // Less than a sample's worth of time measures nothing yet.
      if (elapsedMs < SAMPLE_MS) return 0
      return ((cpuMicros() - since.cpu) / 1000 / elapsedMs) * 100
    },
    stop: () => clearInterval(timer)
  } as const
}

export type CpuMeter = ReturnType<typeof makeCpuMeter>
