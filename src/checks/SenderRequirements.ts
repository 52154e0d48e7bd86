/**
 * Mailbox-provider bulk-sender rules, judged from what DNS and the MX servers show:
 * Google (Email sender guidelines, Feb 2024), Yahoo (Sender requirements, Feb 2024) and
 * Microsoft Outlook.com (high-volume sender requirements, May 2025). Pure: the SPF, DKIM, DMARC,
 * FCrDNS and TLS verdicts are gathered by their own checks and passed in as `SenderInput`.
 */
import { Effect, Either } from "effect"
import { getDomain } from "tldts"
import type { DnsError } from "../net/Dns.ts"
import { Resolver } from "../net/Resolver.ts"
import type { FcrdnsResult } from "./Fcrdns.ts"
import type { SmtpTlsResult } from "./SmtpTls.ts"
import type { CheckStatus } from "./Status.ts"

/** One upstream verdict, reduced to what the rules need. */
export interface Verdict {
  readonly status: CheckStatus
  readonly detail: string
}

export interface SenderInput {
  readonly domain: string
  /** The domain accepts / sends no mail (null MX and `v=spf1 -all`): the rules do not apply. */
  readonly sendsNoMail?: boolean
  /** SPF record present, single and syntactically valid. */
  readonly spf: Verdict
  /** At least one DKIM key published (only guessable selectors can be found). */
  readonly dkim: Verdict
  readonly dmarc: Verdict & { readonly policy: "none" | "quarantine" | "reject" | null }
  /** Forward-confirmed reverse DNS of the mail servers (a proxy for the sending IPs). */
  readonly fcrdns: Verdict
  /** STARTTLS with a working handshake on the mail servers (a proxy for outbound TLS). */
  readonly tls: Verdict
}

export interface RequirementCheck {
  readonly id: string
  readonly name: string
  readonly status: CheckStatus
  readonly googleRequired: boolean
  readonly yahooRequired: boolean
  readonly microsoftRequired: boolean
  readonly description: string
  readonly detail: string
  readonly reference: string
}

export interface SenderRequirementsResult {
  readonly domain: string
  readonly overallStatus: "compliant" | "non-compliant" | "partial" | "unknown" | "not-applicable"
  readonly passedCount: number
  readonly failedCount: number
  readonly checks: ReadonlyArray<RequirementCheck>
  readonly summary: {
    readonly google: ProviderSummary
    readonly yahoo: ProviderSummary
    readonly microsoft: ProviderSummary
    readonly warningCount: number
    readonly unknownCount: number
    readonly notApplicableCount: number
    readonly note: string
  }
}

export interface ProviderSummary {
  readonly status: "compliant" | "non-compliant" | "partial" | "unknown"
  readonly required: number
  readonly passed: number
  readonly failed: number
}

const GOOGLE = "https://support.google.com/a/answer/81126"
const YAHOO = "https://senders.yahooinc.com/best-practices/"
const MICROSOFT =
  "https://techcommunity.microsoft.com/blog/microsoftdefenderforoffice365blog/strengthening-email-ecosystem-outlook%E2%80%99s-new-requirements-for-high%E2%80%90volume-senders/4399730"

const NOT_FROM_DNS = (what: string): Verdict => ({
  status: "not-applicable",
  detail: `${what} cannot be judged from DNS; check it in the provider's postmaster tools`
})

/** Alignment (RFC 7489 3.1) is possible when DMARC exists and SPF or DKIM is published in the domain. */
const alignment = (input: SenderInput): Verdict => {
  const spfOk = input.spf.status === "pass" || input.spf.status === "warning"
  const dkimOk = input.dkim.status === "pass" || input.dkim.status === "warning"
  if (spfOk || dkimOk)
    return {
      status: "pass",
      detail: `the From domain can align through ${[spfOk ? "SPF" : "", dkimOk ? "DKIM" : ""].filter(Boolean).join(" and ")}`
    }
  if (input.spf.status === "unknown" || input.dkim.status === "unknown")
    return { status: "unknown", detail: "SPF or DKIM could not be determined" }
  return {
    status: "fail",
    detail: "neither SPF nor DKIM is published for the From domain: DMARC cannot pass"
  }
}

const dmarcRule = (input: SenderInput): Verdict => {
  const d = input.dmarc
  if (d.status === "unknown") return d
  if (d.policy === null || d.status === "missing" || d.status === "fail")
    return { status: "fail", detail: d.detail || "no valid DMARC record" }
  return { status: "pass", detail: `DMARC published with p=${d.policy}` }
}

