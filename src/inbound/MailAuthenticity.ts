/**
 * Who really sent a mailed report (docs/reports-in.md "Authenticity"): the message is
 * authenticated with mailauth as a receiving MTA would, over our Resolver (net/MailauthResolver.ts):
 * SPF for the connecting address, HELO and MAIL FROM of the SMTP session (RFC 7208), every DKIM
 * signature (RFC 6376), and DMARC for the From domain with alignment (RFC 7489 3.1, 6.6). A report
 * is authenticated when DMARC passes for its From domain; anything else (no record, a failed
 * look-up, no aligned pass) is "not authenticated", with why. A look-up that fails is said so: it
 * is unknown, not a forgery, but it authenticates nothing either.
 */
import { Effect } from "effect"
import { authenticate } from "mailauth"
import { withMailauthDeadline } from "../mail/MailauthDeadline.ts"
import type { Authenticity } from "./Authenticity.ts"

/** The SMTP session a message came in: the client's address, its HELO and the MAIL FROM. */
export interface Envelope {
  readonly ip: string
  readonly helo: string
  readonly mailFrom: string
}

/** What the verdict reads of mailauth's answer (lib/mailauth.js `authenticate`). */
export interface MailauthOutcome {
  readonly dkim?: {
    readonly results?: ReadonlyArray<{
      readonly signingDomain?: string
      readonly selector?: string
      readonly status?: { readonly result?: string; readonly aligned?: string | false }
    }>
    readonly headerFrom?: ReadonlyArray<string> | string
  }
  readonly spf?:
    | {
        readonly domain?: string
        readonly client_ip?: string
        readonly status?: { readonly result?: string }
      }
    | false
  readonly dmarc?:
    | {
        readonly domain?: string
        readonly status?: { readonly result?: string; readonly header?: { readonly from?: string } }
        readonly alignment?: {
          readonly spf?: { readonly result?: string | false }
          readonly dkim?: { readonly result?: string | false }
        }
        readonly error?: string
      }
    | false
}

/** The DKIM part of why: no signature, which failed, or which passed without aligning. */
const dkimWhy = (outcome: MailauthOutcome): string => {
  const rows = (outcome.dkim?.results ?? []).filter((r) => r.signingDomain !== undefined)
  if (rows.length === 0) return "no DKIM signature"
  return rows
    .map((r) => {
      const result = r.status?.result ?? "neutral"
      const d = `d=${r.signingDomain}${r.selector ? ` s=${r.selector}` : ""}`
      return result === "pass"
        ? `DKIM pass for ${d}, not aligned with the From domain`
        : `DKIM ${result} (${d})`
    })
    .join(", ")
}

const spfWhy = (outcome: MailauthOutcome, envelope: Envelope): string => {
  const spf = outcome.spf === false ? undefined : outcome.spf
  const result = spf?.status?.result ?? "none"
  const domain = spf?.domain ?? (envelope.mailFrom.split("@")[1] || envelope.helo)
  return result === "pass"
    ? `SPF pass for ${domain}, not aligned with the From domain`
    : `SPF ${result} for ${domain} from ${envelope.ip}`
}

/** The verdict on mailauth's answer. Pure. */
export const verdictOf = (outcome: MailauthOutcome, envelope: Envelope): Authenticity => {
  const dmarc = outcome.dmarc === false ? undefined : outcome.dmarc
  const from = dmarc?.domain ?? ([] as Array<string>).concat(outcome.dkim?.headerFrom ?? [])[0]?.split("@")[1]
  const result = dmarc?.status?.result
  if (result === "pass" && from !== undefined) {
    const how = [
      dmarc?.alignment?.dkim?.result ? `DKIM d=${dmarc.alignment.dkim.result}` : undefined,
      dmarc?.alignment?.spf?.result ? `SPF ${dmarc.alignment.spf.result} from ${envelope.ip}` : undefined
    ].filter((x) => x !== undefined)
    return {
      authenticated: true,
      authenticatedFor: from.toLowerCase(),
      authentication: `DMARC pass for ${from.toLowerCase()}${how.length > 0 ? ` (aligned: ${how.join(", ")})` : ""}`
    }
  }
  const dmarcWhy =
    dmarc === undefined
      ? "DMARC not evaluated (the message has no single From address)"
      : result === "temperror"
        ? `the DMARC record of ${from ?? "the From domain"} could not be looked up`
        : result === "none"
          ? `${from ?? "the From domain"} publishes no DMARC record`
          : `DMARC ${result ?? "fail"} for ${from ?? "the From domain"}`
  return {
    authenticated: false,
    authenticatedFor: null,
    authentication: `${dmarcWhy}: ${dkimWhy(outcome)} and ${spfWhy(outcome, envelope)}`
  }
}

/** The name our verdicts give the evaluating host (mailauth's `mta`). */
const MTA = "domain-audit"

/**
 * Authenticate a mailed report, within CHECK_TIMEOUT_MS; never fails: mailauth throwing (it should
 * not) is "not authenticated", saying so.
 */
export const authenticateMail = (bytes: Uint8Array, envelope: Envelope) =>
  withMailauthDeadline(
    (resolver) =>
      authenticate(Buffer.from(bytes), {
        ip: envelope.ip,
        helo: envelope.helo,
        sender: envelope.mailFrom,
        mta: MTA,
        resolver,
        disableArc: true,
        disableBimi: true
      } as Parameters<typeof authenticate>[1]) as Promise<MailauthOutcome>
  ).pipe(
    Effect.map((outcome) => verdictOf(outcome, envelope)),
    Effect.catchAll((name) =>
      Effect.succeed<Authenticity>({
        authenticated: false,
        authenticatedFor: null,
        authentication: `the message could not be authenticated (${name})`
      })
    ),
    Effect.withSpan("Reports.authenticateMail")
  )
