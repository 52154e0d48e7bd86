/**
 * `POST /ai/fix` (docs/ai.md): for a catalogue issue and a domain, the exact record or header to
 * publish, built by the project's generators from what the domain publishes now (read through the
 * checks), and, for DNS records, judged by the same check with the proposal in place. Issues no
 * generator can fix (a registrar step, a server setting) get `success: false` and the knowledge
 * base's steps. Nothing submitted is stored or logged.
 */
import type { Domain } from "../records/DomainName.ts"
import { Effect, Either, Schema } from "effect"
import { Dmarc } from "../checks/dmarc/Dmarc.ts"
import { Facts } from "../kernel/Facts.ts"
import { Headers } from "../checks/headers/Headers.ts"
import { generate as generateTlsa } from "../generate/TlsaGenerator.ts"
import type { ConfigValues } from "../records/SecurityHeaders.ts"
import { reportAuthorisationName } from "../records/DmarcRecord.ts"
import { Strings } from "../records/Schemas.ts"
import type { IssueId } from "../score/Catalogue.ts"
import type { ProposedRecord } from "../composite/ProposalPreview.ts"
import { explainIssue } from "./Knowledge.ts"
import { judgeDmarc, proposeDmarc } from "./FixDmarc.ts"
import { judgeSpf, proposeSpf, type Proposal } from "./FixSpf.ts"
import type { ScanContext } from "../scan/FactsLive.ts"
import { runCheck, withFacts } from "../scan/Scanner.ts"

/** What POST /ai/fix answers. */
export const FixAnswer = Schema.Struct({
  success: Schema.Boolean,
  fix: Schema.Struct({
    dns_record: Schema.String,
    record_type: Schema.String,
    value: Schema.String,
    explanation: Schema.String,
    steps: Strings
  }),
  /** DNS fixes: how the project's own check judges the proposal once published. */
  validation: Schema.optional(
    Schema.Struct({
      check: Schema.String,
      valid: Schema.Boolean,
      issues: Strings,
      /** SPF: the DNS lookups the proposed record costs (limit 10, RFC 7208 4.6.4). */
      lookups: Schema.optional(Schema.Int)
    })
  )
})
export type FixAnswer = typeof FixAnswer.Type

/**
 * The fix as answered, and the records it asks to publish; `notPreviewable` says why a fix that
 * publishes no record cannot be previewed (a header, a registrar step).
 */
export interface Proposed {
  readonly answer: FixAnswer
  readonly records: ReadonlyArray<ProposedRecord>
  readonly notPreviewable: string
}

/** A fix that asks for no record: the answer, and why there is nothing to preview. */
const without = (answer: FixAnswer, notPreviewable: string): Proposed => ({
  answer,
  records: [],
  notPreviewable
})

/** Settings the caller may pass in `current_config` (everything else in it is ignored). */
export interface CurrentConfig {
  /** A record to start from instead of the one published (to plan a change). */
  readonly record?: string | undefined
  /** The DMARC aggregate-report address to use (mailto:). */
  readonly rua?: string | undefined
}

export const currentConfigOf = (raw: unknown): CurrentConfig => {
  const o = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {}
  const str = (v: unknown) =>
    typeof v === "string" && v.trim() !== "" && v.length <= 2048 ? v.trim() : undefined
  const rua = str(o.rua)
  return { record: str(o.record), rua: rua === undefined || /^mailto:/i.test(rua) ? rua : `mailto:${rua}` }
}

const SPF_ISSUES = new Set<IssueId>([
  "spf_missing",
  "spf_invalid",
  "spf_multiple_records",
  "spf_too_many_lookups",
  "spf_too_many_void_lookups",
  "spf_plus_all",
  "spf_neutral_all",
  "spf_softfail_all",
  "spf_lookups_near_limit",
  "spf_mx_too_many",
  "spf_ptr_mechanism",
  "spf_answer_too_large"
])

const DMARC_ISSUES = new Set<IssueId>([
  "dmarc_missing",
  "dmarc_invalid",
  "dmarc_multiple_records",
  "dmarc_subdomain_policy_none",
  "dmarc_testing",
  "dmarc_leading_space",
  "dmarc_too_many_rua",
  "dmarc_unknown_tag",
  "dmarc_non_mailto_uri",
  "dmarc_policy_none",
  "dmarc_policy_quarantine",
  "dmarc_pct_below_100",
  "dmarc_no_rua"
])

/** Security-header issues: the header and the generator's config key that produces it. */
const HEADER_ISSUES: Partial<Record<IssueId, readonly [string, keyof ConfigValues]>> = {
  hsts_missing: ["Strict-Transport-Security", "hsts"],
  hsts_weak: ["Strict-Transport-Security", "hsts"],
  xcto_missing: ["X-Content-Type-Options", "contentTypeOptions"],
  frame_protection_missing: ["X-Frame-Options", "frameOptions"],
  referrer_policy_missing: ["Referrer-Policy", "referrerPolicy"],
  csp_missing: ["Content-Security-Policy", "csp"],
  csp_weak: ["Content-Security-Policy", "csp"]
}

