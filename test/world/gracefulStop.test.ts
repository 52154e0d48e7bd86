/**
 * A graceful stop: SIGTERM while 20 scan requests are in flight (two scanning, the rest queued at the
 * admission gate) and a deep scan runs. Every scan request is answered (200, the scan itself), new
 * connections are refused meanwhile, the process exits 0; the
 * deep scan, still waiting on mx-slow.com's silent MX when the cluster closed, is handed back (its
 * workflow stays a message in the cluster's database) and completes after the restart, begun twice
 * and recorded once.
 */
import { afterAll, describe, expect, it } from "vitest"
import { deepScanRow, sleep } from "../support/processes.ts"
import { type Service, serviceEnv, startService } from "./serviceProcess.ts"

// web-slow.com's server sends its headers after 60 s: its scan holds the one admission permit for
// HTTP_TIMEOUT_MS while the other 19 wait in the queue.
const DOMAINS = [
  "web-slow.com",
  "unsigned.net",
  "bogus-ds.org",
  "expired-sig.com",
  "rsasha1.net",
  "nsec3-legacy.org",
  "spf-toomany.com",
  "spf-void.com",
  "spf-loop.net",
  "spf-multiple.org",
  "spf-softfail.com",
  "spf-passall.com",
  "dmarc-none.com",
  "perfect.com",
  "dmarc-invalid.net",
  "dkim-weak.com",
  "mtasts-testing.com",
  "mx-expired.com",
  "mx-selfsigned.com",
  "web-noheaders.com"
]

const services: Array<Service> = []
afterAll(() => {
  for (const s of services) s.child.kill("SIGKILL")
})

describe("SIGTERM", () => {
  it(
    "answers every request in flight, exits 0, and the deep scan completes after the restart",
    {
      timeout: 300_000
    },
    async () => {
      // The silent MX holds the deep scan's mail checks for 20 s: longer than the drain.
      const env = await serviceEnv({
        // the deep scan waits on the silent MX longer than the drain lasts
        SMTP_BANNER_TIMEOUT_MS: "40000",
        HTTP_TIMEOUT_MS: "5000",
        SHUTDOWN_GRACE_MS: "60000",
        // One scan at a time, the rest queued (not refused): the 20 stay in flight for seconds
        // however fast the world answers, and the drain must answer the queued ones too.
        ADMISSION_CONCURRENCY: "1",
        ADMISSION_QUEUE_MS: "120000"
      })
      const first = await startService(env)
      services.push(first)
      const submitted = await fetch(`${first.base}/api/scan/deep`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ domain: "mx-slow.com", type: "mail" })
      })
      expect(submitted.status).toBe(202)
      const { scan_id: scanId } = (await submitted.json()) as { scan_id: string }
      for (let i = 0; i < 80 && !(await deepScanRow(env.DATA_DIR, scanId))?.started_at; i++) await sleep(100)

      const scanOf = (domain: string) =>
        fetch(`${first.base}/api/scan`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ domain })
        }).then(async (res) => ({
          domain,
          status: res.status,
          body: (await res.json()) as { domain?: string }
        }))
      const inFlightNow = async () => {
        const metrics = await (await fetch(`${first.healthBase}/metrics`)).text()
        return Number(/^domain_audit_http_requests_in_flight (\d+)/m.exec(metrics)?.[1])
      }
      /** Polls until `n` requests are in flight (the gauge counts them as they arrive). */
      const untilInFlight = async (n: number) => {
        let now = 0
        for (let i = 0; i < 200 && now < n; i++) {
          await sleep(25)
          now = await inFlightNow()
        }
        return now
      }
      const answers = [scanOf(DOMAINS[0]!)]
      expect(await untilInFlight(1)).toBe(1)
      answers.push(...DOMAINS.slice(1).map(scanOf))
      expect(await untilInFlight(DOMAINS.length)).toBe(DOMAINS.length)
      first.child.kill("SIGTERM")
      await sleep(200)
      const refused = await fetch(`${first.base}/api/health`).then(
        () => "answered",
        () => "refused"
      )
      const results = await Promise.all(answers)
      expect(await first.exited).toBe(0)
      expect(refused).toBe("refused")
      for (const r of results) expect(r, r.domain).toMatchObject({ status: 200, body: { domain: r.domain } })
      expect(first.stdout()).toContain("every request answered")
      expect(await deepScanRow(env.DATA_DIR, scanId)).toMatchObject({
        status: "running",
        runs: 1,
        recorded: 0
      })

      // After the restart the deep scan only has to complete: the silent MX need not hold it for long.
      const second = await startService({ ...env, SMTP_BANNER_TIMEOUT_MS: "5000" })
      services.push(second)
      let state: { status?: string; error?: unknown } = {}
      for (let i = 0; i < 400; i++) {
        state = (await (await fetch(`${second.base}/api/scan/deep/${scanId}`)).json()) as typeof state
        if (state.status !== "running") break
        await sleep(250)
      }
      expect(state).toMatchObject({ status: "completed", error: null })
      expect(await deepScanRow(env.DATA_DIR, scanId)).toMatchObject({
        status: "completed",
        runs: 2,
        recorded: 1
      })
      second.child.kill("SIGTERM")
      expect(await second.exited).toBe(0)
    }
  )
})
