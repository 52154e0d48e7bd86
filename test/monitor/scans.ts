/**
 * Stored scans of world scenarios (test/fixtures/scans, written by the batch scanner against the
 * world) and generated variations of them: the material of the pure history and diff tests.
 */
import { readFileSync } from "node:fs"
import { Either } from "effect"
import fc from "fast-check"
import type { AlertContent } from "../../src/monitor/AlertMessage.ts"
import type { ScanResult } from "../../src/scan/ScanResult.ts"
import { readStoredScan } from "../../src/scan/StoredScan.ts"
import { domain as toDomain } from "../support/domain.ts"

/** Read as stored scans are: a check added since the fixture was written reads "not checked then". */
const decode = (json: unknown): ScanResult => Either.getOrThrow(readStoredScan(json))

const cache = new Map<string, ScanResult>()

export const storedScan = (domain: string): ScanResult => {
  const cached = cache.get(domain)
  if (cached !== undefined) return cached
  const scan = decode(
    JSON.parse(readFileSync(new URL(`../fixtures/scans/${domain}.json`, import.meta.url), "utf8"))
  )
  cache.set(domain, scan)
  return scan
}

export const FIXTURES = ["perfect.com", "dmarc-none.com", "mx-listed.com", "mx-expired.com"] as const

/** A scan as another domain's, at another time: two scenarios stand in for one domain changing. */
export const asDomain = (scan: ScanResult, name: string, computedAt = scan.computedAt): ScanResult => ({
  ...scan,
  domain: toDomain(name),
  computedAt
})

/** An alert of perfect.com's hourly monitor made at `at`: the fixture the alert tests share. */
export const perfectAlert = (
  at: string,
  judged: Pick<AlertContent, "grade" | "rules" | "changes" | "warnings" | "fixes">,
  lang: AlertContent["lang"] = "en"
): AlertContent => ({
  alertId: "msg_1",
  monitorId: "mon_1",
  domain: "perfect.com",
  every: "PT1H",
  baseUrl: "https://audit.example/api",
  scannedAt: at,
  createdAt: at,
  lang,
  ...judged
})

type Mutable<T> = T extends string ? T : { -readonly [K in keyof T]: Mutable<T[K]> }
type Edit = (scan: Mutable<ScanResult>) => void

const copy = (scan: ScanResult): Mutable<ScanResult> => structuredClone(scan) as Mutable<ScanResult>

/** Edits a scan's facts the way a domain's owner (or an outage) changes them between two scans. */
const edits: ReadonlyArray<fc.Arbitrary<Edit>> = [
  fc.constantFrom("none", "quarantine", "reject", undefined).map((policy) => (s: Mutable<ScanResult>) => {
    const dmarc = s.checks.dmarc.result
    if (dmarc === null) return
    if (policy === undefined) {
      dmarc.exists = false
      delete dmarc.policy
      delete dmarc.record
    } else {
      dmarc.exists = true
      dmarc.policy = policy
      dmarc.record = `v=DMARC1; p=${policy}`
    }
  }),
  fc
    .array(fc.constantFrom("10 mx.a.test.", "20 mx.b.test.", "5 mx.c.test."), { maxLength: 3 })
    .map((mx) => (s: Mutable<ScanResult>) => {
      const lookup = s.checks["dns-records"].result
      if (lookup === null) return
      lookup.records["MX"] = mx.map((data) => ({ type: "MX", name: s.domain, ttl: 300, data }))
      lookup.outcomes["MX"] = mx.length === 0 ? "nodata" : "answer"
    }),
  fc.constantFrom("timeout", "servfail").map((reason) => (s: Mutable<ScanResult>) => {
    const lookup = s.checks["dns-records"].result
    if (lookup === null) return
    delete lookup.records["NS"]
    lookup.outcomes["NS"] = reason
  }),
  fc.string({ maxLength: 8 }).map((key) => (s: Mutable<ScanResult>) => {
    const dkim = s.checks.dkim.result
    if (dkim === null || dkim.selectorsFound.length === 0) return
    dkim.selectorsFound[0]!.record = `v=DKIM1; p=${key}`
  }),
  fc.constant((s: Mutable<ScanResult>) => {
    const dkim = s.checks.dkim.result
    if (dkim !== null) dkim.selectorsFound.pop()
  }),
  fc.constantFrom("Other CA", "Domain Audit World Root CA").map((issuer) => (s: Mutable<ScanResult>) => {
    for (const server of s.checks["smtp-tls"].result?.servers ?? [])
      if (server.certificate !== null) server.certificate.issuerCommonName = issuer
  }),
  fc
    .date({ min: new Date("2026-01-01"), max: new Date("2030-01-01"), noInvalidDate: true })
    .map((date) => (s: Mutable<ScanResult>) => {
      for (const server of s.checks["smtp-tls"].result?.servers ?? [])
        if (server.certificate !== null) server.certificate.validTo = date.toISOString()
    }),
  fc.constantFrom("listed", "clean", "unknown").map((status) => (s: Mutable<ScanResult>) => {
    const zone = s.checks.blocklist.result?.mailServers[0]?.blacklistResult.blacklists[0]
    if (zone === undefined) return
    zone.status = status
    zone.listed = status === "listed"
    zone.codes = status === "listed" ? ["127.0.0.2"] : []
  }),
  fc
    .constantFrom("mta-sts", "dmarc", "spf", "smtp-tls", "blocklist", "dane")
    .map((id) => (s: Mutable<ScanResult>) => {
      const outcome = s.checks[id]
      outcome.status = "unknown"
      outcome.reason = "timeout"
      outcome.result = null
    })
]

/** A stored scan of one of the fixtures, with a few of `edits` applied. */
export const arbScan: fc.Arbitrary<ScanResult> = fc
  .record({
    base: fc.constantFrom(...FIXTURES),
    edits: fc.array(fc.oneof(...edits), { maxLength: 4 })
  })
  .map(({ base, edits }) => {
    const scan = copy(asDomain(storedScan(base), "example.test"))
    for (const edit of edits) edit(scan)
    return scan as ScanResult
  })