const noFix = (issue: IssueId, reason?: string): FixAnswer => {
  const kb = explainIssue(issue)
  return {
    success: false,
    fix: {
      dns_record: "",
      record_type: "",
      value: "",
      explanation: `${kb.explanation}${reason ? ` No record was generated: ${reason}.` : " This is not fixed by publishing a generated record."}`,
      steps: kb.guidance?.steps ?? [kb.recommendation]
    }
  }
}

const dnsAnswer = (
  issue: IssueId,
  proposal: Proposal,
  verdict: { readonly valid: boolean; readonly issues: ReadonlyArray<string>; readonly lookups?: number },
  check: string,
  after: string
): FixAnswer => {
  const kb = explainIssue(issue)
  const judged = verdict.valid
    ? `The ${check} check finds the proposed record valid${verdict.issues.length ? `, with remaining notes: ${verdict.issues.join("; ")}` : ""}.`
    : `The ${check} check still reports problems with it: ${verdict.issues.join("; ")}.`
  return {
    success: verdict.valid,
    fix: {
      dns_record: proposal.name,
      record_type: "TXT",
      value: proposal.value,
      explanation:
        `${kb.title}. ${proposal.changes.length ? `Changed: ${proposal.changes.join("; ")}.` : ""} ${judged}`.replace(
          /\s+/g,
          " "
        ),
      steps: [
        `Publish a TXT record at ${proposal.name} with the value above, replacing the current one there (one record only).`,
        ...proposal.extra.map((r) => `Also publish a TXT record at ${r.name} with the value ${r.value}.`),
        ...proposal.warnings,
        `After the old record's TTL has passed, check again: ${after}.`
      ]
    },
    validation: {
      check,
      valid: verdict.valid,
      issues: verdict.issues,
      ...(verdict.lookups === undefined ? {} : { lookups: verdict.lookups })
    }
  }
}

const NO_RECORD = "no record was proposed"

/** A TXT proposal (its main record and the further ones it needs) with its answer. */
const published = (proposal: Proposal, answer: FixAnswer): Proposed => ({
  answer,
  records: [proposal, ...proposal.extra].map((r) => ({ name: r.name, type: "TXT", value: r.value })),
  notPreviewable: NO_RECORD
})

const fixSpf = (issue: IssueId, domain: Domain, config: CurrentConfig) =>
  Effect.gen(function* () {
    const proposal = yield* proposeSpf(issue, domain, config.record)
    if (Either.isLeft(proposal)) return without(noFix(issue, proposal.left), NO_RECORD)
    const verdict = yield* judgeSpf(domain, proposal.right)
    const lookups = `${verdict.lookups} of 10 DNS lookups`
    return published(
      proposal.right,
      dnsAnswer(
        issue,
        { ...proposal.right, changes: [...proposal.right.changes, lookups] },
        verdict,
        "SPF",
        `GET /email/spf?domain=${domain}`
      )
    )
  })

const fixDmarc = (issue: IssueId, domain: Domain, config: CurrentConfig) =>
  Effect.gen(function* () {
    const proposal = yield* proposeDmarc(issue, domain, config.record, config.rua)
    if (Either.isLeft(proposal)) return without(noFix(issue, proposal.left), NO_RECORD)
    const verdict = yield* judgeDmarc(domain, proposal.right)
    return published(
      proposal.right,
      dnsAnswer(issue, proposal.right, verdict, "DMARC", `GET /email/dmarc?domain=${domain}`)
    )
  })

/** RFC 7489 7.1: the authorisation the external report destination publishes. */
const fixExternalRua = (domain: Domain) =>
  Effect.map(runCheck(Dmarc, domain), (dmarc): Proposed => {
    const dest = dmarc.reportDestinations.find((d) => d.external && d.authorised === false && d.domain)
    if (dest === undefined || dest.domain === null)
      return without(
        noFix("dmarc_external_rua_unauthorised", "no unauthorised external report address was found"),
        NO_RECORD
      )
    const name = reportAuthorisationName(dmarc.source?.replace(/^_dmarc\./, "") ?? domain, dest.domain)
    const answer: FixAnswer = {
      success: true,
      fix: {
        dns_record: name,
        record_type: "TXT",
        value: "v=DMARC1",
        explanation: `${explainIssue("dmarc_external_rua_unauthorised").title}: ${dest.domain} must say that it accepts reports for ${domain} (RFC 7489 7.1).`,
        steps: [
          `Ask the administrator of ${dest.domain} to publish a TXT record at ${name} with the value v=DMARC1, or use a report address in ${domain} itself.`,
          `Then check again: GET /email/dmarc?domain=${domain}.`
        ]
      }
    }
    // published in the report destination's zone: the preview refuses it, naming it
    return { answer, records: [{ name, type: "TXT", value: "v=DMARC1" }], notPreviewable: NO_RECORD }
  })

