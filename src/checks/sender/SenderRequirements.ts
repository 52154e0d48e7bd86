/**
 * Mailbox-provider bulk-sender rules, judged from what DNS and the MX servers show:
 * Google (Email sender guidelines, Feb 2024), Yahoo (Sender requirements, Feb 2024) and
 * Microsoft Outlook.com (high-volume sender requirements, May 2025). Pure: the SPF, DKIM, DMARC,
 * FCrDNS and TLS verdicts are gathered by their own checks and passed in as `SenderInput`.
 */
import { Effect } from "effect"
import { define, needAll } from "../../kernel/Check.ts"
import { Facts } from "../../kernel/Facts.ts"
import { Dkim, type DkimResult } from "../dkim/Dkim.ts"
import { Dmarc, type DmarcResult } from "../dmarc/Dmarc.ts"
import { Spf, type SpfResult } from "../spf/Spf.ts"
import { Fcrdns, type FcrdnsReport } from "../fcrdns/Fcrdns.ts"
import { SmtpTls, type SmtpTlsResult } from "../smtp-tls/SmtpTls.ts"
import { type CheckStatus } from "../../kernel/Status.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { SenderRequirementsResult, ProviderSummary, RequirementCheck } from "./SenderRequirementsResult.ts"

export * from "./SenderRequirementsResult.ts"

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

const GOOGLE = "https://support.google.com/a/answer/81126"

const YAHOO = "https://senders.yahooinc.com/best-practices/"

const MICROSOFT =
  "https://techcommunity.microsoft.com/blog/microsoftdefenderforoffice365blog/strengthening-email-ecosystem-outlook%E2%80%99s-new-requirements-for-high%E2%80%90volume-senders/4399730"

const NOT_FROM_DNS = (what: string): Verdict => ({
  status: "not-applicable",
  detail: `${what} cannot be judged from DNS; check it in the provider's postmaster tools`
})

/**
 * Alignment (RFC 7489 3.1) is possible when SPF passes for the From domain or a DKIM key of it was
 * found. A DKIM "warning" is no key found (none under the selectors we know, or none at all), which
 * is no ground to say DKIM can align: with SPF failing too, whether DMARC can pass rests on a key
 * under a selector we could not guess.
 */
