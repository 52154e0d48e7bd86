/**
 * Histories: each domain's fresh full scans as a hash chain (HistoryChain.ts), and what is read from
 * it: the entries with the chain's verdict, one stored scan, the diff of two entries, the evidence
 * over a period (docs/monitoring.md "History and evidence").
 *
 * - `record` is called for every full scan the service computes (monitor/HistoryHook.ts, beside the
 *   hall of fame): a cached re-serve is not a scan and is never recorded, nor is a scan whose DNS
 *   could not be asked at all (an outage says nothing about the domain). A domain that does not
 *   exist is recorded: that it went away is a change its owner must hear of.
 * - `HISTORY=owned` (default) records the domains someone owns: monitored, or verified by a tenant
 *   (`MonitoredDomains.isOwned`); `HISTORY=monitored` only the monitored ones; `HISTORY=all` every
 *   domain scanned. A scan recorded with `{ monitored: true }` (a monitor's run) is kept under each.
 *   Anyone may scan any name: under `all` each of them writes permanent history for it.
 * - The same scan recorded twice (same content hash as the last entry) is one entry.
 * - Every read re-verifies: the list verifies the whole chain, and a stored scan served, diffed or
 *   used as evidence must hash to its entry's `contentHash`, or it is refused (`HistoryCorrupt`).
 * - A scan stored before the registry gained or lost a check still reads (scan/StoredScan.ts): it
 *   is served as stored, and diffed and used as evidence over the checks it ran.
 */
import { NormalDomain, type Domain } from "../records/DomainName.ts"
import { Clock, Effect, Option, Schema } from "effect"
import { AppConfig } from "../Config.ts"
import { noSuchDomain } from "../checks/dns/Rules.ts"
import { ScanResult } from "../scan/ScanResult.ts"
import { completeScan, StoredScanResult } from "../scan/StoredScan.ts"
import { canonicalJson, sha256Of } from "../report/Canonical.ts"
import { unscannableReason } from "../score/Scannable.ts"
import { score } from "../score/Score.ts"
import { Change, type Json } from "./Change.ts"
import { diffScans } from "./Diff.ts"
import { evidenceOf } from "./Evidence.ts"
import { HistoryEntry, nextEntry, verifyChain } from "./HistoryChain.ts"
import { HistoryStore, type StoredEntry } from "./HistoryStore.ts"
import { MonitoredDomains } from "./MonitoredDomains.ts"

export const HistoryList = Schema.Struct({
  domain: NormalDomain,
  entries: Schema.Array(HistoryEntry),
  chainValid: Schema.Boolean,
  invalidSeq: Schema.NullOr(Schema.Int).annotations({ description: "the first entry that does not verify" }),
  reason: Schema.NullOr(Schema.String).annotations({ description: "why that entry does not verify" })
}).annotations({ identifier: "HistoryList" })
export type HistoryList = typeof HistoryList.Type

export const HistoryScan = Schema.Struct({
  domain: NormalDomain,
  entry: HistoryEntry,
  scan: StoredScanResult.annotations({
    description:
      "the stored scan, as stored: the SHA-256 of its RFC 8785 canonical JSON is entry.contentHash. A scan stored before a check was added lacks that check's outcome; one stored before a check was removed still holds it"
  })
}).annotations({ identifier: "HistoryScan" })
export type HistoryScan = typeof HistoryScan.Type

/** How many entries back a diff without `from` and `to` looks for the last change. */
export const LAST_CHANGE_LOOKBACK = 32

export const HistoryDiff = Schema.Struct({
  domain: NormalDomain,
  from: HistoryEntry,
  to: HistoryEntry,
  changes: Schema.Array(Change)
}).annotations({ identifier: "HistoryDiff" })
export type HistoryDiff = typeof HistoryDiff.Type

/** No history for the domain, or no entry with that seq: a 404. */
export class HistoryMissing extends Schema.TaggedError<HistoryMissing>()("HistoryMissing", {
  message: Schema.String
}) {}
/** A request the history cannot answer as asked (a period that ends before it starts): a 400. */
export class HistoryRangeInvalid extends Schema.TaggedError<HistoryRangeInvalid>()("HistoryRangeInvalid", {
  message: Schema.String
}) {}
/** A stored scan that does not hash to its entry's content hash: never served (a 500). */
export class HistoryCorrupt extends Schema.TaggedError<HistoryCorrupt>()("HistoryCorrupt", {
  message: Schema.String
}) {}

const encodeScan = Schema.encodeSync(ScanResult)
const decodeStored = Schema.decodeUnknownEither(StoredScanResult)

/** Whether the scan found that its domain does not exist (NXDOMAIN, RFC 8020). */
const doesNotExist = (scan: ScanResult) =>
  scan.checks["dns-records"].result !== null && noSuchDomain(scan.checks["dns-records"].result)

/** Whether a finished scan is a verdict on its domain (graded, or it does not exist). */
const isVerdict = (scan: ScanResult) => unscannableReason(scan) === null || doesNotExist(scan)

