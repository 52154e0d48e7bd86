/**
 * The DNS endpoints below HTTP: records of chosen types, DNSSEC and propagation. A result that
 * rests on nothing (no lookup answered; the zone's DNSSEC state unknowable) is `UpstreamProblem`
 * (SPEC Errors: "upstream resolver problem", 500), decided by the result's own fields; narrower
 * failures stay inside the result as `unknown`.
 */
import type { Domain } from "../records/DomainName.ts"
import { Clock, Effect, Either, Schema } from "effect"
import * as Lookup from "../checks/dns/Lookup.ts"
import * as Propagation from "../checks/dns/Propagation.ts"
import { Dnssec } from "../checks/dnssec/Dnssec.ts"
import type { RecordType } from "../net/DnsTypes.ts"
import { UpstreamProblem } from "./UpstreamProblem.ts"
import { runCheck, withFacts } from "../scan/Scanner.ts"

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

const upstreamProblem = (what: string, errors: ReadonlyArray<string>) =>
  new UpstreamProblem({
    error: `upstream resolver problem: ${what} (${errors[0] ?? "no answer"}); retry after a few seconds`
  })

/** The `type`/`types` parameters name no record type we know. */
export class UnknownRecordType extends Schema.TaggedError<UnknownRecordType>()("UnknownRecordType", {
  message: Schema.String
}) {}

/** `GET /dns/lookup?type=&types=`: `lookup` over the record types the parameters name. */
export const lookupAsked = (domain: Domain, type: string | undefined, types: string | undefined) =>
  Effect.flatMap(
    Either.mapLeft(Lookup.parseTypes(type, types), (message) => new UnknownRecordType({ message })),
    (asked) => lookup(domain, asked)
  )

/** `GET /dns/lookup`: the domain's records of `types` (a parameterised gather, so not `runCheck`). */
export const lookup = (domain: Domain, types: ReadonlyArray<RecordType>) =>
  withFacts(
    domain,
    Effect.flatMap(Lookup.gatherTypes(types), (gathered) =>
      Effect.map(now, (at) => Lookup.analyse(gathered, at))
    )
  ).pipe(
    Effect.filterOrFail(
      (result) => result.success,
      (result) =>
        upstreamProblem(
          `no lookup for ${result.domain} succeeded`,
          result.errors.map((e) => `${e.type}: ${e.message}`)
        )
    )
  )

/** `GET /dns/dnssec`: the DNSSEC check; `unknown` (the DNSKEY lookup failed) is a 500. */
export const dnssec = (domain: Domain) =>
  runCheck(Dnssec, domain).pipe(
    Effect.filterOrFail(
      (result) => result.status !== "unknown",
      (result) => upstreamProblem(`DNSSEC state of ${result.domain} could not be determined`, result.errors)
    )
  )

/** `GET /dns/propagation`: what each propagation resolver answers now for one type. */
export const propagation = (domain: Domain, type: RecordType) =>
  withFacts(
    domain,
    Effect.flatMap(Propagation.gatherType(type), (gathered) =>
      Effect.map(now, (at) => Propagation.analyse(gathered, at))
    )
  )
