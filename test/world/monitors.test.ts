/**
 * A monitor alerts when its domain changes for the worse, by webhook and by e-mail, exactly once.
 *
 * The service runs as a child process. A webhook receiver on loopback (inside ALLOW_TARGETS, so
 * plain http is accepted) and a local SMTP relay (`smtp-server`, standing in for the operator's
 * relay) collect what the service sends. The monitor's interval is a week (`P7D`), so its runs are the
 * manual ones the test asks for (`POST /monitors/{id}/run`): a run that fell in the middle of a
 * `mutate` would see the domain half changed (Postfix and nginx reloading, new certificates) and
 * rightly alert about that too. The interval's schedule is proven by test/cluster/monitors.test.ts.
 *
 * A synthetic copy of perfect.com that no other test reads is scanned twice (nothing to alert),
 * mutated into dmarc-none.com's scenario and scanned: one webhook and one e-mail arrive, the
 * webhook's Standard Webhooks signature verifies with the monitor's secret, and both name the DMARC
 * policy. One run more alerts nothing. The domain is reset afterwards.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync } from "node:fs"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { simpleParser } from "mailparser"
import { SMTPServer } from "smtp-server"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { UNLIMITED } from "../http/harness.ts"
import { freePort, sleep } from "../support/processes.ts"
import { worldEnv, worldEnvFile } from "./env.ts"
import { mutateRun } from "./mutateWorld.ts"
import { SERVER } from "../support/bundle.ts"

const root = fileURLToPath(new URL("../../", import.meta.url))
const worldDir = dirname(worldEnvFile() ?? "")

/** The second-last synthetic copy of perfect.com: mutate.test.ts takes the last one. */
const domain = (
  JSON.parse(readFileSync(join(worldDir, "manifest.json"), "utf8")) as {
    scenarios: Array<{ domain: string; synthetic?: boolean; about?: string }>
  }
).scenarios
  .filter((s) => s.synthetic === true && s.about === "synthetic copy of perfect.com")
  .at(-2)?.domain

const mutate = async (...args: Array<string>) => {
  const r = await mutateRun(domain!, ...args, "--ttl", "2")
  if (r.status !== 0) throw new Error(`mutate ${args.join(" ")} failed: ${r.out}`)
}

const hooks: Array<{ headers: IncomingHttpHeaders; body: string }> = []
const mails: Array<{ subject: string; text: string; to: string; messageId: string }> = []
let hookServer: Server
let relay: SMTPServer
let service: ChildProcess | undefined
let base = ""
/** While true, the relay answers 451 to every message (a relay outage). */
let relayDown = false

beforeAll(async () => {
  await mutate("--reset")
  hookServer = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      hooks.push({ headers: req.headers, body })
      res.end("ok")
    })
  })
  relay = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, callback) {
      if (relayDown) {
        stream.resume()
        stream.on("end", () => callback(Object.assign(new Error("try again later"), { responseCode: 451 })))
        return
      }
      simpleParser(stream).then(
        (mail) => {
          mails.push({
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            to: mail.to && !Array.isArray(mail.to) ? mail.to.text : "",
            messageId: mail.messageId ?? ""
          })
          callback()
        },
        (e) => callback(e)
      )
    }
  })
})

afterAll(async () => {
  if (service && service.exitCode === null) service.kill("SIGKILL")
  hookServer?.close()
  relay?.close()
  if (domain) await mutate("--reset")
})

const listen = (server: { listen: (port: number, host: string, cb: () => void) => unknown }, port: number) =>
  new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))

