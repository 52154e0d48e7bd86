/**
 * This process's own saturation, for the shedding decision (Gatekeeper.ts): how much of the last
 * half second its main thread (the event loop) had work to do.
 *
 * Why not the event loop's lag or utilisation as measured by timers: a timer that fires late says
 * the loop was late, not why, and a loop that runs one request's work three times slower because a
 * neighbour holds the core looked saturated to it; that refused a lone client. What is measured here
 * instead, from the kernel's accounting of this thread (`/proc/self/schedstat`): the time it ran
 * plus the time it was ready to run and waited for a core. Time spent idle, waiting for I/O, counts
 * for nothing, however busy the machine; the share reaches 100% only when this process always has
 * work queued, which is the saturation that makes /health wait. Where the kernel does not report it,
 * the process's CPU time (`process.cpuUsage`) stands in: exact on an idle machine, low on a shared
 * core. Either is read only once every gate permit is taken (Gatekeeper.ts), so a client sending one
 * request at a time is never refused on its account.
 */
import { readFileSync } from "node:fs"

/** Samples per second, and how far back the share is measured. */
const SAMPLE_MS = 100
const WINDOW_MS = 500
/** How long one reading of the clocks stands for "now". */
const FRESH_MS = 10

/** Nanoseconds the main thread ran and waited to run, or undefined where the kernel does not say. */
const schedstat = (): number | undefined => {
  try {
    const [run, wait] = readFileSync("/proc/self/schedstat", "latin1").split(" ")
    const ns = Number(run) + Number(wait)
    return Number.isFinite(ns) && ns > 0 ? ns : undefined
  } catch {
    return undefined
  }
}

const cpuNanos = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) * 1000
}

/**
 * The main thread's demand over the last half second, as a share of that time (100 = it always had
 * work), measured up to now; and the process's CPU time over the same window (more than 100 when
 * its garbage collector and libuv's pool run beside the loop), for the logs.
 */
export const makeCpuMeter = () => {
  const fromKernel = schedstat() !== undefined
  const demandNanos = () => (fromKernel ? (schedstat() ?? 0) : cpuNanos())
  const sample = () => ({ at: performance.now(), demand: demandNanos(), cpu: cpuNanos() })
  const samples = [sample()]
  const timer = setInterval(() => {
    const now = sample()
    samples.push(now)
    while (samples.length > 2 && samples[1]!.at <= now.at - WINDOW_MS) samples.shift()
  }, SAMPLE_MS)
  timer.unref()
  /**
   * The reading of "now", kept for FRESH_MS: in a crowd's burst every costly request asks, and
   * reading the kernel's and the process's clocks each time was an eighth of the burst's CPU
   * (docs/bench.md); against a half-second window, a reading 10 ms old is as good.
   */
  let latest = samples[0]!
  const current = () => {
    if (performance.now() - latest.at >= FRESH_MS) latest = sample()
    return latest
  }
  const share = (pick: (s: ReturnType<typeof sample>) => number) => {
    const since = samples[0]!
    const now = current()
    const elapsedMs = now.at - since.at
    // Less than a sample's worth of time measures nothing yet.
    return elapsedMs < SAMPLE_MS ? 0 : ((pick(now) - pick(since)) / 1e6 / elapsedMs) * 100
  }
  return {
    /** The main thread's running and ready-to-run time, in % of the window. */
    demandPercent: () => share((s) => s.demand),
    /** The process's CPU time, in % of one core over the window. */
    cpuPercent: () => share((s) => s.cpu),
    stop: () => clearInterval(timer)
  } as const
}

export type CpuMeter = ReturnType<typeof makeCpuMeter>
