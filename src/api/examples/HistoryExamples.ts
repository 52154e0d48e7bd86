/**
 * Examples of the history and monitors groups: example.com's two scans (ExampleScan.ts) entered
 * into a hash chain, their diff, the evidence over the day, and the monitor whose run saw the change
 * with the alert it raised, each by the monitor code's own functions.
 */
import { Schema } from "effect"
import { ScanResult } from "../../checks/ScanResult.ts"
import { summaries } from "../../monitor/AlertMessage.ts"
import { evaluate } from "../../monitor/AlertRules.ts"
import { diffScans } from "../../monitor/Diff.ts"
import { evidenceOf } from "../../monitor/Evidence.ts"
import { evidenceMarkdown } from "../../monitor/EvidenceMarkdown.ts"
import { type HistoryEntry, nextEntry, verifyChain } from "../../monitor/HistoryChain.ts"
import type { Alert, Monitor } from "../../monitor/MonitorModel.ts"
import { alertId } from "../../monitor/MonitorRun.ts"
import { canonicalJson } from "../../report/Canonical.ts"
import { score } from "../../score/Score.ts"
import { type Example, once } from "./Example.ts"
import { exampleScans } from "./ExampleScan.ts"
import { DOMAIN, NOW, NOW_ISO } from "./ExampleZone.ts"

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
const WEBHOOK = { type: "webhook" as const, url: "https://hooks.example.com/domain-audit" }

const monitor = (): Monitor => ({
  id: MONITOR_ID,
  domain: DOMAIN,
  every: "PT1H",
  alerts: [WEBHOOK],
  createdAt: new Date(NOW.getTime() - 26 * HOUR).toISOString(),
  nextRunAt: new Date(NOW.getTime() + HOUR).toISOString(),
  lastRunAt: NOW_ISO,
  lastGrade: score(exampleScans().scan).grade,
  runs: 26
})

/** The alert the run at NOW raised, comparing the scan with the one before it. */
const alert = (): Alert => {
  const { earlier, scan } = exampleScans()
  const run = evaluate(earlier, scan, [], NOW.getTime())
  return {
    id: alertId(MONITOR_ID, NOW.getTime(), 0),
    monitorId: MONITOR_ID,
    domain: DOMAIN,
    createdAt: NOW_ISO,
    channel: WEBHOOK,
    rules: run.rules,
    summaries: summaries({ changes: run.changes, warnings: run.warnings }),
    status: "delivered",
    attempts: 1,
    lastAttemptAt: NOW_ISO,
    nextAttemptAt: null,
    deliveredAt: NOW_ISO,
    lastError: null
  }
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
    answer: evidence,
    text: { mediaType: "text/markdown", answer: () => evidenceMarkdown(evidence()) }
  },
  "monitors.create": {
    request: "example.com every hour, alerting a webhook",
    answer: () => ({ ...monitor(), lastRunAt: null, lastGrade: null, runs: 0, createdAt: NOW_ISO })
  },
  "monitors.list": { request: "one monitor", answer: () => ({ monitors: [monitor()] }) },
  "monitors.get": { request: "the monitor of example.com", answer: monitor },
  "monitors.run": {
    request: "run the monitor of example.com now",
    answer: () => ({ success: true, id: MONITOR_ID, status: "queued", dueAt: NOW_ISO })
  },
  "monitors.alerts": {
    request: "the alert of the run that saw DMARC change",
    answer: () => ({ alerts: [alert()] })
  }
}
