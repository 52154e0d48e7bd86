/**
 * Reports in, measured: N DMARC aggregate reports of 50 records each posted over HTTP (gzip, as
 * receivers send them) with `concurrency` requests in flight: reports per second, the server's CPU
 * per report (all its threads, and its main thread alone: the parse workers read beside it) and its
 * peak RSS; then one summary (GET /api/reports/dmarc/{domain}) over everything stored, by default
 * 20,000 reports = 1,000,000 records: its time.
 *
 * The service runs as `npm start` does (dist/main.mjs, its default heap cap), on a free loopback port
 * with a fresh data directory and DNS pointed at a closed port (the summary's PTR and SPF look-ups
 * fail at once: the time measured is the store's and the summary's, not a resolver's).
 *
 *   npx tsx scripts/bench/reports.ts [reports=20000] [concurrency=8] [timed=10000]
 *
 * With `summary`, the store is filled directly instead (the same reports, as ingest would store them,
 * written in-process before the service starts: no HTTP, so a million records take a minute, not
 * ten), and the summary is asked three times: each time and the best.
 *
 *   npx tsx scripts/bench/reports.ts summary [reports=20000] [data-dir]
 *
 * A data directory given is filled once and reused: fill it, then time the summary when the machine
 * is calm.
 *
 * With `largest`, it measures instead the largest report the limits allow: REPORTS_MAX_RECORDS
 * (100,000) records from as many sources, gzipped, posted once while /api/health is asked every
 * 100 ms, and for LARGEST_AFTER_MS (8,000) after the 202, while the report is folded into the
 * rollup: the server's peak RSS, the time to 202, the health answers and the largest and 99th
 * percentile gap between two of them while posting and after (the event loop held), and the
 * summary's messages once folded.
 *
 *   npx tsx scripts/bench/reports.ts largest
 *
 * SERVER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" gives the service node flags (a profile).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as dgram from "node:dgram"
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as net from "node:net"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import * as DnsPacket from "dns-packet"
import { Effect } from "effect"
import type { DmarcRecord } from "../../src/inbound/DmarcReport.ts"
import { parsedDmarc, storable } from "../../src/inbound/Storable.ts"
import { rollUpAll } from "../../src/store/DmarcRollup.ts"
import { storeReport } from "../../src/store/InboundReports.ts"
import { databaseFile, sqliteAt } from "../../src/store/Sql.ts"
import { dmarcXml, gzipText, largeDmarcXml, type RowSpec } from "../../test/inbound/reports.ts"

const mode = process.argv[2] === "largest" || process.argv[2] === "summary" ? process.argv[2] : "ingest"
const largest = mode === "largest"
const total = largest ? 0 : Number(process.argv[mode === "summary" ? 3 : 2] ?? 20_000)
const concurrency = Number(process.argv[3] ?? 8)
const timed = Math.min(total, Number(process.argv[4] ?? 10_000))
const RECORDS = 50
const DOMAIN = "bench-reports.com"
const here = new URL(".", import.meta.url).pathname

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port
      s.close(() => resolve(port))
    })
  })

/**
 * The CPU time (user and system) a process has used, in ms (proc(5): utime and stime, in clock
 * ticks of 10 ms); with `thread`, that thread's alone (`/proc/<pid>/task/<tid>/stat`: the main
 * thread's id is the process's).
 */
