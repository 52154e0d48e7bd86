/**
 * One measured batch run, in a process of its own (so that its peak RSS is its own): the batch
 * scanner (`runBatch`, the in-process executor, JSONL to a file) over the list, with the Resolver
 * wrapped to count the queries that left for the resolver (answers not served from our cache),
 * and the fibers started counted by a Supervisor. A list name `againN.<domain>` scans `<domain>`
 * (batch.ts repeats the world's synthetic domains that way to fill 1,000 scans in flight).
 * With --expose-gc it also samples, every 5 s, the live heap after a full GC beside the scans in
 * flight: the live MB per scan in flight (the GCs cost CPU: a run of its own, `--live-heap`).
 * With SNAPSHOT=<file> too, it writes a heap snapshot at the first sample with the whole
 * concurrency in flight; with LIVE_EVERY_MS=<ms>, it samples that often and prints each sample on
 * stderr (the live heap's curve over the run). It records process.memoryUsage() at the highest RSS
 * (sampled every 100 ms). With RTT_MS=<ms>, every DNS answer that left for the resolver is delivered
 * that much later (a model of a resolver on the internet), and every TCP connection (SMTP, HTTPS)
 * reports itself connected that much later (the handshake's round trip: `modelConnectRtt`). It
 * counts the TCP connections opened by port (SMTP sessions are those to port 25), and, from the
 * records written, the domains with each check unknown (with SHOW_UNKNOWN=1, the first unknown
 * outcome of each check on stderr) and with each score record unknown for an unanswered question
 * (with SHOW_UNKNOWN=1, the first of each id too). Prints one JSON line of figures on
 * stdout. Started by scripts/bench/batch.ts:
 *   node [--cpu-prof] [--expose-gc] --import tsx scripts/bench/batchRun.ts <list> <out.jsonl> <concurrency>
 */
import { createReadStream, readFileSync } from "node:fs"
import net from "node:net"
import { createInterface } from "node:readline"
import { writeHeapSnapshot } from "node:v8"
import { Effect, Either, type Exit, Layer, Supervisor } from "effect"
import { normaliseDomain } from "../../src/records/DomainName.ts"
import { inProcessAt, runBatch } from "../../src/batch/Batch.ts"
import { type ScanDepth, ScanDepths } from "../../src/kernel/Depth.ts"
import { type BatchRecord, type BatchResult, isFailure, unansweredRecords } from "../../src/batch/Record.ts"
import { AppConfig } from "../../src/Config.ts"
import type { DnsAnswer, DnsError } from "../../src/net/DnsTypes.ts"
import { type Asked, Resolver } from "../../src/net/Resolver.ts"
import { resolverOver } from "../../src/net/ResolverShape.ts"
import { Smtp } from "../../src/net/Smtp.ts"
import { NameServers } from "../../src/net/NameServers.ts"
import { Web } from "../../src/net/Web.ts"
import { sweepScheduler } from "../../src/scan/SweepScheduler.ts"

const [list = "", out = "", concurrencyText = "100"] = process.argv.slice(2)
/** The scans' depth (kernel/Depth.ts), as `batch --depth` gives it: BENCH_DEPTH, full by default. */
const depth: ScanDepth = (ScanDepths as ReadonlyArray<string>).includes(process.env.BENCH_DEPTH ?? "")
  ? (process.env.BENCH_DEPTH as ScanDepth)
  : "full"
const scanAt = inProcessAt(depth)
let sent = 0
const rttMs = Number(process.env.RTT_MS ?? 0)
let questions = 0

/**
 * A question on its way to the resolver, counted when it comes back from the network. A class, as
 * the scan's own questions are: closures here would add to the memory the bench measures.
 */
