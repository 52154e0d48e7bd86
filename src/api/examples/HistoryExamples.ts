/**
 * Examples of the history and monitors groups: example.com's two scans (ExampleScan.ts) entered
 * into a hash chain, their diff, the evidence over the day, and the monitor whose run saw the change
 * with the alert it raised, each by the monitor code's own functions (the views the API answers
 * with, the alert rules, the alert message).
 */
import { Schema } from "effect"
import { ScanResult } from "../../scan/ScanResult.ts"
import { summaries, webhookBody } from "../../monitor/AlertMessage.ts"
import { evaluate } from "../../monitor/AlertRules.ts"
import { diffScans } from "../../monitor/Diff.ts"
import { evidenceOf } from "../../monitor/Evidence.ts"
import { evidenceMarkdown } from "../../monitor/EvidenceMarkdown.ts"
import { type HistoryEntry, nextEntry, verifyChain } from "../../monitor/HistoryChain.ts"
import type { Alert } from "../../monitor/MonitorModel.ts"
import { alertView, monitorView } from "../../monitor/Monitors.ts"
import type { MonitorRow } from "../../monitor/MonitorStore.ts"
import { alertId } from "../../monitor/MonitorRun.ts"
import { signEvidence } from "../../monitor/SignedEvidence.ts"
import { canonicalJson } from "../../report/Canonical.ts"
import { score } from "../../score/Score.ts"
import { BASE, type Example } from "./Example.ts"
import { once } from "../../kernel/examples/Once.ts"
import { exampleScans } from "./ExampleScan.ts"
import { exampleSign } from "./ExampleSigningKey.ts"
import { DOMAIN, NOW, NOW_ISO } from "../../kernel/examples/ExampleZone.ts"

const encodeScan = Schema.encodeSync(ScanResult)

/** The history as the store keeps it: each scan's canonical JSON and the chained entry over it. */
const history = once(() => {
  const { earlier, scan } = exampleScans()
  const stored: Array<{ entry: HistoryEntry; scanJson: string; scan: ScanResult }> = []
  for (const s of [earlier, scan]) {
    const scored = score(s)
    const scanJson = canonicalJson(encodeScan(s))
    const entry = nextEntry(DOMAIN, stored.at(-1)?.entry ?? null, {
      scannedAt: s.computedAt,
      grade: scored.grade,
      percentage: scored.percentage,
      scanJson
    })
    stored.push({ entry, scanJson, scan: s })
  }
  return stored
})

const MONITOR_ID = "mon_5f0c7d2e9a4b4e1f8c3a6b2d1e0f9a87"
const HOUR = 3_600_000
const HOOK_URL = "https://hooks.example.com/domain-audit"

/** The monitor as the store keeps it after 26 hourly runs (its webhook secret stays inside). */
const monitorRow = (): MonitorRow => ({
  id: MONITOR_ID,
  domain: DOMAIN,
  everyMs: HOUR,
  channels: [{ type: "webhook", url: HOOK_URL, secret: "whsec_MfKQ9r8GKYqXK9e7kBJW1c0n2Vx4t6iA" }],
  createdAt: NOW.getTime() - 26 * HOUR,
  deletedAt: null,
  nextDue: NOW.getTime() + HOUR,
  lastRunAt: NOW.getTime(),
  lastGrade: score(exampleScans().scan).grade,
  runs: 26,
  baseUrl: BASE,
  tenant: null,
  lang: "en"
})

/** The alert the run at NOW raised to the webhook, comparing the scan with the one before it. */
const alert = (): Alert => {
  const { earlier, scan } = exampleScans()
  const dueAt = NOW.getTime()
  const run = evaluate(earlier, scan, [], dueAt)
  const id = alertId(MONITOR_ID, dueAt, 0)
  const content = {
    alertId: id,
    monitorId: MONITOR_ID,
    domain: DOMAIN,
    every: "PT1H",
    baseUrl: BASE,
    scannedAt: scan.computedAt,
    createdAt: NOW_ISO,
    grade: { before: score(earlier).grade, after: score(scan).grade },
    rules: run.rules,
    changes: run.changes,
    warnings: run.warnings,
    fixes: score(scan).recommendations,
    lang: "en" as const
  }
  return alertView({
    id,
    monitorId: MONITOR_ID,
    domain: DOMAIN,
    dueAt,
    createdAt: dueAt,
    channel: 0,
    channelType: "webhook",
    target: HOOK_URL,
    rules: run.rules,
    summaries: summaries(content),
    body: webhookBody(content),
    status: "delivered",
    attempts: 1,
    lastAttemptAt: dueAt + 2_000,
    nextAttemptAt: null,
    deliveredAt: dueAt + 2_000,
    lastError: null
  })
}

const evidence = () => {
  const stored = history()
  return evidenceOf(
    DOMAIN,
    { from: stored[0]!.entry.scannedAt, to: NOW_ISO },
    verifyChain(DOMAIN, stored),
    stored
  )
}

export const historyExamples: Readonly<Record<string, Example>> = {
  "history.historyList": {
    request: "example.com, scanned twice a day apart",
    answer: () => {
      const stored = history()
      return { domain: DOMAIN, entries: stored.map((s) => s.entry), ...verifyChain(DOMAIN, stored) }
    }
  },
  "history.historyEntry": {
    request: "entry 2 of example.com",
    answer: () => ({ domain: DOMAIN, entry: history()[1]!.entry, scan: history()[1]!.scan })
  },
  "history.historyDiff": {
    request: "entries 1 and 2: DMARC moved to p=reject, MTA-STS published",
    answer: () => {
      const [from, to] = history()
      return { domain: DOMAIN, from: from!.entry, to: to!.entry, changes: diffScans(from!.scan, to!.scan) }
    }
  },
  "history.historyEvidence": {
    request: "example.com from its first entry until now",
    answer: () => signEvidence(evidence(), exampleSign),
    text: { mediaType: "text/markdown", answer: () => evidenceMarkdown(evidence()) }
  },
  "monitors.create": {
    request: "example.com every hour, alerting a webhook",
    answer: () =>
      monitorView({
        ...monitorRow(),
        createdAt: NOW.getTime(),
        nextDue: NOW.getTime() + 37 * 60_000,
        lastRunAt: null,
        lastGrade: null,
        runs: 0
      })
  },
  "monitors.list": {
    request: "one monitor",
    answer: () => ({ monitors: [monitorView(monitorRow())], nextCursor: null })
  },
  "monitors.get": { request: "the monitor of example.com", answer: () => monitorView(monitorRow()) },
  "monitors.run": {
    request: "run the monitor of example.com now",
    answer: () => ({ success: true, id: MONITOR_ID, status: "queued", dueAt: NOW_ISO })
  },
  "monitors.alerts": {
    request: "the alert of the run that saw DMARC change",
    answer: () => ({ alerts: [alert()] })
  }
}
