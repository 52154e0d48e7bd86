/**
 * Authenticate a raw message with `mailauth` (SPF, every DKIM signature, ARC, DMARC with alignment)
 * over our Resolver (net/MailauthResolver.ts): every lookup obeys DNS_RESOLVERS, DNS_TIMEOUT_MS, the
 * retries and the cache, and a lookup that fails is a temperror, never "no record".
 *
 * What is trusted: a pasted message carries no SMTP session, so SPF is evaluated for the peer
 * recorded in the newest Received field that has a `from` clause (`Message.trustedHop`), the one
 * written by the recipient's own server. Its IP literal is the client IP, its `from` name the HELO;
 * the MAIL FROM is that field's `envelope-from`, else the Return-Path. Older Received fields are
 * never used: the sender can write them. When that field names no IP, SPF is `not-evaluated`.
 *
 * The whole evaluation has a deadline (CHECK_TIMEOUT_MS): past it, lookups fail at once and
 * mailauth finishes with temperrors. BIMI is not evaluated (it would fetch over HTTPS).
 */
import { Effect, Schema } from "effect"
import { arc, dkimVerify, dmarc, spf } from "mailauth"
import type { MailauthResolver } from "../net/MailauthResolver.ts"
import { withMailauthDeadline } from "./MailauthDeadline.ts"
import { type Message, returnPath, trustedHop } from "./Message.ts"
import type {
  ArcVerdict,
  AuthVerdicts,
  DkimSignatureVerdict,
  DmarcResult,
  DmarcVerdict,
  SpfResult,
  SpfVerdict
} from "./Verdicts.ts"

/** mailauth threw (it should not): reported without any of the message's text. */
export class AuthenticationFailed extends Schema.TaggedError<AuthenticationFailed>()("AuthenticationFailed", {
  reason: Schema.String
}) {}

/** The name our verdicts use in comments (mailauth's `mta`, shown as the evaluating host). */
const MTA = "domain-audit"

interface DkimRow {
  readonly signingDomain?: string
  readonly selector?: string
  readonly signingHeaders?: { readonly keys?: string }
  readonly status?: {
    readonly result?: string
    readonly comment?: string | false
    readonly aligned?: string | false
  }
}
interface DkimOutcome {
  readonly results?: ReadonlyArray<DkimRow>
  readonly headerFrom?: ReadonlyArray<string> | string
  readonly envelopeFrom?: string | false
  readonly arc?: unknown
}
interface SpfOutcome {
  readonly domain?: string
  readonly status?: { readonly result?: string; readonly comment?: string | false }
  readonly info?: string
}
interface DmarcOutcome {
  readonly status?: { readonly result?: string; readonly comment?: string | false }
  readonly domain?: string
  readonly policy?: string
  readonly error?: string
  readonly alignment?: {
    readonly spf?: { readonly result?: string | false }
    readonly dkim?: { readonly result?: string | false }
  }
}
interface ArcOutcome {
  readonly status?: { readonly result?: string; readonly comment?: string | false }
  readonly i?: number
}

const SPF_RESULTS: ReadonlyArray<string> = [
  "pass",
  "fail",
  "softfail",
  "neutral",
  "none",
  "temperror",
  "permerror"
]
const text = (value: string | false | undefined) => (typeof value === "string" ? value : undefined)