class Counted implements Asked {
  readonly now: number
  constructor(private readonly asked: Asked) {
    this.now = asked.now
  }
  wanted() {
    return this.asked.wanted()
  }
  done(exit: Exit.Exit<DnsAnswer, DnsError>) {
    const fromNetwork = exit._tag === "Failure" || !exit.value.fromCache
    if (fromNetwork) sent++
    // RTT_MS: an answer from the network arrives that much later, as from a resolver on
    // the internet rather than on loopback (the world answers in well under a millisecond).
    if (fromNetwork && rttMs > 0) setTimeout(() => this.asked.done(exit), rttMs)
    else this.asked.done(exit)
  }
}

/** TCP connections that completed, by remote port. */
const connects = new Map<number, number>()
/**
 * Counts every TCP connection as it completes and, with RTT_MS, lets it say so that much later:
 * a SYN and its SYN-ACK cross the network once each way before anything can be sent (RFC 9293
 * 3.5). Node starts a TLS handshake, and our SMTP client its reading, on the socket's `connect`
 * event, so delaying the event delays all that follows as a real round trip would. The later
 * exchanges of a session (banner, EHLO, STARTTLS, the TLS handshake) are not delayed: a floor.
 */
const modelConnectRtt = () => {
  const emit = net.Socket.prototype.emit as (
    this: net.Socket,
    event: string | symbol,
    ...args: Array<unknown>
  ) => boolean
  net.Socket.prototype.emit = function (this: net.Socket, event: string | symbol, ...args: Array<unknown>) {
    if (event !== "connect") return emit.call(this, event, ...args)
    const port = this.remotePort ?? 0
    connects.set(port, (connects.get(port) ?? 0) + 1)
    if (rttMs <= 0) return emit.call(this, event, ...args)
    setTimeout(() => emit.call(this, event, ...args), rttMs)
    return true
  } as typeof net.Socket.prototype.emit
}
modelConnectRtt()

// The same services as ScanNetLive, with a counting Resolver under Web and Smtp too.
const counting = Layer.effect(
  Resolver,
  Effect.map(Resolver, (inner) =>
    Resolver.make(
      resolverOver((name, type, options, asked) => {
        questions++
        inner.ask(name, type, options, new Counted(asked))
      }, inner.upstreams)
    )
  )
).pipe(Layer.provide(Resolver.Default))
const layer = Layer.mergeAll(Web.Default, Smtp.Default, NameServers.Default).pipe(
  Layer.provideMerge(counting),
  Layer.provideMerge(AppConfig.Default)
)

let fibers = 0
class CountFibers extends Supervisor.AbstractSupervisor<void> {
  value = Effect.void
  override onStart() {
    fibers++
  }
}

const gc = (globalThis as { gc?: () => void }).gc
let inFlight = 0
let baseHeap = 0
let best = { inFlight: 0, liveMb: 0 }
/** The live heap beside the scans in flight; the sample with the most in flight is kept. */
const sampleHeap = () => {
  if (!gc || inFlight === 0) return
  gc()
  const liveMb = (process.memoryUsage().heapUsed - baseHeap) / 2 ** 20
  if (inFlight >= best.inFlight) best = { inFlight, liveMb }
  if (process.env.LIVE_EVERY_MS)
    console.error(
      `live ${(performance.now() - startedAt).toFixed(0)} ms: ${inFlight} in flight, ${liveMb.toFixed(0)} MB`
    )
  // SNAPSHOT=file: a heap snapshot at the first sample with the batch's concurrency in flight.
  if (process.env.SNAPSHOT && !snapshotTaken && inFlight >= Number(concurrencyText)) {
    snapshotTaken = true
    writeHeapSnapshot(process.env.SNAPSHOT)
  }
}
let snapshotTaken = false

/** The kernel's peak resident set size of this process (VmHWM), in MB. */
const peakRssMb = () =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024

/** process.memoryUsage() at the highest RSS seen, sampled every 100 ms, with the scans in flight then. */
let atPeak = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0, inFlight: 0, atMs: 0 }
const startedAt = performance.now()
const sampleRss = () => {
  const m = process.memoryUsage()
  if (m.rss > atPeak.rss) atPeak = { ...m, inFlight, atMs: performance.now() - startedAt }
}

