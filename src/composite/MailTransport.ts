/**
 * The mail-transport endpoints as composites of checks (GET /email/smtp-tls, /email/fcrdns,
 * /email/blacklist, /email/sender-requirements, /dns/tlsa), each over fresh Facts for its domain.
 * Every one rests on the MX set: when that lookup itself failed there is no result to give, which
 * is the spec's 500 "upstream resolver problem" (`UpstreamProblem`), decided by the mail servers'
 * `mxStatus`; a DNSSEC-bogus MX set (SERVFAIL, data only with CD) is not a failure to look up but
 * the domain's broken DNSSEC, reported inside each result. Anything narrower (one server stalled, one list refused) stays inside the result as
 * `unknown`.
 */
import type { Domain } from "../records/DomainName.ts"
import { Effect } from "effect"
import { type AnyCheck, need, type ResultOf } from "../kernel/Check.ts"
import { Facts } from "../kernel/Facts.ts"
import { Blocklist } from "../checks/blocklist/Blocklist.ts"
import { Fcrdns, withApiUrl } from "../checks/fcrdns/Fcrdns.ts"
import { MailServers } from "../kernel/MailServers.ts"
import { SenderRequirements } from "../checks/sender/SenderRequirements.ts"
import { SmtpTls } from "../checks/smtp-tls/SmtpTls.ts"
import { Tlsa } from "../checks/tlsa/Tlsa.ts"
import { UpstreamProblem } from "./UpstreamProblem.ts"
import { withFacts } from "../scan/Scanner.ts"

const mxProblem = (domain: Domain) =>
  new UpstreamProblem({
    error: `upstream resolver problem: the MX records of ${domain} could not be looked up; retry after a few seconds`
  })

/** The checks' results for `domain`, or `UpstreamProblem` when its MX set is unknown. */
const overMailServers = <const Cs extends ReadonlyArray<AnyCheck>>(
  domain: Domain,
  checks: Cs,
  problem: (error: string | null) => UpstreamProblem = () => mxProblem(domain)
) =>
  withFacts(
    domain,
    Effect.gen(function* () {
      const servers = yield* Effect.flatMap(Facts, (facts) => facts.get(MailServers))
      // A DNSSEC-bogus MX set is the domain's fault, not an outage: the checks report it as their
      // result's reason (retrying will not help). Only an unreachable MX lookup is the 500.
      if (servers.mxStatus === "unknown" && !servers.bogus) return yield* problem(servers.error)
      return (yield* Effect.all(checks.map(need), { concurrency: "unbounded" })) as {
        readonly [K in keyof Cs]: ResultOf<Cs[K]>
      }
    })
  )

export const smtpTls = (domain: Domain) =>
  Effect.map(overMailServers(domain, [SmtpTls]), ([result]) => result)

/** `apiUrl`: the endpoint's own URL, built by the HTTP layer from the request. */
export const fcrdns = (domain: Domain, apiUrl: string) =>
  Effect.map(overMailServers(domain, [Fcrdns]), ([report]) => withApiUrl(report, apiUrl))

export const blacklist = (domain: Domain) =>
  Effect.map(overMailServers(domain, [Blocklist]), ([result]) => result)

export const tlsa = (domain: Domain) =>
  Effect.map(
    overMailServers(
      domain,
      [Tlsa],
      (error) =>
        new UpstreamProblem({
          error: `upstream resolver problem: MX hosts of ${domain} could not be looked up (MX lookup failed (${error ?? "no answer"})); retry after a few seconds`
        })
    ),
    ([result]) => result
  )

export const senderRequirements = (domain: Domain) =>
  Effect.map(overMailServers(domain, [SenderRequirements]), ([result]) => result)