const cpuMs = (pid: number, thread?: number) => {
  const path = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`
  const fields = readFileSync(path, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) * 10
}

const peakRssMb = (pid: number) => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return m ? Math.round(Number(m[1]) / 1024) : NaN
}

/** The last whole UTC day: reports cover the 30 days before it (inside REPORTS_RETENTION whenever run). */
const LAST_DAY = Math.floor(Date.now() / 86_400_000) * 86_400 - 86_400
const dayOf = (i: number) => LAST_DAY - (i % 30) * 86_400
/** The summary's period: every report the bench stores. */
const PERIOD = `from=${new Date((LAST_DAY - 40 * 86_400) * 1000).toISOString().slice(0, 10)}&to=${new Date((LAST_DAY + 2 * 86_400) * 1000).toISOString().slice(0, 10)}`

/** A report like a big receiver's: 50 sources out of 2,000, a few selectors, some failing. */
const rowsOf = (i: number): Array<RowSpec> =>
  Array.from({ length: RECORDS }, (_, j) => {
    const n = (i * 31 + j * 7) % 2000
    const failing = n % 10 === 0
    return {
      ip: `10.${(n >> 8) & 255}.${n & 255}.${(j % 8) + 1}`,
      count: 1 + ((i + j) % 20),
      dkim: failing ? "fail" : "pass",
      spf: failing ? "fail" : "pass",
      dkimAuth: [{ domain: failing ? "esp.example" : DOMAIN, selector: `s${n % 5}`, result: "pass" }]
    }
  })

const report = (i: number) => {
  const rows = rowsOf(i)
  const day = dayOf(i)
  return gzipText(
    dmarcXml({
      domain: DOMAIN,
      org: `Receiver ${i % 50}`,
      reportId: `bench-${i}`,
      begin: day,
      end: day + 86_399,
      rows
    })
  )
}

/**
 * A name server that answers every question at once with NXDOMAIN (RFC 1035 4.1.1 RCODE 3): the
 * summary's SPF and PTR look-ups then end as fast as a resolver can answer, so the time measured is
 * the store's and the summary's (a closed port would make each look-up wait DNS_TIMEOUT_MS).
 */
const nxdomainServer = () =>
  new Promise<number>((resolve) => {
    const socket = dgram.createSocket("udp4")
    socket.on("message", (msg, from) => {
      try {
        const q = DnsPacket.decode(msg)
        const answer = DnsPacket.encode({
          id: q.id,
          type: "response",
          flags: DnsPacket.RECURSION_DESIRED | DnsPacket.RECURSION_AVAILABLE | 3,
          questions: q.questions
        })
        socket.send(answer, from.port, from.address)
      } catch {
        // not a DNS message: no answer
      }
    })
    socket.bind(0, "127.0.0.1", () => {
      // it lives as long as the bench: it does not keep the process alive at the end
      socket.unref()
      resolve((socket.address() as AddressInfo).port)
    })
  })

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })

const request = (port: number, method: string, path: string, body?: Uint8Array, type?: string) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent,
        headers: body ? { "content-type": type!, "content-length": body.length } : {}
      },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") })
        )
      }
    )
    req.on("error", reject)
    req.end(body)
  })

const start = async (
  dataDir = mkdtempSync(join(tmpdir(), "domain-audit-reports-bench-"))
): Promise<{ child: ChildProcess; port: number }> => {
  execFileSync("npm", ["run", "-s", "build"], { stdio: "inherit", cwd: join(here, "../..") })
  const port = await freePort()
  const dnsPort = await nxdomainServer()
  const child = spawn(
    process.execPath,
    [
      // e.g. SERVER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" (not allowed in NODE_OPTIONS)
      ...(process.env.SERVER_NODE_FLAGS ?? "").split(" ").filter(Boolean),
      `--max-old-space-size=${process.env.MAX_HEAP_MB ?? 384}`,
      "dist/main.mjs"
    ],
    {
      cwd: join(here, "../.."),
      env: {
        ...process.env,
        HOST: "127.0.0.1",
        PORT: String(port),
        DATA_DIR: dataDir,
        DNS_RESOLVERS: `127.0.0.1:${dnsPort}`,
        RATE_CHEAP_BURST: "100000000",
        RATE_COSTLY_BURST: "100000000",
        LOG_LEVEL: "Error"
      },
      stdio: ["ignore", "inherit", "inherit"]
    }
  )
  for (let i = 0; i < 300; i++) {
    try {
      if ((await request(port, "GET", "/api/health")).status === 200) return { child, port }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  child.kill()
  throw new Error("the service did not start")
}

const main = async () => {
  const { child, port } = await start()
  try {
    // every report its own id (the same bytes would be duplicates), made before the clock starts
    const bodies = Array.from({ length: total }, (_, i) => report(i))
    let next = 0
    let failed = 0
    let timedMs = 0
    const cpu0 = cpuMs(child.pid!)
    const main0 = cpuMs(child.pid!, child.pid!)
    const t0 = performance.now()
    const worker = async () => {
      while (next < total) {
        const i = next++
        const r = await request(port, "POST", "/api/reports/dmarc", bodies[i]!, "application/gzip")
        if (r.status !== 202) failed++
        if (i === timed - 1) timedMs = performance.now() - t0
      }
    }
    await Promise.all(Array.from({ length: concurrency }, worker))
    const allMs = performance.now() - t0
    const serverCpuMs = cpuMs(child.pid!) - cpu0
    const mainThreadCpuMs = cpuMs(child.pid!, child.pid!) - main0
    const rss = peakRssMb(child.pid!)
    const s0 = performance.now()
    const summary = await request(port, "GET", `/api/reports/dmarc/${DOMAIN}?${PERIOD}`)
    const summaryMs = performance.now() - s0
    const parsed = JSON.parse(summary.text) as { messages: number; sourcesTotal: number; reports: number }
    console.log(
      JSON.stringify(
        {
          reports: total,
          recordsPerReport: RECORDS,
          concurrency,
          refused: failed,
          [`first ${timed}: reports/s`]: Math.round((timed / (timedMs || allMs)) * 1000),
          [`all ${total}: reports/s`]: Math.round((total / allMs) * 1000),
          serverCpuMsPerReport: Math.round((serverCpuMs / total) * 100) / 100,
          serverMainThreadCpuMsPerReport: Math.round((mainThreadCpuMs / total) * 100) / 100,
          loadAverage: loadavg().map((l) => Math.round(l * 10) / 10),
          serverPeakRssMb: rss,
          summary: {
            status: summary.status,
            ms: Math.round(summaryMs),
            records: total * RECORDS,
            reports: parsed.reports,
            messages: parsed.messages,
            sourcesTotal: parsed.sourcesTotal
          }
        },
        null,
        2
      )
    )
  } finally {
    child.kill()
    agent.destroy()
  }
}

/** Answers at `times` between `from` and `to`: how many, and the largest and 99th percentile gap in ms. */
const gaps = (from: number, times: ReadonlyArray<number>, to: number) => {
  const all = [from, ...times, to]
  const g = all
    .slice(1)
    .map((t, i) => t - all[i]!)
    .sort((a, b) => a - b)
  return {
    answers: times.length,
    maxGapMs: Math.round(g.at(-1) ?? NaN),
    p99GapMs: Math.round(g[Math.min(g.length - 1, Math.floor(g.length * 0.99))] ?? NaN)
  }
}

/** How long /api/health is asked after the 202: the fold starts a second later and must be seen whole. */
const AFTER_MS = Number(process.env.LARGEST_AFTER_MS ?? 8_000)

const measureLargest = async () => {
  const { child, port } = await start()
  try {
    const records = 100_000
    const body = gzipText(largeDmarcXml(DOMAIN, records, "largest"))
    // when each health answer came: asked every 100 ms, so a gap well above 100 ms is the event loop held
    const answers: Array<number> = []
    let done = false
    const health = (async () => {
      while (!done) {
        if ((await request(port, "GET", "/api/health")).status === 200 && !done)
          answers.push(performance.now())
        await new Promise((r) => setTimeout(r, 100))
      }
    })()
    const t0 = performance.now()
    const r = await request(port, "POST", "/api/reports/dmarc", body, "application/gzip")
    const t202 = performance.now()
    await new Promise((resolve) => setTimeout(resolve, AFTER_MS))
    done = true
    await health
    const tEnd = performance.now()
    // the summary over the report, once folded: its messages are all there
    const summary = await request(port, "GET", `/api/reports/dmarc/${DOMAIN}?from=2025-11-20&to=2025-11-30`)
    const parsed = JSON.parse(summary.text) as { messages: number }
    console.log(
      JSON.stringify(
        {
          records,
          gzipBytes: body.length,
          status: r.status,
          ms: Math.round(t202 - t0),
          healthAnswersMeanwhile: answers.filter((t) => t <= t202).length,
          healthWhilePosted: gaps(
            t0,
            answers.filter((t) => t <= t202),
            t202
          ),
          [`healthFor${AFTER_MS}msAfter202`]: gaps(
            t202,
            answers.filter((t) => t > t202),
            tEnd
          ),
          summaryMessages: parsed.messages,
          heapCapMb: Number(process.env.MAX_HEAP_MB ?? 384),
          serverPeakRssMb: peakRssMb(child.pid!)
        },
        null,
        2
      )
    )
  } finally {
    child.kill()
    agent.destroy()
  }
}

/** The bench's reports as ingest stores them, written straight into a fresh data directory. */
const fillStore = (dataDir: string) => {
  const records = (i: number): Array<DmarcRecord> =>
    rowsOf(i).map((r) => ({
      sourceIp: r.ip,
      count: r.count,
      disposition: "none",
      dkim: r.dkim ?? "pass",
      spf: r.spf ?? "pass",
      reasons: [],
      headerFrom: DOMAIN,
      envelopeFrom: DOMAIN,
      envelopeTo: null,
      authDkim: (r.dkimAuth ?? []).map((d) => ({ ...d, selector: d.selector ?? null, humanResult: null })),
      authSpf: [{ domain: DOMAIN, scope: "mfrom", result: r.spf ?? "pass", humanResult: null }]
    }))
  return Effect.runPromise(
    Effect.forEach(
      Array.from({ length: total }, (_, i) => i),
      (i) => {
        const parsed = parsedDmarc(
          {
            version: null,
            orgName: `Receiver ${i % 50}`,
            email: null,
            extraContactInfo: null,
            reportId: `bench-${i}`,
            begin: dayOf(i),
            end: dayOf(i) + 86_399,
            errors: [],
            generator: null,
            policy: {
              domain: DOMAIN,
              adkim: "r",
              aspf: "r",
              p: "none",
              sp: "none",
              np: null,
              pct: 100,
              fo: null,
              testing: null,
              discoveryMethod: null
            },
            records: records(i)
          },
          `sha256:bench-${i}`
        )
        const { head, rows } = storable(parsed)
        return storeReport(head, dayOf(i) + 86_400, rows)
      },
      { discard: true }
    ).pipe(
      // folded into the summary's rollup, as the service does within a second of storing
      Effect.zipRight(rollUpAll()),
      Effect.provide(sqliteAt(databaseFile(dataDir)))
    )
  )
}

const measureSummary = async () => {
  const given = process.argv[4]
  const dataDir = given ?? mkdtempSync(join(tmpdir(), "domain-audit-reports-bench-"))
  const f0 = performance.now()
  if (given === undefined || !existsSync(databaseFile(given))) {
    mkdirSync(dataDir, { recursive: true })
    await fillStore(dataDir)
  }
  const fillMs = performance.now() - f0
  const { child, port } = await start(dataDir)
  try {
    const times: Array<number> = []
    let last = { status: 0, text: "{}" }
    for (let k = 0; k < 3; k++) {
      const s0 = performance.now()
      last = await request(port, "GET", `/api/reports/dmarc/${DOMAIN}?${PERIOD}`)
      times.push(Math.round(performance.now() - s0))
    }
    const parsed = JSON.parse(last.text) as {
      messages: number
      sourcesTotal: number
      reports: number
      daily: []
    }
    console.log(
      JSON.stringify(
        {
          records: total * RECORDS,
          storeFilledInS: Math.round(fillMs / 1000),
          status: last.status,
          summaryMs: times,
          bestMs: Math.min(...times),
          reports: parsed.reports,
          messages: parsed.messages,
          sourcesTotal: parsed.sourcesTotal,
          days: parsed.daily?.length
        },
        null,
        2
      )
    )
  } finally {
    child.kill()
    agent.destroy()
  }
}

await (largest ? measureLargest() : mode === "summary" ? measureSummary() : main())
