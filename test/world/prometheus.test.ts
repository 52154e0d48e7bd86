/**
 * Debian's Prometheus scrapes the service's /metrics (on HEALTH_PORT) while a few scans run; its
 * query API then returns the scan and check series with non-zero values, and no series of ours
 * carries a domain in a label (every label value is bounded: docs/operations.md).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { freePort, sleep } from "../support/processes.ts"
import { type Service, serviceEnv, startService } from "./serviceProcess.ts"

const PROMETHEUS = "/usr/bin/prometheus"
const DOMAINS = ["perfect.com", "dmarc-none.com", "spf-toomany.com", "mx-slow.com"]

let service: Service | undefined
let prometheus: ChildProcess | undefined
afterAll(() => {
  prometheus?.kill("SIGKILL")
  service?.child.kill("SIGKILL")
})

/** Installed as the world installs its servers, when this machine lacks it. */
const ensurePrometheus = () => {
  if (existsSync(PROMETHEUS)) return
  execFileSync("apt-get", ["install", "-y", "-o", "DPkg::Lock::Timeout=300", "prometheus"], {
    stdio: "ignore",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    timeout: 600_000
  })
}

interface Series {
  readonly metric: Record<string, string>
  readonly value: readonly [number, string]
}

const query = async (base: string, promql: string): Promise<ReadonlyArray<Series>> => {
  const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(promql)}`)
  const body = (await res.json()) as { status: string; data: { result: Array<Series> } }
  expect(body.status).toBe("success")
  return body.data.result
}

/** The query's series once `ready` holds of them (Prometheus scrapes every second). */
const eventually = async (base: string, promql: string, ready: (s: ReadonlyArray<Series>) => boolean) => {
  let last: ReadonlyArray<Series> = []
  for (let i = 0; i < 120; i++) {
    last = await query(base, promql).catch(() => [])
    if (ready(last)) return last
    await sleep(500)
  }
  throw new Error(`${promql}: not ready: ${JSON.stringify(last).slice(0, 400)}`)
}

const total = (series: ReadonlyArray<Series>) => series.reduce((sum, s) => sum + Number(s.value[1]), 0)

/** The alerting rules of docs/operations.md, as an operator would copy them. */
const documentedRules = () => {
  const doc = readFileSync(fileURLToPath(new URL("../../docs/operations.md", import.meta.url)), "utf8")
  const block = /```yaml\n(# domain-audit\.rules\.yml[\s\S]*?)```/.exec(doc)?.[1]
  if (block === undefined) throw new Error("docs/operations.md has no rules block")
  return block
}

describe("metrics scraped by Prometheus", () => {
  it("the documented alerting rules pass promtool", () => {
    ensurePrometheus()
    const file = join(mkdtempSync(join(tmpdir(), "domain-audit-rules-")), "rules.yml")
    writeFileSync(file, documentedRules())
    const out = execFileSync("/usr/bin/promtool", ["check", "rules", file], { encoding: "utf8" })
    expect(out).toContain("SUCCESS: 3 rules found")
  })

  it(
    "has the scan and check series, non-zero, and no domain in any label",
    { timeout: 900_000 },
    async () => {
      ensurePrometheus()
      service = await startService(await serviceEnv({ SMTP_BANNER_TIMEOUT_MS: "2000" }))
      const dir = mkdtempSync(join(tmpdir(), "domain-audit-prometheus-"))
      const config = join(dir, "prometheus.yml")
      writeFileSync(
        config,
        [
          "global:",
          "  scrape_interval: 1s",
          "scrape_configs:",
          "  - job_name: domain-audit",
          "    static_configs:",
          `      - targets: ["127.0.0.1:${service.env.HEALTH_PORT}"]`,
          ""
        ].join("\n")
      )
      const webPort = await freePort()
      prometheus = spawn(
        PROMETHEUS,
        [
          `--config.file=${config}`,
          `--storage.tsdb.path=${join(dir, "data")}`,
          `--web.listen-address=127.0.0.1:${webPort}`
        ],
        { stdio: "ignore" }
      )
      const promBase = `http://127.0.0.1:${webPort}`

      for (const domain of DOMAINS) {
        const res = await fetch(`${service.base}/api/scan/quick?domain=${domain}`)
        expect(res.status).toBe(200)
      }

      const finished = await eventually(
        promBase,
        "domain_audit_scans_finished_total",
        (s) => total(s) >= DOMAINS.length
      )
      expect(finished.every((s) => ["complete", "partial"].includes(s.metric.outcome!))).toBe(true)
      expect(total(await query(promBase, "domain_audit_scans_started_total"))).toBeGreaterThanOrEqual(
        DOMAINS.length
      )
      const checks = await query(promBase, "domain_audit_checks_total")
      expect(checks.map((s) => s.metric.check)).toEqual(expect.arrayContaining(["spf", "dmarc", "dnssec"]))
      expect(total(checks)).toBeGreaterThanOrEqual(DOMAINS.length * 10)
      const durations = await query(promBase, "domain_audit_check_duration_seconds_count")
      expect(durations.length).toBeGreaterThan(0)
      expect(durations.every((s) => Number(s.value[1]) > 0)).toBe(true)
      expect(total(await query(promBase, 'domain_audit_http_requests_total{route="/api/scan/quick"}'))).toBe(
        DOMAINS.length
      )
      expect(total(await query(promBase, "domain_audit_dns_questions_total"))).toBeGreaterThan(0)
      expect(total(await query(promBase, "domain_audit_smtp_probes_total"))).toBeGreaterThan(0)
      expect(total(await query(promBase, "domain_audit_event_loop_utilization_ratio"))).toBeGreaterThan(0)

      const ours = await query(promBase, '{__name__=~"domain_audit_.+"}')
      expect(ours.length).toBeGreaterThan(20)
      for (const series of ours) {
        expect(Object.keys(series.metric)).not.toContain("domain")
        for (const value of Object.values(series.metric))
          for (const domain of DOMAINS) expect(value).not.toContain(domain)
      }
    }
  )
})
