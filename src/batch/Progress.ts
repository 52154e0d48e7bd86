/**
 * Progress on stderr: a bar redrawn in place on a terminal, a plain line now and then otherwise
 * (a log file or CI has no use for carriage returns). Both show done/total, the rate, the ETA and
 * the failures. The text is built by pure functions (`progressLine`, `bar`); `Progress` only times it.
 */

export interface Counts {
  /** Domains written in this run. */
  readonly done: number
  /** Domains this run has to scan (`undefined` while unknown: the list comes from stdin). */
  readonly total: number | undefined
  /** Written as failures: the scan could not run, or not one of its checks finished. */
  readonly failed: number
  /** Written with at least one check unknown (a timeout, an unreachable server). */
  readonly incomplete: number
  readonly elapsedMs: number
  /**
   * Domains written in the last `RATE_WINDOW_MS` and that window's length (shorter at the start):
   * the rate the ETA is drawn from, so that it follows the pace now rather than the average since
   * the start, which the first scans' full duration (nothing finishes before one scan has run) and
   * any slowdown keep wrong for long. Absent: the average since the start.
   */
  readonly recent?: { readonly done: number; readonly ms: number } | undefined
}

/** How far back the ETA's rate looks. */
export const RATE_WINDOW_MS = 60_000

/** A rate needs this many results: one or two finished scans say nothing of the pace. */
const ETA_MIN_SAMPLES = 3

/** `1h02m`, `3m05s`, `42s`, and tenths under 10 s (`2.3s`), where whole seconds would read `0s`. */
export const duration = (ms: number): string => {
  if (ms < 9_950) return `${(Math.max(0, ms) / 1000).toFixed(1)}s`
  const s = Math.round(ms / 1000)
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`
  return `${s}s`
}

/**
 * Domains per minute: over the recent window when it holds enough results, else since the start
 * (a slow run finishes fewer a minute); 0 before the first second, which would only show noise.
 */
export const perMinute = (c: Counts): number => {
  const { done, ms } =
    c.recent && c.recent.done >= ETA_MIN_SAMPLES ? c.recent : { done: c.done, ms: c.elapsedMs }
  return c.elapsedMs < 1000 || ms <= 0 ? 0 : (done * 60_000) / ms
}

/** `4.5`, `96.2`, `1,650`: tenths only where they matter. */
export const rateNumber = (perMin: number): string =>
  perMin < 100 ? perMin.toFixed(1) : Math.round(perMin).toLocaleString("en-US")

/** `120/1000 (12%), 95.3/min, ETA 9m14s, 2 failed, 5 with unknown checks` */
export const progressLine = (c: Counts): string => {
  const rate = perMinute(c)
  const of =
    c.total === undefined
      ? `${c.done}`
      : `${c.done}/${c.total} (${c.total === 0 ? 100 : Math.floor((100 * c.done) / c.total)}%)`
  const eta =
    c.total === undefined || rate === 0 || (c.done < ETA_MIN_SAMPLES && c.done < c.total)
      ? ""
      : `, ETA ${duration(((c.total - c.done) / rate) * 60_000)}`
  return `${of}, ${rateNumber(rate)}/min${eta}, ${c.failed} failed, ${c.incomplete} with unknown checks`
}

/** `[#######.............]` for done/total (empty for an unknown total). */
export const bar = (c: Counts, width = 24): string => {
  if (c.total === undefined) return ""
  const filled = c.total === 0 ? width : Math.min(width, Math.floor((width * c.done) / c.total))
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] `
}

export interface ProgressSink {
  readonly isTTY?: boolean | undefined
  write(text: string): unknown
}

/** Draws the counts every `everyMs` (a bar on a terminal, a line otherwise) until `stop`. */
export class Progress {
  private timer: NodeJS.Timeout | undefined
  private readonly startMs = Date.now()
  private counts: Omit<Counts, "elapsedMs" | "recent"> = {
    done: 0,
    total: undefined,
    failed: 0,
    incomplete: 0
  }
  /** When each result of the last `RATE_WINDOW_MS` was written, oldest first. */
  private readonly finishedAt: Array<number> = []

  constructor(
    private readonly sink: ProgressSink,
    private readonly everyMs: number = sink.isTTY ? 250 : 10_000
  ) {}

  start() {
    this.timer = setInterval(() => this.draw(), this.everyMs)
    this.timer.unref()
  }

  setTotal(total: number) {
    this.counts = { ...this.counts, total }
  }

  record(outcome: { readonly failed: boolean; readonly incomplete: boolean }) {
    this.finishedAt.push(Date.now())
    const c = this.counts
    this.counts = {
      ...c,
      done: c.done + 1,
      failed: c.failed + (outcome.failed ? 1 : 0),
      incomplete: c.incomplete + (outcome.incomplete ? 1 : 0)
    }
  }

  /** A message between bar redraws (an invalid line): the bar is cleared first, then redrawn. */
  note(text: string) {
    this.sink.write(this.sink.isTTY ? `\r\x1b[K${text}\n` : `${text}\n`)
  }

  snapshot(): Counts {
    const now = Date.now()
    const from = Math.max(this.startMs, now - RATE_WINDOW_MS)
    while (this.finishedAt.length > 0 && this.finishedAt[0]! < from) this.finishedAt.shift()
    return {
      ...this.counts,
      elapsedMs: now - this.startMs,
      recent: { done: this.finishedAt.length, ms: now - from }
    }
  }

  private draw() {
    const c = this.snapshot()
    if (this.sink.isTTY) this.sink.write(`\r\x1b[K${bar(c)}${progressLine(c)}`)
    else this.sink.write(`progress: ${progressLine(c)}\n`)
  }

  stop() {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    if (this.sink.isTTY) this.sink.write(`\r\x1b[K`)
  }
}
