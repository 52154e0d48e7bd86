/**
 * REQUIRETLS (RFC 8689): does each mail server of the domain advertise the `REQUIRETLS` ESMTP
 * keyword, with which a sender can demand that a message travel over TLS all the way or not at all?
 * The keyword is meaningful only over TLS, so servers advertise it in their EHLO reply after
 * STARTTLS (RFC 8689 2); that reply is what the SMTP probe records (`tls.extensions`, RFC 3207 4.2).
 * `gather` reads the probes the SMTP TLS check makes (the scan's Facts ask each address once) and
 * keeps only what this check judges; `analyse` is pure. Informational: it costs no points.
 */
import { Effect } from "effect"
import { define, traced } from "../../kernel/Check.ts"
import { Facts } from "../../kernel/Facts.ts"
import { MailServers, mxUnknown, targets } from "../../kernel/MailServers.ts"
import { SILENT_IMPLICIT_MX } from "../dns/Rules.ts"
import { implicitSilence } from "../smtp-tls/SmtpTls.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { type Heard, heardOf, type RequireTlsGathered } from "./RequireTlsGathered.ts"
import { RequireTlsResult } from "./RequireTlsResult.ts"

export * from "./RequireTlsGathered.ts"
export * from "./RequireTlsResult.ts"

/** The keyword is a line of its own, without parameters (RFC 8689 2); keywords are case-blind (RFC 5321 2.4). */
const advertises = (keywords: ReadonlyArray<string>) =>
  keywords.some((k) => k.trim().split(/\s+/)[0]!.toUpperCase() === "REQUIRETLS")

const serverOf = (h: Heard): RequireTlsResult["servers"][number] => {
  const where = { host: h.host, address: h.address }
  if (h.session === "unknown") return { ...where, requireTls: null, note: h.reason }
  if (h.session === "plain") return { ...where, requireTls: false, note: h.reason }
  return advertises(h.keywords)
    ? { ...where, requireTls: true, note: null }
    : { ...where, requireTls: false, note: "REQUIRETLS is not among the EHLO keywords after STARTTLS" }
}

/** Pure and total. */
export const analyse = (g: RequireTlsGathered, now: Date): RequireTlsResult => {
  const base = { domain: g.domain, checkedAt: now.toISOString() }
  const servers = g.heard.map(serverOf)
  const count = (v: boolean | null) => servers.filter((s) => s.requireTls === v).length
  const [yes, no, unknown] = [count(true), count(false), count(null)]
  const verdict = (status: RequireTlsResult["status"], note: string): RequireTlsResult => ({
    ...base,
    status,
    servers,
    note
  })
  if (g.mxStatus === "unknown") return verdict("unknown", g.mxError ?? "the MX lookup failed")
  if (g.mxStatus === "null-mx") return verdict("no-mail", "null MX (RFC 7505): the domain accepts no mail")
  // Nothing answers port 25 at the implicit MX: a domain without mail, as every mail record of the
  // score reads it (checks/dns/Rules.ts `noMailServers`), not a mail server that could not be asked.
  if (g.implicitMxSilent !== null) return verdict("no-mail", SILENT_IMPLICIT_MX)
  if (servers.length === 0)
    return g.mxStatus === "none"
      ? verdict("no-mail", "no MX records and no address: the domain receives no mail")
      : verdict("unknown", "no mail server address could be asked")
  if (yes === servers.length)
    return verdict("all", `every mail server advertises REQUIRETLS (${yes} address(es), RFC 8689)`)
  if (yes > 0 && no > 0)
    return verdict(
      "some",
      `${yes} of ${servers.length} mail server address(es) advertise REQUIRETLS and ${no} do not`
    )
  if (unknown > 0)
    return verdict(
      "unknown",
      `${unknown} mail server address(es) could not be asked, the others do not decide`
    )
  return verdict(
    "none",
    "no mail server advertises REQUIRETLS: senders cannot require TLS end to end (optional)"
  )
}

export const gather = Effect.gen(function* () {
  const facts = yield* Facts
  const servers = yield* facts.get(MailServers)
  // The same probes as the SMTP TLS check's: Facts memoises them per (host, address).
  // Every probe started, then awaited in turn in this fiber (no fiber per probe that only waits).
  const started = yield* Effect.forEach(targets(servers), (t) => facts.startProbe(t.host, t.ip))
  const probes = yield* Effect.all(started)
  return {
    domain: facts.domain,
    mxStatus: servers.mxStatus,
    mxError: servers.mxStatus === "unknown" ? mxUnknown(servers) : null,
    heard: probes.map(heardOf),
    implicitMxSilent: implicitSilence(servers.mxStatus, probes)
  } satisfies RequireTlsGathered
}).pipe(traced("RequireTls.gather", {}))

export const RequireTls = define(about, { gather, analyse, exampleGathered })