const startService = async (env: Record<string, string>) => {
  const child = spawn(process.execPath, SERVER, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"]
  })
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`)
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false
      )
    )
      return child
    await sleep(250)
  }
  throw new Error("the service did not start")
}

const getJson = async (path: string) => (await fetch(`${base}${path}`)).json() as Promise<any>

/** Ask for a run of monitor `id` (202) and wait until it has finished: its state after the run. */
const runMonitor = async (id: string) => {
  const before = (await getJson(`/api/monitors/${id}`)).runs as number
  const ran = await fetch(`${base}/api/monitors/${id}/run`, { method: "POST" })
  expect(ran.status).toBe(202)
  for (let i = 0; i < 480; i++) {
    const state = await getJson(`/api/monitors/${id}`)
    if (state.runs > before) return state
    await sleep(250)
  }
  throw new Error(`monitor ${id}: the run asked for did not finish within two minutes`)
}

describe("a monitor on a domain that changes", () => {
  it("sends one signed webhook and one e-mail naming the DMARC policy", { timeout: 300_000 }, async () => {
    expect(domain).toBeDefined()
    const [port, hookPort, smtpPort] = [await freePort(), await freePort(), await freePort()]
    await listen(hookServer, hookPort)
    await listen(relay.server, smtpPort)
    base = `http://127.0.0.1:${port}`
    const env = {
      ...worldEnv(),
      ...UNLIMITED,
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: mkdtempSync(join(tmpdir(), "domain-audit-monitors-")),
      LOG_LEVEL: "Error",
      HTTP_ALLOWED_PORTS: `443,${hookPort}`,
      ALERT_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      ALERT_MAIL_FROM: "monitor@domain-audit.test",
      ALERT_RETRY_BASE_MS: "1000",
      ALERT_RETRY_MAX_MS: "2000",
      METRICS_ON_API: "true"
    }
    service = await startService(env)
    const secret = `whsec_${randomBytes(32).toString("base64")}`

    // Refused: an interval under the minimum, a webhook in clear text outside ALLOW_TARGETS, a weak secret.
    const refused = async (body: object) =>
      fetch(`${base}/api/monitors`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body)
      }).then(async (r) => ({ status: r.status, body: await r.json() }))
    expect(await refused({ domain, every: "PT1S", alerts: [] })).toMatchObject({ status: 400 })
    expect(
      await refused({
        domain,
        every: "PT1H",
        alerts: [{ type: "webhook", url: "http://192.0.2.1/x", secret }]
      })
    ).toMatchObject({ status: 400, body: { error: expect.stringContaining("https") } })
    expect(
      await refused({
        domain,
        every: "PT1H",
        alerts: [{ type: "webhook", url: "https://example.com/x", secret: "short" }]
      })
    ).toMatchObject({ status: 400, body: { error: expect.stringContaining("secret") } })
    // An alert language we do not write is refused; Dutch is kept and shown.
    expect(await refused({ domain, every: "PT1H", alerts: [], lang: "de" })).toMatchObject({ status: 400 })
    const dutch = await fetch(`${base}/api/monitors`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ domain, every: "P7D", alerts: [], lang: "nl" })
    }).then((r) => r.json())
    expect(dutch).toMatchObject({ domain, lang: "nl" })
    expect(await getJson(`/api/monitors/${dutch.id}`)).toMatchObject({ lang: "nl" })
    expect((await fetch(`${base}/api/monitors/${dutch.id}`, { method: "DELETE" })).status).toBe(204)

    const created = await fetch(`${base}/api/monitors`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        domain,
        every: "P7D",
        alerts: [
          { type: "webhook", url: `http://127.0.0.1:${hookPort}/hooks/domain-audit`, secret },
          { type: "email", to: "owner@example.test" }
        ]
      })
    })
    expect(created.status).toBe(201)
    const monitor = (await created.json()) as { id: string }
    expect(created.headers.get("location")).toBe(`${base}/api/monitors/${monitor.id}`)
    expect(monitor).toMatchObject({ domain, every: "P7D", runs: 0, lang: "en" })
    expect(JSON.stringify(monitor)).not.toContain(secret)
    expect((await getJson("/api/monitors")).monitors.map((m: { id: string }) => m.id)).toContain(monitor.id)

    // The first run (the baseline) and the next: nothing to alert about.
    await runMonitor(monitor.id)
    const state = await runMonitor(monitor.id)
    expect(state.runs).toBe(2)
    expect(state.lastGrade).toMatch(/^A/)
    expect(hooks).toHaveLength(0)

    await mutate("--as", "dmarc-none.com")
    // The service sees the change once its cached answers' short TTL has passed: mutate can finish
    // within the 2 s the last run's answers may still be kept (RFC 1035 3.2.1), while nginx serves
    // the new scenario at once, so a run started at once would see the web changed and DNS not yet.
    for (let i = 0; i < 120; i++) {
      const dmarc = await getJson(`/api/email/dmarc?domain=${domain}`)
      if (dmarc.policy === "none") break
      await sleep(500)
    }
    await runMonitor(monitor.id)
    for (let i = 0; i < 240 && (hooks.length === 0 || mails.length === 0); i++) await sleep(250)
    expect(hooks.map((h) => JSON.parse(h.body).data.rules)).toEqual([
      expect.arrayContaining(["record-change"])
    ])
    expect(mails).toHaveLength(1)
    // One run more: no alert (it compares with the changed scan), so nothing else arrives.
    await runMonitor(monitor.id)
    expect((await getJson(`/api/monitors/${monitor.id}/alerts`)).alerts).toHaveLength(2)
    await sleep(3_000)
    expect(hooks).toHaveLength(1)
    expect(mails).toHaveLength(1)

    const [hook] = hooks
    const payload = new Webhook(secret).verify(hook!.body, hook!.headers as Record<string, string>) as any
    expect(payload.type).toBe("monitor.alert")
    expect(payload.data).toMatchObject({ domain, monitor: { id: monitor.id } })
    expect(payload.data.rules).toContain("record-change")
    const dmarc = payload.data.changes.find((c: { id: string }) => c.id === "record/dmarc-policy")
    expect(dmarc).toMatchObject({ kind: "record", before: "reject", after: "none" })
    expect(dmarc.summary).toMatch(/DMARC policy/)
    // The grade change is the alert's first line, in the webhook and the e-mail's subject.
    expect(payload.data.summaries[0]).toMatch(/^The grade dropped from A\+? to /)
    expect(payload.data.changes[0]).toMatchObject({ kind: "grade" })
    expect(payload.data.links.history).toBe(`${base}/api/history/${domain}`)
    // A signature made with another secret does not verify.
    expect(() =>
      new Webhook(`whsec_${randomBytes(32).toString("base64")}`).verify(
        hook!.body,
        hook!.headers as Record<string, string>
      )
    ).toThrow()

    const [mail] = mails
    expect(mail!.to).toBe("owner@example.test")
    expect(mail!.subject).toContain(domain)
    expect(mail!.subject).toContain(": The grade dropped from A")
    expect(mail!.text).toMatch(/DMARC policy/)

    const { alerts } = await getJson(`/api/monitors/${monitor.id}/alerts`)
    expect(alerts).toHaveLength(2)
    for (const alert of alerts)
      expect(alert).toMatchObject({ status: "delivered", attempts: 1, monitorId: monitor.id })
    expect(alerts.map((a: { id: string }) => a.id)).toContain(hook!.headers["webhook-id"])
    expect(mail!.messageId).toContain(alerts.find((a: any) => a.channel.type === "email").id)

    // Operators see the deliveries and the runs in the metrics (docs/operations.md).
    const metrics = (await (await fetch(`${base}/metrics`)).text()).split("\n")
    const sample = (name: string, ...labels: Array<string>) =>
      metrics
        .filter((line) => line.startsWith(`${name}{`) && labels.every((l) => line.includes(l)))
        .map((line) => Number(line.split(" ").at(-1)))
    expect(sample("domain_audit_alert_deliveries_total", 'channel="webhook"', 'outcome="delivered"')).toEqual(
      [1]
    )
    expect(sample("domain_audit_alert_deliveries_total", 'channel="email"', 'outcome="delivered"')).toEqual([
      1
    ])
    expect(sample("domain_audit_monitor_runs_total", 'outcome="alerted"')[0]).toBeGreaterThanOrEqual(1)

    // Each run is a fresh full scan: it entered the domain's history, whose chain holds.
    const history = await getJson(`/api/history/${domain}`)
    expect(history.chainValid).toBe(true)
    expect(history.entries.length).toBeGreaterThanOrEqual(2)

    // The way back is a change too. With the relay down, the e-mail is retried; the service is
    // killed while it is pending and started again: the delivery goes on and succeeds once.
    relayDown = true
    await mutate("--reset")
    await runMonitor(monitor.id)
    for (let i = 0; i < 240 && hooks.length < 2; i++) await sleep(250)
    expect(hooks).toHaveLength(2)
    const pending = async () =>
      ((await getJson(`/api/monitors/${monitor.id}/alerts`)).alerts as Array<any>).find(
        (a) => a.channel.type === "email" && a.id !== alerts.find((b: any) => b.channel.type === "email").id
      )
    let retried: any
    for (let i = 0; i < 120; i++) {
      retried = await pending()
      if (retried?.attempts >= 2) break
      await sleep(250)
    }
    expect(retried).toMatchObject({ status: "pending", lastError: expect.stringContaining("451") })
    service.kill("SIGKILL")
    await new Promise((resolve) => service!.once("exit", resolve))
    relayDown = false
    service = await startService(env)
    for (let i = 0; i < 240 && mails.length < 2; i++) await sleep(250)
    expect(mails).toHaveLength(2)
    expect(mails[1]!.text).toMatch(/DMARC policy went from none to reject/)
    const delivered = await pending()
    expect(delivered.status).toBe("delivered")
    expect(delivered.attempts).toBeGreaterThan(retried.attempts)
    await sleep(3_000)
    expect(mails).toHaveLength(2)
    expect(hooks).toHaveLength(2)

    // Delete: 204, and 404 after.
    expect((await fetch(`${base}/api/monitors/${monitor.id}`, { method: "DELETE" })).status).toBe(204)
    expect((await fetch(`${base}/api/monitors/${monitor.id}`)).status).toBe(404)
    expect((await fetch(`${base}/api/monitors/${monitor.id}`, { method: "DELETE" })).status).toBe(404)
  })
})
