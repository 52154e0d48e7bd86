/**
 * Our Resolver in the shape `mailauth` asks for: a function like node's `dns.promises.resolve`
 * (`(name, type) => Promise<records>`), so every lookup of a raw-email authentication obeys the
 * Resolver's upstreams, timeouts, retries, cache and in-flight sharing.
 *
 * The contract mailauth reads (lib/spf/index.js, lib/dmarc/get-dmarc-record.js, lib/tools.js):
 * - NXDOMAIN is an error with code `ENOTFOUND`, NODATA one with `ENODATA`: "no record".
 * - Any other code is a temporary error (SPF/DKIM/DMARC `temperror`). So a timeout, SERVFAIL,
 *   REFUSED or network failure of ours becomes `ETIMEOUT`, `ESERVFAIL`, `EREFUSED` or `ECONNREFUSED`,
 *   never `ENOTFOUND`/`ENODATA`: a lookup that fails is never read as a missing record.
 * - TXT answers are arrays of character-strings per record (RFC 7208 3.3 joins them), MX answers
 *   `{ exchange, priority }`, A/AAAA/PTR/CNAME/NS answers strings.
 *
 * After `signal` aborts (the caller's deadline, or the client went away) every further lookup fails
 * at once with `ETIMEOUT`, so mailauth finishes its evaluation with temperrors instead of querying on.
 */
import { Effect, Exit } from "effect"
import { type DnsAnswer, DnsError, type RecordType, RecordTypes } from "./DnsTypes.ts"
import type { MxData } from "../records/DnsRdata.ts"

export type MailauthResolver = (name: string, type: string) => Promise<Array<unknown>>

type Query = (name: string, type: RecordType) => Effect.Effect<DnsAnswer, DnsError>

/** An Error carrying a node-style DNS error `code`, as mailauth switches on it. */
const dnsFailure = (code: string, message: string): Error => Object.assign(new Error(message), { code })

const codeOf = (reason: DnsError["reason"]): string => {
  switch (reason) {
    case "timeout":
      return "ETIMEOUT"
    case "servfail":
      return "ESERVFAIL"
    case "refused":
      return "EREFUSED"
    case "network":
      return "ECONNREFUSED"
    default:
      return "EBADRESP"
  }
}

/** The records of an answer in node's `dns.promises.resolve` shape, or the error for NXDOMAIN/NODATA. */
export const toNodeShape = (answer: DnsAnswer): Array<unknown> | Error => {
  if (answer.outcome === "nxdomain") return dnsFailure("ENOTFOUND", `${answer.name} does not exist`)
  const records = answer.answers.filter((r) => r.type === answer.type)
  if (answer.outcome === "nodata" || records.length === 0)
    return dnsFailure("ENODATA", `${answer.name} has no ${answer.type} record`)
  switch (answer.type) {
    case "TXT":
      return records.map((r) => [...(r.data as ReadonlyArray<string>)])
    case "MX":
      return records.map((r) => {
        const mx = r.data as MxData
        return { exchange: mx.exchange, priority: mx.priority }
      })
    default:
      return records.map((r) => String(r.data))
  }
}

const isRecordType = (type: string): type is RecordType =>
  (RecordTypes as ReadonlyArray<string>).includes(type)

/** `query` (the Resolver's, R = never) as a mailauth resolver; lookups stop when `signal` aborts. */
export const mailauthResolver =
  (query: Query, signal: AbortSignal): MailauthResolver =>
  async (name, type) => {
    const rrtype = type.toUpperCase()
    if (signal.aborted) throw dnsFailure("ETIMEOUT", `${name} ${rrtype}: the evaluation ran out of time`)
    if (!isRecordType(rrtype)) throw dnsFailure("ENOTIMP", `${rrtype} lookups are not supported`)
    const exit = await Effect.runPromiseExit(query(name, rrtype), { signal })
    if (Exit.isFailure(exit)) {
      const error = exit.cause._tag === "Fail" ? exit.cause.error : undefined
      throw error instanceof DnsError
        ? dnsFailure(codeOf(error.reason), error.message)
        : dnsFailure("ETIMEOUT", `${name} ${rrtype}: the lookup was interrupted`)
    }
    const shaped = toNodeShape(exit.value)
    if (shaped instanceof Error) throw shaped
    return shaped
  }