const spfVerdict = async (
  message: Message,
  envelope: string | false | undefined,
  resolver: MailauthResolver
): Promise<{ verdict: SpfVerdict; passDomain: string | undefined }> => {
  const hop = trustedHop(message)
  if (hop?.ip === undefined) {
    const details =
      hop === undefined
        ? "SPF not evaluated: no Received header with a from clause, so the sending server is unknown"
        : "SPF not evaluated: the newest Received header names no client IP address"
    return {
      verdict: {
        result: "not-evaluated",
        domain: undefined,
        ip: undefined,
        helo: hop?.helo,
        mailFrom: undefined,
        details
      },
      passDomain: undefined
    }
  }
  const rp = returnPath(message)
  const sender = hop.envelopeFrom ?? (rp !== undefined ? rp : text(envelope || undefined)) ?? ""
  const helo = hop.helo !== undefined && !/^\[/.test(hop.helo) ? hop.helo : `[${hop.ip}]`
  const outcome = (await spf({ ip: hop.ip, helo, sender, mta: MTA, resolver } as Parameters<
    typeof spf
  >[0])) as SpfOutcome
  const raw = outcome.status?.result ?? "temperror"
  const result = (SPF_RESULTS.includes(raw) ? raw : "temperror") as SpfResult
  const mailFrom = sender === "" ? `postmaster@${helo}` : sender
  const why = text(outcome.status?.comment)?.replace(`${MTA}: `, "")
  const details = `client ${hop.ip} (HELO ${helo}, MAIL FROM ${mailFrom}) from the newest Received header${why ? `: ${why}` : ""}`
  return {
    verdict: { result, domain: outcome.domain, ip: hop.ip, helo, mailFrom, details },
    passDomain: result === "pass" ? outcome.domain : undefined
  }
}

const dkimVerdicts = (outcome: DkimOutcome): Array<DkimSignatureVerdict> =>
  (outcome.results ?? [])
    .filter((row) => row.signingDomain !== undefined || row.status?.result !== "none")
    .map((row) => ({
      domain: (row.signingDomain ?? "").toLowerCase(),
      selector: row.selector ?? "",
      result: row.status?.result ?? "neutral",
      aligned: Boolean(row.status?.aligned),
      comment: text(row.status?.comment),
      signedHeaders: (row.signingHeaders?.keys ?? "")
        .split(":")
        .map((h) => h.trim().toLowerCase())
        .filter((h) => h !== "")
    }))

const dmarcVerdict = (outcome: DmarcOutcome | false, headerFrom: ReadonlyArray<string>): DmarcVerdict => {
  if (outcome === false)
    return {
      result: "permerror",
      policy: undefined,
      domain: undefined,
      spfAligned: false,
      dkimAligned: false,
      details: `DMARC not evaluated: the message has ${headerFrom.length} From addresses, not one (RFC 7489 6.6.1)`
    }
  const raw = outcome.status?.result ?? "temperror"
  const result: DmarcResult =
    raw === "pass" || raw === "fail" || raw === "none" || raw === "temperror" ? raw : "permerror"
  const policy =
    outcome.policy === "none" || outcome.policy === "quarantine" || outcome.policy === "reject"
      ? outcome.policy
      : undefined
  const details =
    result === "temperror"
      ? `the DMARC record of ${outcome.domain ?? "the From domain"} could not be looked up: ${outcome.error ?? "DNS failure"}`
      : result === "none"
        ? `no DMARC record for ${outcome.domain ?? "the From domain"}`
        : `${result}${policy ? ` (policy ${policy})` : ""}${text(outcome.status?.comment) ? `: ${text(outcome.status?.comment)}` : ""}`
  return {
    result,
    policy,
    domain: outcome.domain,
    spfAligned: Boolean(outcome.alignment?.spf?.result),
    dkimAligned: Boolean(outcome.alignment?.dkim?.result),
    details
  }
}

const arcVerdict = (outcome: ArcOutcome | undefined): ArcVerdict => {
  const result = outcome?.status?.result ?? "none"
  const comment = text(outcome?.status?.comment)
  return {
    result,
    details:
      result === "none"
        ? "no ARC chain"
        : `${result}${outcome?.i ? ` (chain of ${outcome.i})` : ""}${comment ? `: ${comment}` : ""}`
  }
}

/** The whole evaluation, over a mailauth resolver. Exported for tests with a fake resolver. */
export const verdictsWith = async (
  wire: string,
  message: Message,
  resolver: MailauthResolver
): Promise<AuthVerdicts> => {
  const dkimOutcome = (await dkimVerify(Buffer.from(wire, "utf8"), {
    resolver,
    minBitLength: 1024
  } as Parameters<typeof dkimVerify>[1])) as DkimOutcome
  const dkim = dkimVerdicts(dkimOutcome)
  const { verdict: spfV, passDomain } = await spfVerdict(message, dkimOutcome.envelopeFrom, resolver)
  const arcOutcome = dkimOutcome.arc
    ? ((await arc(
        dkimOutcome.arc as Parameters<typeof arc>[0],
        { resolver, minBitLength: 1024 } as Parameters<typeof arc>[1]
      )) as ArcOutcome)
    : undefined
  const headerFrom = ([] as Array<string>).concat(dkimOutcome.headerFrom ?? [])
  const dmarcOutcome =
    headerFrom.length === 0
      ? undefined
      : ((await dmarc({
          headerFrom,
          spfDomains: passDomain === undefined ? [] : [passDomain],
          dkimDomains: (dkimOutcome.results ?? [])
            .filter((r) => r.status?.result === "pass")
            .map((r) => ({ domain: r.signingDomain, aligned: r.status?.aligned })),
          arcResult: arcOutcome,
          resolver
        } as Parameters<typeof dmarc>[0])) as DmarcOutcome | false)
  return {
    spf: spfV,
    dkim,
    dmarc:
      dmarcOutcome === undefined
        ? {
            result: "permerror",
            policy: undefined,
            domain: undefined,
            spfAligned: false,
            dkimAligned: false,
            details: "DMARC not evaluated: the message has no From address"
          }
        : dmarcVerdict(dmarcOutcome, headerFrom),
    arc: arcVerdict(arcOutcome)
  }
}

/** The message as it travels (RFC 5322 2.1: CRLF line ends); pasted text often has bare LFs. */
export const toWireFormat = (raw: string): string => raw.replace(/\r?\n/g, "\r\n")

/** Authenticate over the service's Resolver, within CHECK_TIMEOUT_MS. */
export const authenticate = (raw: string, message: Message) =>
  withMailauthDeadline((lookups) => verdictsWith(toWireFormat(raw), message, lookups)).pipe(
    Effect.mapError((reason) => new AuthenticationFailed({ reason })),
    Effect.withSpan("DebugEmail.authenticate")
  )