/**
 * The stored scan of `stored` as stored (whatever registry made it), re-verified against its content
 * hash: the hash is over the stored JSON, before any decoding.
 */
const storedScan = (domain: string, stored: StoredEntry): Effect.Effect<StoredScanResult, HistoryCorrupt> => {
  const corrupt = new HistoryCorrupt({
    message: `history entry ${stored.entry.seq} of ${domain} failed its integrity check and is not served`
  })
  if (stored.scanJson == null || sha256Of(stored.scanJson) !== stored.entry.contentHash)
    return Effect.fail(corrupt)
  const scan = decodeStored(JSON.parse(stored.scanJson))
  return scan._tag === "Left" ? Effect.fail(corrupt) : Effect.succeed(scan.right)
}

/** The stored scan of `stored`, verified, as a scan of today's registry (scan/StoredScan.ts). */
const verifiedScan = (domain: string, stored: StoredEntry): Effect.Effect<ScanResult, HistoryCorrupt> =>
  Effect.map(storedScan(domain, stored), completeScan)

/**
 * The entries in force during [fromMs, toMs], oldest first: the last scanned at or before its start,
 * then each scanned in it.
 */
const inForce = (entries: ReadonlyArray<HistoryEntry>, fromMs: number, toMs: number) => {
  const atStart = entries.filter((e) => Date.parse(e.scannedAt) <= fromMs).at(-1)
  const inPeriod = entries.filter((e) => {
    const at = Date.parse(e.scannedAt)
    return at > fromMs && at <= toMs && e !== atStart
  })
  return atStart === undefined ? inPeriod : [atStart, ...inPeriod]
}