export const analyse = (input: SenderInput): SenderRequirementsResult => {
  const rules: Array<Omit<RequirementCheck, "status" | "detail"> & { readonly verdict: Verdict }> = [
    {
      id: "spf",
      name: "SPF record",
      googleRequired: true,
      yahooRequired: true,
      microsoftRequired: true,
      description: "Publish a valid SPF record for the sending domain",
      reference: GOOGLE,
      verdict: input.spf
    },
    {
      id: "dkim",
      name: "DKIM signing",
      googleRequired: true,
      yahooRequired: true,
      microsoftRequired: true,
      description: "Sign mail with DKIM; a key must be published in DNS",
      reference: GOOGLE,
      verdict: input.dkim
    },
    {
      id: "dmarc",
      name: "DMARC policy",
      googleRequired: true,
      yahooRequired: true,
      microsoftRequired: true,
      description: "Publish a DMARC record with at least p=none",
      reference: YAHOO,
      verdict: dmarcRule(input)
    },
    {
      id: "dmarc-alignment",
      name: "From-domain alignment",
      googleRequired: true,
      yahooRequired: true,
      microsoftRequired: true,
      description: "The From domain must align with the SPF or DKIM domain so DMARC can pass",
      reference: MICROSOFT,
      verdict: alignment(input)
    },
    {
      id: "fcrdns",
      name: "Forward and reverse DNS",
      googleRequired: true,
      yahooRequired: true,
      microsoftRequired: false,
      description:
        "Sending IPs need a PTR record whose name resolves back to the IP (checked on the MX servers)",
      reference: GOOGLE,
      verdict: input.fcrdns
    },
    {
      id: "tls",
      name: "TLS for transmission",
      googleRequired: true,
      yahooRequired: false,
      microsoftRequired: false,
      description: "Use TLS when transmitting email (checked as STARTTLS on the MX servers)",
      reference: GOOGLE,
      verdict: input.tls
    },
    {
      id: "one-click-unsubscribe",
      name: "One-click unsubscribe",
      googleRequired: true,
      yahooRequired: true,
      microsoftRequired: false,
      description: "Marketing mail carries List-Unsubscribe-Post (RFC 8058) and honours it within 2 days",
      reference: YAHOO,
      verdict: NOT_FROM_DNS("A message header")
    },
    {
      id: "spam-rate",
      name: "Spam complaint rate",
      googleRequired: true,
      yahooRequired: true,
      microsoftRequired: false,
      description: "Keep the user-reported spam rate below 0.3% (ideally below 0.1%)",
      reference: GOOGLE,
      verdict: NOT_FROM_DNS("The complaint rate")
    }
  ]
  const checks: Array<RequirementCheck> = rules.map(({ verdict, ...rule }) => ({
    ...rule,
    // a missing record fails the rule that requires it
    status: verdict.status === "missing" ? "fail" : verdict.status,
    detail: verdict.detail
  }))
  const count = (s: CheckStatus, list = checks) => list.filter((c) => c.status === s).length
  const provider = (flag: "googleRequired" | "yahooRequired" | "microsoftRequired"): ProviderSummary => {
    const required = checks.filter((c) => c[flag] && c.status !== "not-applicable")
    return {
      status: verdictOf(required),
      required: required.length,
      passed: count("pass", required),
      failed: count("fail", required)
    }
  }
  const judged = checks.filter((c) => c.status !== "not-applicable")
  return {
    domain: input.domain,
    overallStatus: input.sendsNoMail ? "not-applicable" : verdictOf(judged),
    passedCount: count("pass"),
    failedCount: count("fail"),
    checks,
    summary: {
      google: provider("googleRequired"),
      yahoo: provider("yahooRequired"),
      microsoft: provider("microsoftRequired"),
      warningCount: count("warning"),
      unknownCount: count("unknown"),
      notApplicableCount: count("not-applicable"),
      note: input.sendsNoMail
        ? "The domain publishes that it sends no mail; the bulk-sender rules do not apply."
        : "Rules apply to senders of 5,000+ messages a day; reverse DNS and TLS are checked on the MX servers, which may differ from the sending IPs."
    }
  }
}

/** compliant: every judged rule passes; non-compliant: any fails; unknown before partial. */
const verdictOf = (checks: ReadonlyArray<{ readonly status: CheckStatus }>): ProviderSummary["status"] =>
  checks.some((c) => c.status === "fail" || c.status === "missing")
    ? "non-compliant"
    : checks.some((c) => c.status === "unknown")
      ? "unknown"
      : checks.some((c) => c.status === "warning")
        ? "partial"
        : "compliant"

/** Where the SPF / DKIM / DMARC verdicts come from (the email checks, or the DNS-only reading below). */
export interface AuthSources {
  readonly spf: Effect.Effect<Verdict>
  readonly dkim: Effect.Effect<Verdict>
  readonly dmarc: Effect.Effect<SenderInput["dmarc"]>
}

/** Selectors commonly used by providers; DKIM keys cannot be listed, only guessed (RFC 6376 3.6.2.1). */
export const COMMON_SELECTORS = [
  "default",
  "google",
  "selector1",
  "selector2",
  "k1",
  "s1",
  "s2",
  "dkim",
  "mail"
]

const failed = (e: DnsError): Verdict => ({ status: "unknown", detail: `${e.reason}: ${e.message}` })

