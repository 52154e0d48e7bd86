/**
 * What the SMTP TLS check gathers: the mail servers, one SMTP session per address (`facts.probe`,
 * shared with DANE), the TLS scan of every address where STARTTLS worked (`facts.smtpTlsScan`), and
 * the FCrDNS verdicts.
 */
import { Effect } from "effect"
import type { SmtpProbe } from "../../net/Smtp.ts"
import type { TlsScanResult } from "../../net/TlsScan.ts"
import { need } from "../../kernel/Check.ts"
import { Facts } from "../../kernel/Facts.ts"
import { Fcrdns } from "../fcrdns/Fcrdns.ts"
import { MailServers, targets, unresolvedHosts } from "../../kernel/MailServers.ts"
import type { SmtpTlsInput } from "./SmtpTls.ts"

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
  const [probed, reverse] = yield* Effect.all(
    [Effect.forEach(targets(servers), probeAndScan, { concurrency: "unbounded" }), need(Fcrdns)],
    { concurrency: 2 }
  )
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
}).pipe(Effect.withSpan("SmtpTls.gather"))