const alignment = (input: SenderInput): Verdict => {
  const spfOk = input.spf.status === "pass" || input.spf.status === "warning"
  const dkimOk = input.dkim.status === "pass"
  if (spfOk || dkimOk)
    return {
      status: "pass",
      detail: `the From domain can align through ${[spfOk ? "SPF" : "", dkimOk ? "DKIM" : ""].filter(Boolean).join(" and ")}`
    }
  if (input.spf.status === "unknown" || input.dkim.status === "unknown")
    return { status: "unknown", detail: "SPF or DKIM could not be determined" }
  if (input.dkim.status === "warning")
    return {
      status: "warning",
      detail:
        "SPF cannot align and no DKIM key was found: DMARC can pass only for mail signed with a key under a selector we could not guess"
    }
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

/** compliant: every judged rule passes; non-compliant: one fails; unknown before partial. */
const verdictOf = (checks: ReadonlyArray<{ readonly status: CheckStatus }>): ProviderSummary["status"] =>
  checks.some((c) => c.status === "fail" || c.status === "missing")
    ? "non-compliant"
    : checks.some((c) => c.status === "unknown")
      ? "unknown"
      : checks.some((c) => c.status === "warning")
        ? "partial"
        : "compliant"

/** SPF present, single and free of permerrors (RFC 7208 4.5, 4.6). */
export const spfVerdict = (spf: SpfResult): Verdict =>
  spf.status === "unknown"
    ? { status: "unknown", detail: spf.issues[0] ?? "the SPF record could not be read" }
    : !spf.exists
      ? { status: "missing", detail: "no SPF record" }
      : !spf.valid
        ? { status: "fail", detail: spf.issues[0] ?? `invalid SPF record: ${spf.record}` }
        : { status: "pass", detail: spf.record }

/** A valid key at a discoverable selector; none found is a warning (selectors cannot be listed). */
export const dkimVerdict = (dkim: DkimResult): Verdict => {
  if (dkim.discovery === "unknown") return { status: "unknown", detail: "the DKIM lookups failed" }
  if (dkim.state === "absent") return { status: "warning", detail: dkim.stateDetail ?? "no DKIM key" }
  if (dkim.discovery === "not-found")
    return {
      status: "warning",
      detail: `no DKIM key at ${dkim.selectorsChecked.length} common selectors; yours may use another (pass ?selector= to /email/dkim)`
    }
  const valid = dkim.selectorsFound.filter((k) => k.valid)
  return valid.length > 0
    ? { status: "pass", detail: `valid DKIM key at selector ${valid.map((k) => k.selector).join(", ")}` }
    : { status: "fail", detail: dkim.issues[0] ?? "DKIM keys found, none valid" }
}

/** A valid DMARC record (the domain's or, inherited, the organisational domain's), any policy. */
export const dmarcVerdict = (dmarc: DmarcResult): SenderInput["dmarc"] => {
  const policy = dmarc.effectivePolicy ?? dmarc.policy ?? null
  if (dmarc.status === "unknown")
    return {
      status: "unknown",
      detail: dmarc.issues[0] ?? "the DMARC record could not be read",
      policy: null
    }
  if (!dmarc.exists) return { status: "missing", detail: "no DMARC record", policy: null }
  if (!dmarc.valid || policy === null)
    return { status: "fail", detail: dmarc.issues[0] ?? "invalid DMARC record", policy: null }
  return {
    status: "pass",
    detail: `${dmarc.record ?? ""}${dmarc.inherited ? ` (inherited from ${dmarc.organisationalDomain})` : ""}`,
    policy
  }
}

/** What the rules read: the verdicts of the checks they build on, all from the same scan. */
export interface SenderGathered {
  readonly domain: string
  readonly spf: SpfResult
  readonly dkim: DkimResult
  readonly dmarc: DmarcResult
  readonly fcrdns: FcrdnsReport
  readonly tls: SmtpTlsResult
}

/**
 * RFC 7505 null MX plus an SPF record that authorises no sender (`v=spf1 -all`): the domain
 * declares it neither receives nor sends mail, so no sender rule applies.
 */
export const sendsNoMail = ({ spf, tls }: Pick<SenderGathered, "spf" | "tls">): boolean =>
  tls.mxRecords.length === 1 &&
  tls.mxRecords[0]!.host === "" &&
  spf.exists &&
  spf.valid &&
  spf.policy === "fail" &&
  spf.mechanisms.length === 1

/** The rules over the gathered verdicts. Pure and total. */
export const judge = (g: SenderGathered): SenderRequirementsResult =>
  analyse({
    domain: g.domain,
    sendsNoMail: sendsNoMail(g),
    spf: spfVerdict(g.spf),
    dkim: dkimVerdict(g.dkim),
    dmarc: dmarcVerdict(g.dmarc),
    // No MX and nothing answering SMTP at the domain's own address (the implicit MX, RFC 5321 5.1):
    // there is no mail server whose reverse DNS could matter, as the score reads it too.
    fcrdns: g.tls.summary.implicitMxSilent
      ? {
          status: "not-applicable",
          detail: "no MX, and nothing answers SMTP at the domain's own address (implicit MX)"
        }
      : {
          status: g.fcrdns.result.status,
          detail:
            g.fcrdns.result.status === "pass"
              ? `all ${g.fcrdns.result.results.length} mail server addresses have forward-confirmed PTR records`
              : (g.fcrdns.result.issues[0] ?? g.fcrdns.result.status)
        },
    tls: tlsVerdict(g.tls)
  })

// One fiber awaits the five verdicts in turn (needAll), not a fiber each.
const gather = Effect.zipWith(
  Facts,
  needAll({ spf: Spf, dkim: Dkim, dmarc: Dmarc, fcrdns: Fcrdns, tls: SmtpTls }),
  (facts, verdicts) => ({
    domain: facts.domain,
    ...verdicts
  })
)

export const SenderRequirements = define(about, { gather, analyse: judge, exampleGathered })

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
