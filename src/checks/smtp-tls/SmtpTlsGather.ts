/**
 * What the SMTP TLS check gathers: the mail servers, one SMTP session per address (`facts.probe`,
 * shared with DANE), the TLS scan of every address where STARTTLS worked (`facts.smtpTlsScan`), and
 * the FCrDNS verdicts.
 */
import { Effect } from "effect"
import type { SmtpProbe } from "../../net/Smtp.ts"
import type { TlsScanResult } from "../../net/TlsScan.ts"
import { need, resultFact, traced } from "../../kernel/Check.ts"
import { Facts } from "../../kernel/Facts.ts"
import { Fcrdns } from "../fcrdns/Fcrdns.ts"
import { MailServers, targets, unresolvedHosts } from "../../kernel/MailServers.ts"
import type { MxStatus } from "../../kernel/MailServers.ts"
import type { MxRecord, ReverseDns } from "./SmtpTlsResult.ts"
import { forEachConcurrently } from "../../kernel/Each.ts"

/** What `gather` collects: the mail servers, one probe per address and FCrDNS per address. */
export interface SmtpTlsInput {
  readonly domain: string
  readonly mxStatus: MxStatus
  /** The MX set is DNSSEC-bogus (see `MailServers.bogus`). */
  readonly mxBogus?: boolean
  readonly mxRecords: ReadonlyArray<MxRecord>
  /** Hosts whose A/AAAA lookups failed or returned nothing. */
  readonly unresolved: ReadonlyArray<{ readonly host: string; readonly reason: "none" | "unknown" }>
  readonly probes: ReadonlyArray<SmtpProbe>
  /** FCrDNS per address, when the caller has it (the spec lists it per server). */
  readonly fcrdns?: Readonly<Record<string, typeof ReverseDns.Type>>
  /** The TLS scan per address that completed STARTTLS, keyed `host|address` (host as probed). */
  readonly tlsScans?: Readonly<Record<string, TlsScanResult>>
}

export const gather = Effect.gen(function* () {
  const facts = yield* Facts
  const servers = yield* facts.get(MailServers)
  // The TLS scan follows the probe, and only where STARTTLS worked: a server without it has none.
  type Probed = readonly [SmtpProbe, TlsScanResult | null]
  const probeAndScan = (t: { readonly host: string; readonly ip: string }) =>
    Effect.flatMap(facts.probe(t.host, t.ip), (probe): Effect.Effect<Probed> =>
      probe.tls === null
        ? Effect.succeed([probe, null])
        : Effect.map(facts.smtpTlsScan(t.host, t.ip), (scan): Probed => [probe, scan])
    )
  // FCrDNS started first (the Scanner has started it already; alone, this check starts it), then
  // awaited after the probes: no fiber for each of the two waits.
  yield* facts.start(resultFact(Fcrdns))
  const probed = yield* forEachConcurrently(targets(servers), probeAndScan, "unbounded")
  const reverse = yield* need(Fcrdns)
  const probes = probed.map(([p]) => p)
  return {
    domain: facts.domain,
    mxStatus: servers.mxStatus,
    mxBogus: servers.bogus,
    mxRecords: servers.mxRecords,
    unresolved: unresolvedHosts(servers).map((h) => ({
      host: h.host,
      reason: h.status === "unknown" ? ("unknown" as const) : ("none" as const)
    })),
    probes,
    tlsScans: Object.fromEntries(
      probed.flatMap(([p, scan]) => (scan ? [[`${p.host}|${p.address}`, scan]] : []))
    ),
    fcrdns: Object.fromEntries(
      reverse.result.results.map((r) => [r.ip, { ptr: r.ptrRecords, confirmed: r.forwardConfirmed }])
    )
  } satisfies SmtpTlsInput
}).pipe(traced("SmtpTls.gather", {}))