/**
 * From the records written, line by line (a long list's records, ~50 KB each, read whole would not
 * fit under the heap cap): the domains with each check unknown, and with each score record left
 * unknown by an unanswered question (`unansweredRecords`: what the batch counts "with unknown
 * checks"), by id.
 */
const scoreRecord = (record: BatchResult, id: string) =>
  Object.values(record.score.categories)
    .flatMap((c) => c.checks)
    .find((r) => r.id === id)

const unknownsOf = async (out: string) => {
  const checks: Record<string, number> = {}
  const unanswered: Record<string, number> = {}
  for await (const line of createInterface({ input: createReadStream(out), crlfDelay: Infinity })) {
    if (!line.startsWith("{")) continue
    // As written (encoded): what these two read is the same in both forms.
    const record = JSON.parse(line) as BatchRecord
    if (isFailure(record)) continue
    for (const [id, outcome] of Object.entries(record.scan.checks))
      if (outcome.status === "unknown") {
        if (checks[id] === undefined && process.env.SHOW_UNKNOWN)
          console.error(`unknown ${id}: ${JSON.stringify(outcome).slice(0, 600)}`)
        checks[id] = (checks[id] ?? 0) + 1
      }
    for (const id of new Set(unansweredRecords(record))) {
      if (unanswered[id] === undefined && process.env.SHOW_UNKNOWN)
        console.error(
          `unanswered ${id} (${record.domain}): ${JSON.stringify(scoreRecord(record, id)).slice(0, 600)}`
        )
      unanswered[id] = (unanswered[id] ?? 0) + 1
    }
  }
  return { checks, unanswered }
}

const main = Effect.gen(function* () {
  if (gc) {
    gc()
    baseHeap = process.memoryUsage().heapUsed
  }
  const sampler = setInterval(sampleHeap, Number(process.env.LIVE_EVERY_MS ?? 5000))
  const rssSampler = setInterval(sampleRss, 100)
  const cpu = process.cpuUsage()
  const start = performance.now()
  const summary = yield* runBatch(
    {
      input: list,
      out,
      format: "jsonl",
      concurrency: Number(concurrencyText),
      rejects: undefined,
      quiet: true,
      cluster: false,
      depth
    },
    (domain) =>
      Effect.acquireUseRelease(
        Effect.sync(() => inFlight++),
        () => scanAt(Either.getOrThrow(normaliseDomain(domain.replace(/^again\d+\./, "")))),
        () => Effect.sync(() => inFlight--)
      ),
    { isTTY: false, write: () => true }
  ).pipe(Effect.supervised(new CountFibers()))
  const wallMs = performance.now() - start
  // The batch's own figures, before this run reads its output back (the records parsed below are
  // ~50 MB of text: counted, they were a peak RSS and a CPU time of the bench, not of the batch).
  const used = process.cpuUsage(cpu)
  const peakMb = peakRssMb()
  clearInterval(sampler)
  clearInterval(rssSampler)
  const { checks: unknown, unanswered } = yield* Effect.promise(() => unknownsOf(out))
  console.log(
    JSON.stringify({
      concurrency: Number(concurrencyText),
      scanned: summary.scanned,
      failed: summary.failed,
      incomplete: summary.incomplete,
      wallMs,
      cpuMs: (used.user + used.system) / 1000,
      questions,
      sent,
      peakRssMb: peakMb,
      fibers,
      heldForMemory: summary.heldForMemory,
      heldForDns: summary.heldForDns ?? 0,
      smtpSessions: connects.get(25) ?? 0,
      connects: Object.fromEntries(connects),
      unknown,
      unanswered,
      lateSweeps: sweepScheduler.late,
      sweepWindow: sweepScheduler.window,
      peak: atPeak,
      liveInFlight: best.inFlight,
      liveMbPerScan: best.inFlight > 0 ? best.liveMb / best.inFlight : null
    })
  )
})

Effect.runPromise(main.pipe(Effect.provide(layer))).then(
  () => process.exit(0),
  (e) => {
    console.error(e)
    process.exit(1)
  }
)