export class Histories extends Effect.Service<Histories>()("Histories", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const store = yield* HistoryStore
    const monitored = yield* MonitoredDomains

    /**
     * Append `scan` to its domain's history when the `HISTORY` setting keeps it: the entry that holds
     * it (the last one, for the same scan again), or None when it is not kept or could not be
     * written. Never fails: a failed write is logged, never the scan's failure.
     */
    const record = (
      scan: ScanResult,
      options: { readonly monitored?: boolean } = {}
    ): Effect.Effect<Option.Option<HistoryEntry>> =>
      Effect.gen(function* () {
        if (scan.cached || !isVerdict(scan)) return Option.none()
        if (config.history !== "all" && options.monitored !== true) {
          const kept =
            config.history === "monitored"
              ? yield* monitored.isMonitored(scan.domain)
              : yield* monitored.isOwned(scan.domain)
          if (!kept) return Option.none()
        }
        const encoded = encodeScan(scan) as Json
        const scanJson = canonicalJson(encoded)
        const scored = score(scan)
        // A name that does not exist starts no history (anyone could write one for every name they
        // make up, for good); a domain with a history, or a monitor's, that went away is a change.
        const starts = options.monitored === true || !doesNotExist(scan)
        return yield* store.append(scan.domain, encoded, (last) =>
          (last === null && !starts) || (last !== null && last.entry.contentHash === sha256Of(scanJson))
            ? Option.none()
            : Option.some(
                nextEntry(scan.domain, last?.entry ?? null, {
                  scannedAt: scan.computedAt,
                  grade: scored.grade,
                  percentage: scored.percentage,
                  scanJson
                })
              )
        )
      }).pipe(
        Effect.catchAllCause((cause) =>
          Effect.as(
            Effect.logError(`the scan of ${scan.domain} could not be added to its history`, cause),
            Option.none()
          )
        )
      )

    /**
     * Domains whose chain verified, through which seq, and the running digest of their rows until
     * then: a later read whose rows still give that digest need not rebuild and re-hash those scans
     * again (any byte of them edited since changes the digest, and everything is verified anew).
     * Only in memory, for the most recently read domains: after a restart each chain is verified whole.
     */
    const verified = new Map<string, { readonly through: number; readonly digest: string }>()
    const VERIFIED_DOMAINS = 10_000

    const running = (rowDigests: ReadonlyArray<string>) => {
      const out: Array<string> = []
      let digest = ""
      for (const row of rowDigests) out.push((digest = sha256Of(digest + row)))
      return out
    }

    /**
     * The entries of `domain` with the scans of those not verified before (and of those from the seq
     * `needed` answers on, when given), and how many were verified before. 404 when it has none.
     */
    const readChain = (
      domain: Domain,
      needed: (entries: ReadonlyArray<HistoryEntry>) => number = () => Number.MAX_SAFE_INTEGER
    ) =>
      Effect.gen(function* () {
        let trusted = 0
        const known = verified.get(domain)
        const stored = yield* store
          .all(domain, (rows) => {
            const digests = rows.map((r) => r.rowDigest)
            if (known !== undefined && running(digests.slice(0, known.through)).at(-1) === known.digest)
              trusted = known.through
            return Math.min(trusted + 1, needed(rows.map((r) => r.entry)))
          })
          .pipe(Effect.orDie)
        if (stored.length === 0)
          return yield* Effect.fail(new HistoryMissing({ message: `there is no history of ${domain}` }))
        return { stored, trusted }
      })

    /** The chain's verdict, remembering how far it verified. */
    const chainOf = (domain: string, stored: ReadonlyArray<StoredEntry>, trusted = 0) => {
      const verdict = verifyChain(domain, stored, trusted)
      const through = verdict.invalidSeq === null ? stored.length : verdict.invalidSeq - 1
      verified.delete(domain)
      if (through > 0) {
        verified.set(domain, {
          through,
          digest: running(stored.slice(0, through).map((s) => s.rowDigest)).at(-1)!
        })
        if (verified.size > VERIFIED_DOMAINS) verified.delete(verified.keys().next().value!)
      }
      return verdict
    }

    /** The entries of `domain`, oldest first, and whether the chain verifies (and where not). */
    const list = (domain: Domain): Effect.Effect<HistoryList, HistoryMissing> =>
      Effect.map(readChain(domain), ({ stored, trusted }) => ({
        domain,
        entries: stored.map((s) => s.entry),
        ...chainOf(domain, stored, trusted)
      }))

    const storedAt = (domain: Domain, seq: number) =>
      Effect.flatMap(store.at(domain, seq).pipe(Effect.orDie), (found) =>
        Option.match(found, {
          onNone: () => Effect.fail(new HistoryMissing({ message: `${domain} has no history entry ${seq}` })),
          onSome: Effect.succeed
        })
      )

    /** Entry `seq` of `domain` with its stored scan. */
    const entry = (
      domain: Domain,
      seq: number
    ): Effect.Effect<HistoryScan, HistoryMissing | HistoryCorrupt> =>
      Effect.flatMap(storedAt(domain, seq), (stored) =>
        Effect.map(storedScan(domain, stored), (scan) => ({ domain, entry: stored.entry, scan }))
      )

    /** The changes from entry `fromSeq` to entry `toSeq`. */
    const diffOf = (domain: Domain, fromSeq: number, toSeq: number) =>
      Effect.gen(function* () {
        const [before, after] = [yield* storedAt(domain, fromSeq), yield* storedAt(domain, toSeq)]
        const changes = diffScans(yield* verifiedScan(domain, before), yield* verifiedScan(domain, after))
        return { domain, from: before.entry, to: after.entry, changes }
      })

    /**
     * The changes from entry `from` to entry `to`. With neither given, the last change, which is
     * what a reader comes for: the newest two consecutive entries that differ (runs that changed
     * nothing are skipped, at most LAST_CHANGE_LOOKBACK entries back), else the last two. With only
     * `to`, the entry before it; with one entry, no changes.
     */
    const diff = (
      domain: Domain,
      from: number | undefined,
      to: number | undefined
    ): Effect.Effect<HistoryDiff, HistoryMissing | HistoryCorrupt> =>
      Effect.gen(function* () {
        const last = yield* store.lastSeq(domain).pipe(Effect.orDie)
        if (last === 0)
          return yield* Effect.fail(new HistoryMissing({ message: `there is no history of ${domain}` }))
        if (from !== undefined || to !== undefined) {
          const toSeq = to ?? last
          return yield* diffOf(domain, from ?? Math.max(1, toSeq - 1), toSeq)
        }
        const newest = yield* diffOf(domain, Math.max(1, last - 1), last)
        for (
          let seq = last - 1;
          newest.changes.length === 0 && seq > 1 && last - seq <= LAST_CHANGE_LOOKBACK;
          seq--
        ) {
          const earlier = yield* diffOf(domain, seq - 1, seq)
          if (earlier.changes.length > 0) return earlier
        }
        return newest
      })

    /** The evidence over [from, to] (default: from the first entry until now). */
    const evidence = (domain: Domain, from: string | undefined, to: string | undefined) =>
      Effect.gen(function* () {
        const iso = (text: string) => new Date(Date.parse(text)).toISOString()
        const toIso = to === undefined ? new Date(yield* Clock.currentTimeMillis).toISOString() : iso(to)
        const period = (entries: ReadonlyArray<HistoryEntry>) => {
          const fromIso = from === undefined ? entries[0]!.scannedAt : iso(from)
          return { fromIso, used: inForce(entries, Date.parse(fromIso), Date.parse(toIso)) }
        }
        const { stored, trusted } = yield* readChain(domain, (entries) =>
          entries.length === 0 ? 1 : (period(entries).used[0]?.seq ?? Number.MAX_SAFE_INTEGER)
        )
        const { fromIso, used } = period(stored.map((s) => s.entry))
        if (Date.parse(fromIso) > Date.parse(toIso))
          return yield* Effect.fail(
            new HistoryRangeInvalid({ message: `the period ends (${toIso}) before it starts (${fromIso})` })
          )
        const bySeq = new Map(stored.map((s) => [s.entry.seq, s]))
        const scans = yield* Effect.forEach(used, (entry) =>
          Effect.map(verifiedScan(domain, bySeq.get(entry.seq)!), (scan) => ({ entry, scan }))
        )
        return evidenceOf(domain, { from: fromIso, to: toIso }, chainOf(domain, stored, trusted), scans)
      })

    return { record, list, entry, diff, evidence } as const
  })
}) {}
