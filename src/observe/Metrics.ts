/**
 * Every metric the service keeps, as Effect `Metric`s in the process's one registry. They are
 * served in the Prometheus text format by `Prometheus.ts` (docs/operations.md lists them with what
 * each tells).
 *
 * Names follow the Prometheus conventions: `domain_audit_` prefix, `_total` on counters, base units
 * (`_seconds`, `_bytes`). Every label has a bounded set of values, fixed in code: a route template,
 * a status code, a check id, a reason from a closed list. Never a domain, a URL, an address or any
 * text a client sent: each distinct label value is a series kept for the life of the process.
 *
 * This module is a leaf (it imports nothing of ours), so net/, scan/ and http/ may all record here.
 * Recording is a map look-up and an add: the same in the batch, where nothing scrapes it.
 */
import { Metric, MetricBoundaries, MetricLabel } from "effect"

const counter = (name: string, description: string) =>
  Metric.counter(name, { description, incremental: true })

/** Seconds, 5 ms to 2 min: covers a cached answer and a deep scan's deadline alike. */
const SECONDS = MetricBoundaries.fromIterable([
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120
])

const histogram = (name: string, description: string) => Metric.histogram(name, SECONDS, description)

const gauge = (name: string, description: string) => Metric.gauge(name, { description })

/** A pre-built label list, so that recording allocates nothing. */
export const labels = (pairs: Record<string, string>): ReadonlyArray<MetricLabel.MetricLabel> =>
  Object.entries(pairs).map(([key, value]) => MetricLabel.make(key, value))

const labelMemo = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()

/**
 * The label list of `pairs`, made once per `key` (a string naming the values): a metric finds its
 * series by the list's identity, and a new list per update hashed the labels and looked the series
 * up every time (as `Metric.tagged` does, joining its labels into a new list at every update). The
 * values are bounded (route templates, methods, statuses, check ids, a closed list of reasons), and
 * so is this table.
 */
export const labelsOf = (
  key: string,
  pairs: Record<string, string>
): ReadonlyArray<MetricLabel.MetricLabel> => {
  let made = labelMemo.get(key)
  if (made === undefined) labelMemo.set(key, (made = labels(pairs)))
  return made
}

// HTTP

export const httpRequests = counter(
  "domain_audit_http_requests_total",
  "HTTP requests answered, by route template, method and status code"
)
export const httpRequestDuration = histogram(
  "domain_audit_http_request_duration_seconds",
  "Time from a request's arrival to its answer's last byte, by route template"
)
export const httpInFlight = gauge(
  "domain_audit_http_requests_in_flight",
  "Requests received and not yet answered"
)
export const admissionRefusals = counter(
  "domain_audit_admission_refusals_total",
  "Requests refused before any work: 429 (a client's rate limit) or 503 (shed), by reason"
)

// Scans

export const scansStarted = counter("domain_audit_scans_started_total", "Full or partial scans begun")
export const scansFinished = counter(
  "domain_audit_scans_finished_total",
  "Scans finished, by outcome: complete (every check done) or partial (some check unknown)"
)
export const scanDuration = histogram("domain_audit_scan_duration_seconds", "Wall time of a scan")
export const scanCriticalPath = histogram(
  "domain_audit_scan_critical_path_seconds",
  "The longest chain of checks waiting on each other in a scan; compare with the wall time"
)
export const checks = counter(
  "domain_audit_checks_total",
  "Check runs, by check id and status (done, or unknown: timed out or failed)"
)
export const checkDuration = histogram(
  "domain_audit_check_duration_seconds",
  "A check's run time, by check id"
)

// Network

export const dnsQuestions = counter(
  "domain_audit_dns_questions_total",
  "DNS questions the resolver was asked, by source: cache, shared (joined a query in flight) or upstream"
)
export const dnsUpstreamAnswers = counter(
  "domain_audit_dns_upstream_answers_total",
  "Questions sent upstream, by result: answer, nodata, nxdomain, or the failure's reason"
)
export const smtpProbes = counter(
  "domain_audit_smtp_probes_total",
  "SMTP sessions with mail servers, by outcome: complete, unknown (no answer in time) or error"
)
export const httpsFetches = counter(
  "domain_audit_https_fetches_total",
  "HTTPS fetches of scanned sites, by outcome: response, or the failure's reason"
)
export const probeCache = counter(
  "domain_audit_probe_cache_total",
  "Transport answers asked for (kind smtp, smtp-tls, web-tls or rdap), by source: hit (remembered or under way) or miss (asked)"
)
export const destinationBackoffs = counter(
  "domain_audit_destination_backoffs_total",
  "Probes and fetches not attempted because their destination was backed off, by kind: smtp or https"
)

// Jobs and storage

export const deepScans = counter(
  "domain_audit_deep_scans_total",
  "Deep-scan jobs, by state reached: accepted, started (again when resumed), completed or failed"
)
export const snapshotWrites = counter(
  "domain_audit_snapshot_writes_total",
  "POST /report/snapshot outcomes: created (committed) or reused (an identical recent one)"
)

// Monitors and their alerts (docs/monitoring.md)

export const monitorRuns = counter(
  "domain_audit_monitor_runs_total",
  "Monitor runs, by outcome: quiet (nothing worse), alerted (alerts started), failed (the run broke; the next due time scans again)"
)
export const alertDeliveries = counter(
  "domain_audit_alert_deliveries_total",
  "Alert delivery attempts, by channel (webhook, email) and outcome: delivered, failed (retried later) or abandoned (retries exhausted: the alert is failed)"
)

// The process (sampled when scraped: Runtime.ts)

export const eventLoopDelay = gauge(
  "domain_audit_event_loop_delay_seconds",
  "Event-loop delay since the previous scrape, by quantile (p50, p99, max)"
)
export const eventLoopUtilization = gauge(
  "domain_audit_event_loop_utilization_ratio",
  "Share of time the event loop's thread was busy since the previous scrape"
)
export const heapBytes = gauge("domain_audit_heap_bytes", "V8 heap, by kind: used or total")
export const residentBytes = gauge("domain_audit_resident_memory_bytes", "Resident set size of the process")
