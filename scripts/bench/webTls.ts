/**
 * Benchmark: the TLS scan of every HTTPS web host of the running world (versions, suites in server
 * order, certificate, stapling; net/TlsScan.ts with the service's bounds), one host at a time, and
 * the same scan of one host beside a single ordinary handshake to it in the same process: the ratio
 * says what the full probe costs over what a browser's connection costs (goal: each host under 2 s).
 *   npx tsx scripts/bench/webTls.ts [rounds=3]
 * Figures: docs/bench.md.
 */
import { readFileSync } from "node:fs"
import * as tls from "node:tls"
import { Effect } from "effect"
import { CLIENT_SUITES, handshake, tcpOpener } from "../../src/net/TlsHandshake.ts"
import { scanTls } from "../../src/net/TlsScan.ts"
import { HANDSHAKE_CONCURRENCY, MAX_HANDSHAKES } from "../../src/net/WebTlsScan.ts"
import { worldEnv } from "../../test/world/env.ts"

const rounds = Number(process.argv[2] ?? 3)
const env = worldEnv()
const manifest = JSON.parse(readFileSync(env.WORLD_MANIFEST!, "utf8")) as {
  scenarios: ReadonlyArray<{
    domain: string
    synthetic?: boolean
    web?: { addr: string; https: boolean; server: string } | null
  }>
}
const ca = [...tls.rootCertificates, readFileSync(env.EXTRA_CA_FILE!, "utf8")]
const settings = {
  ca,
  handshakeTimeoutMs: 5_000,
  maxHandshakes: MAX_HANDSHAKES,
  concurrency: HANDSHAKE_CONCURRENCY
}
// The synthetic scenarios (batch fodder) are all alike: the named ones have the distinct configurations.
const hosts = manifest.scenarios.filter((s) => !s.synthetic && s.web?.https && s.web.server === "nginx")

const timed = async <A>(work: () => Promise<A>) => {
  const t0 = performance.now()
  const value = await work()
  return { ms: performance.now() - t0, value }
}

let worst = 0
for (const s of hosts) {
  const runs = []
  for (let i = 0; i < rounds; i++)
    runs.push(
      await timed(() =>
        Effect.runPromise(scanTls(settings, s.domain, s.web!.addr, 443, tcpOpener(s.web!.addr, 443, 5_000)))
      )
    )
  const best = Math.min(...runs.map((r) => r.ms))
  worst = Math.max(worst, best)
  const r = runs[0]!.value
  const accepted = Object.entries(r.versions)
    .filter(([, v]) => v === "accepted")
    .map(([k]) => k)
  console.log(
    `${s.domain.padEnd(28)} ${best.toFixed(0).padStart(5)} ms  ${String(r.handshakes).padStart(2)} handshakes  ${r.suites.length} suites  ${accepted.join(" ")}`
  )
}
const one = hosts[0]!
const single = await timed(async () => {
  for (let i = 0; i < 20; i++)
    await Effect.runPromise(
      handshake(tcpOpener(one.web!.addr, 443, 5_000), {
        servername: one.domain,
        minVersion: "TLSv1.2",
        maxVersion: "TLSv1.3",
        suites: CLIENT_SUITES,
        timeoutMs: 5_000
      }).pipe(Effect.tap((o) => (o.kind === "accepted" ? o.socket.destroy() : undefined)))
    )
})
const full = await timed(() =>
  Effect.runPromise(scanTls(settings, one.domain, one.web!.addr, 443, tcpOpener(one.web!.addr, 443, 5_000)))
)
console.log(
  `\n${hosts.length} hosts; slowest scan ${worst.toFixed(0)} ms; ${one.domain}: scan ${full.ms.toFixed(0)} ms = ` +
    `${(full.ms / (single.ms / 20)).toFixed(1)} handshakes' time (${full.value.handshakes} made, ${HANDSHAKE_CONCURRENCY} at once for versions)`
)