/** TLSA 3 1 1 (RFC 7671 5.1: DANE-EE with the SPKI's SHA-256) from the certificate each MX presents. */
const fixDane = (issue: IssueId, domain: Domain) =>
  withFacts(
    domain,
    Effect.gen(function* () {
      const facts = yield* Facts
      const mx = yield* Effect.either(facts.mx(domain))
      if (Either.isLeft(mx)) return without(noFix(issue, "the MX records could not be read"), NO_RECORD)
      const hosts = mx.right
        .map((m) => m.exchange)
        .filter((h) => h !== "")
        .slice(0, 5)
      // the MX hosts at once: one slow server must not add its timeouts to the others'
      const found = yield* Effect.forEach(
        hosts,
        (host) =>
          Effect.gen(function* () {
            const addresses = yield* Effect.either(facts.addresses(host))
            const address = Either.isRight(addresses)
              ? [...addresses.right.v4, ...addresses.right.v6][0]
              : undefined
            if (address === undefined) return []
            const leaf = (yield* facts.probe(host, address)).tls?.chain[0]
            if (leaf === undefined) return []
            const pem = `-----BEGIN CERTIFICATE-----\n${leaf.der.match(/.{1,64}/g)?.join("\n")}\n-----END CERTIFICATE-----\n`
            const tlsa = generateTlsa({ pem, usage: 3, selector: 1, matching: 1, host, port: 25 })
            return Either.isRight(tlsa) ? [{ name: tlsa.right.name, value: tlsa.right.value }] : []
          }),
        { concurrency: "unbounded" }
      )
      const records = found.flat()
      const [first, ...rest] = records
      if (first === undefined)
        return without(noFix(issue, "no mail server presented a certificate over STARTTLS"), NO_RECORD)
      const answer: FixAnswer = {
        success: true,
        fix: {
          dns_record: first.name,
          record_type: "TLSA",
          value: first.value,
          explanation: `${explainIssue(issue).title}. TLSA 3 1 1 (DANE-EE, the SHA-256 of the public key the server presents now, RFC 7671 5.1) keeps matching across certificate renewals that keep the key.`,
          steps: [
            `Publish a TLSA record at ${first.name} with the value above, in the DNSSEC-signed zone (RFC 7672 2.2).`,
            ...rest.map((r) => `Also publish a TLSA record at ${r.name} with the value ${r.value}.`),
            "Before changing a server's key, publish the new key's TLSA record beside the old one and wait two TTLs (RFC 7671 8.1).",
            `Then check again: GET /dns/tlsa?domain=${domain}.`
          ]
        }
      }
      return {
        answer,
        records: records.map((r) => ({ name: r.name, type: "TLSA" as const, value: r.value })),
        notPreviewable: NO_RECORD
      } satisfies Proposed
    })
  )

const fixHeader = (issue: IssueId, domain: Domain, header: string, key: keyof ConfigValues) =>
  Effect.map(runCheck(Headers, domain), (result): Proposed => {
    const value = result.recommended[key]
    if (value === null) return without(noFix(issue, "the header generator has no value for it"), NO_RECORD)
    const kb = explainIssue(issue)
    const csp = key === "csp"
    const answer: FixAnswer = {
      success: true,
      fix: {
        dns_record: `https://${domain}/`,
        record_type: "HTTP header",
        value: `${header}: ${value}`,
        explanation: `${kb.title}. The value comes from the project's security-header generator (recommended preset), keeping the site's own values that are already good.`,
        steps: [
          ...(csp
            ? [
                "Send it first as Content-Security-Policy-Report-Only and watch the reports: a policy that blocks the site's own scripts breaks pages."
              ]
            : []),
          `Add the header to every HTTPS response of ${domain} (web server or CDN configuration); POST /security-headers/generate prints it for nginx, Apache, Caddy and others.`,
          `Then check again: GET /security-headers/analyze?domain=${domain}.`
        ]
      }
    }
    return without(
      answer,
      "an HTTP header is not a DNS record, and the preview lays records over the DNS only"
    )
  })

/** The fix for `issue` at `domain`, and the records it asks to publish. */
export const propose = (
  issue: IssueId,
  domain: Domain,
  rawConfig: unknown
): Effect.Effect<Proposed, never, ScanContext> => {
  const config = currentConfigOf(rawConfig)
  if (SPF_ISSUES.has(issue)) return fixSpf(issue, domain, config)
  if (DMARC_ISSUES.has(issue)) return fixDmarc(issue, domain, config)
  if (issue === "dmarc_external_rua_unauthorised") return fixExternalRua(domain)
  if (issue === "dane_missing" || issue === "dane_invalid") return fixDane(issue, domain)
  const header = HEADER_ISSUES[issue]
  if (header !== undefined) return fixHeader(issue, domain, header[0], header[1])
  return Effect.succeed(
    without(
      noFix(issue),
      "the fix is a step to take, not a record to publish, so there is nothing to preview"
    )
  )
}

/** The fix for `issue` at `domain`, without its preview. */
export const fix = (
  issue: IssueId,
  domain: Domain,
  rawConfig: unknown
): Effect.Effect<FixAnswer, never, ScanContext> =>
  Effect.map(propose(issue, domain, rawConfig), (proposed) => proposed.answer)