/**
 * A DNS-only reading of SPF, DKIM and DMARC, enough for the bulk-sender rules: one `v=spf1` record
 * (RFC 7208 4.5), a non-empty `p=` key at a common selector, `v=DMARC1` with a `p=` tag at the
 * domain or its organisational domain (RFC 7489 6.6.3). The full analyses live in Spf/Dkim/Dmarc.
 */
export const dnsSources = (domain: string): Effect.Effect<AuthSources, never, Resolver> =>
  Effect.map(Resolver, (resolver) => ({
    spf: resolver.txt(domain).pipe(
      Effect.map((txt): Verdict => {
        const spf = txt.filter((t) => /^v=spf1(\s|$)/i.test(t.trim()))
        return spf.length === 1
          ? { status: "pass", detail: spf[0]! }
          : spf.length === 0
            ? { status: "missing", detail: "no SPF record" }
            : { status: "fail", detail: `${spf.length} SPF records (RFC 7208 4.5: permerror)` }
      }),
      Effect.catchAll((e) => Effect.succeed(failed(e)))
    ),
    dkim: Effect.forEach(
      COMMON_SELECTORS,
      (selector) =>
        resolver.txt(`${selector}._domainkey.${domain}`).pipe(
          Effect.map((txt) => (txt.some((t) => /(^|;)\s*p=[A-Za-z0-9+/]/.test(t)) ? selector : null)),
          Effect.either
        ),
      { concurrency: "unbounded" }
    ).pipe(
      Effect.map((results): Verdict => {
        const found = results.flatMap((r) => (Either.isRight(r) && r.right ? [r.right] : []))
        if (found.length > 0) return { status: "pass", detail: `DKIM key at selector ${found.join(", ")}` }
        if (results.some(Either.isLeft)) return { status: "unknown", detail: "some DKIM lookups failed" }
        return {
          status: "warning",
          detail: `no DKIM key at the common selectors (${COMMON_SELECTORS.join(", ")}); yours may use another`
        }
      })
    ),
    dmarc: Effect.gen(function* () {
      const org = getDomain(domain) ?? domain
      const names = org === domain ? [domain] : [domain, org]
      for (const name of names) {
        const txt = yield* resolver.txt(`_dmarc.${name}`)
        const records = txt.filter((t) => /^v=DMARC1\s*(;|$)/i.test(t.trim()))
        if (records.length > 1)
          return { status: "fail", detail: "more than one DMARC record", policy: null } as const
        const record = records[0]
        if (record) {
          const p = /(?:^|;)\s*p\s*=\s*(none|quarantine|reject)\s*(?:;|$)/i.exec(record)?.[1]?.toLowerCase()
          return p
            ? ({ status: "pass", detail: record, policy: p as "none" | "quarantine" | "reject" } as const)
            : ({ status: "fail", detail: `no valid p= tag: ${record}`, policy: null } as const)
        }
      }
      return { status: "missing", detail: "no DMARC record", policy: null } as const
    }).pipe(Effect.catchAll((e) => Effect.succeed({ ...failed(e), policy: null })))
  }))

/** GET /email/sender-requirements: the rules over the auth sources, FCrDNS and SMTP TLS. */
export const check = Effect.fn("SenderRequirements.check")(function* (
  domain: string,
  sources: AuthSources,
  fcrdns: FcrdnsResult,
  tls: SmtpTlsResult
) {
  const [spf, dkim, dmarc] = yield* Effect.all([sources.spf, sources.dkim, sources.dmarc], {
    concurrency: "unbounded"
  })
  // RFC 7505 null MX plus `v=spf1 -all`: the domain declares it neither receives nor sends mail
  const nullMx = tls.mxRecords.length === 1 && tls.mxRecords[0]!.host === ""
  return analyse({
    domain,
    sendsNoMail: nullMx && /-all\s*$/.test(spf.detail),
    spf,
    dkim,
    dmarc,
    fcrdns: {
      status: fcrdns.result.status,
      detail:
        fcrdns.result.status === "pass"
          ? `all ${fcrdns.result.results.length} mail server addresses have forward-confirmed PTR records`
          : (fcrdns.result.issues[0] ?? fcrdns.result.status)
    },
    tls: tlsVerdict(tls)
  })
})

/** Google asks for TLS on transmission: every reachable MX must offer STARTTLS and complete it. */
export const tlsVerdict = (tls: SmtpTlsResult): Verdict => {
  const s = tls.summary
  if (s.status === "not-applicable") return { status: "not-applicable", detail: "no mail servers" }
  if (s.starttls === "unknown") return { status: "unknown", detail: "no mail server answered" }
  const broken = tls.servers.filter((x) => x.starttls === false || (x.starttls && x.tlsVersion === null))
  if (broken.length > 0)
    return {
      status: "fail",
      detail: `${broken.map((b) => `${b.host} (${b.ip})`).join(", ")} without working STARTTLS`
    }
  if (tls.servers.some((x) => x.status === "unknown"))
    return { status: "unknown", detail: "some mail servers did not answer" }
  return { status: "pass", detail: `all ${s.serversWithStarttls} reachable mail servers offer STARTTLS` }
}
