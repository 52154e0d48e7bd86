/**
 * Memory and fibers per scan in flight, over fakes (no world needed): N full scans of one
 * fake domain at once, every DNS answer delayed, the heap measured after a full GC while all
 * N are in flight. Run with --expose-gc:
 * The scans run with the tracer off, as the batch's (src/batch/Batch.ts `inProcess`); TRACER=on
 * keeps it.
 *   node --expose-gc --import tsx scripts/bench/scanMemory.ts [scans=200] [delayMs=300]
 */
import { writeHeapSnapshot } from "node:v8"
import { Effect, Either, Layer, Supervisor } from "effect"
import { normaliseDomain } from "../../src/records/DomainName.ts"
import { Resolver } from "../../src/net/Resolver.ts"
import { resolverOver } from "../../src/net/ResolverShape.ts"
import { scan } from "../../src/scan/Scanner.ts"
import { fakeNet } from "../../test/checks/facts.ts"

const [nText = "200", delayText = "300"] = process.argv.slice(2)
const n = Number(nText)
const delayMs = Number(delayText)
const tracer = process.env.TRACER === "on"
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error("run with node --expose-gc")

const zone = (d: string) => ({
  [`${d} TXT`]: ["v=spf1 mx include:_spf.example.net -all"],
  [`_spf.example.net TXT`]: ["v=spf1 ip4:192.0.2.0/24 -all"],
  [`_dmarc.${d} TXT`]: ["v=DMARC1; p=reject; rua=mailto:d@" + d],
  [`${d} MX`]: [`10 mx.${d}.`],
  [`mx.${d} A`]: ["192.0.2.25"],
  [`${d} A`]: ["192.0.2.80"],
  [`${d} NS`]: [`ns1.${d}.`],
  [`${d} SOA`]: [`ns1.${d}. h.${d}. 1 7200 3600 1209600 300`],
  [`selector1._domainkey.${d} TXT`]: ["v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="]
})

let fibers = 0
class Counting extends Supervisor.AbstractSupervisor<void> {
  value = Effect.void
  override onStart() {
    fibers++
  }
}

// Every DNS question answers after `delayMs`, as a slow upstream would.
const delayed = Layer.effect(
  Resolver,
  Effect.map(Resolver, (inner) =>
    Resolver.make(
      resolverOver(
        (name, type, options, asked) => void setTimeout(() => inner.ask(name, type, options, asked), delayMs),
        inner.upstreams
      )
    )
  )
)
const layer = delayed.pipe(Layer.provideMerge(fakeNet({ zone: zone("example.com") })))

const EXAMPLE = Either.getOrThrow(normaliseDomain("example.com"))

const main = Effect.gen(function* () {
  yield* scan(EXAMPLE) // warm: modules, registry, JIT
  gc()
  const base = process.memoryUsage().heapUsed
  fibers = 0
  const cpu = process.cpuUsage()
  const all = yield* Effect.fork(
    Effect.forEach(Array.from({ length: n }), () => scan(EXAMPLE).pipe(Effect.withTracerEnabled(tracer)), {
      concurrency: "unbounded"
    }).pipe(Effect.supervised(new Counting()))
  )
  yield* Effect.sleep(delayMs * 1.5)
  gc()
  const live = process.memoryUsage().heapUsed - base
  if (process.env.SNAPSHOT) writeHeapSnapshot(process.env.SNAPSHOT)
  const results = yield* all.await
  const used = process.cpuUsage(cpu)
  console.log(
    JSON.stringify({
      scans: n,
      liveMbPerScan: +(live / n / 2 ** 20).toFixed(3),
      fibersPerScan: Math.round(fibers / n),
      cpuMsPerScan: +((used.user + used.system) / 1000 / n).toFixed(1),
      ok: results._tag
    })
  )
})

Effect.runPromise(main.pipe(Effect.provide(layer))).then(
  () => process.exit(0),
  (e) => (console.error(e), process.exit(1))
)
