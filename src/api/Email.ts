/**
 * The email group: SPF, DKIM, DMARC, BIMI, MTA-STS, transport checks and the record generators. The
 * checks served alone (SPF, DMARC, MTA-STS) declare their endpoints in their folders (ServedChecks.ts);
 * the rest are declared here, each at its rank among them.
 */
import { Schema } from "effect"
import { BlocklistResult } from "../checks/blocklist/Blocklist.ts"
import { FcrdnsResult } from "../checks/fcrdns/Fcrdns.ts"
import { SmtpTlsResult } from "../checks/smtp-tls/SmtpTls.ts"
import { SenderRequirementsResult } from "../checks/sender/SenderRequirements.ts"
import { Domain } from "./Domain.ts"
import { DmarcGenerated, DmarcGenerateFields } from "../generate/DmarcGenerator.ts"
import { BadRequest } from "./Errors.ts"
import { ProposalPreviewFields } from "../composite/ProposalPreview.ts"
import { BimiResult } from "../checks/bimi/Bimi.ts"
import { DkimResult } from "../checks/dkim/Dkim.ts"
import { DmarcResult } from "../checks/dmarc/Dmarc.ts"
import { EmailCheckResult } from "../composite/EmailCheck.ts"
import { MtaStsResult } from "../checks/mta-sts/MtaSts.ts"
import { SpfGenerated, SpfGenerateRequest } from "../generate/SpfGenerator.ts"
import { Endpoint } from "./Docs.ts"
import { domainCheck } from "./DomainCheck.ts"
import { generates } from "./Generator.ts"
import { withServed } from "./ServedChecks.ts"

export { BlocklistResult, FcrdnsResult, SenderRequirementsResult, SmtpTlsResult }

/** What the generators answer: the record, and its preview when a domain is named. */
export const SpfGeneratedPreviewed = Schema.Struct({ ...SpfGenerated.fields, ...ProposalPreviewFields })
export const DmarcGeneratedPreviewed = Schema.Struct({ ...DmarcGenerated.fields, ...ProposalPreviewFields })

export const DmarcGenerateRequest = Schema.Struct({
  ...DmarcGenerateFields
})

export { BimiResult, DkimResult, DmarcResult, EmailCheckResult, MtaStsResult }

const check = domainCheck("check", "/email/check", EmailCheckResult, {
  summary: "Check email authentication in one call",
  description:
    "Runs SPF, DKIM, DMARC and the mail-server checks for the domain and answers their results with a combined score and the issues found, each under its catalogue id (docs/issues.md)."
})

const dkim = Endpoint.get("dkim", "/email/dkim", {
  summary: "Find and check DKIM keys",
  description:
    "Looks for DKIM keys under the common selectors and those passed as selector, and reports each key's type, length and flags (RFC 6376, RFC 8301). No key under the known selectors is reported as not found, since selectors cannot be listed."
})
  .setUrlParams(
    Schema.Struct({
      domain: Domain,
      /** Extra DKIM selectors to check: repeat the parameter or separate with commas. */
      selector: Schema.optional(Schema.Union(Schema.String, Schema.Array(Schema.String)))
    })
  )
  .addSuccess(DkimResult)
  .addError(BadRequest)

const bimi = Endpoint.get("bimi", "/email/bimi", {
  summary: "Check the BIMI record",
  description:
    "Reads the BIMI record, fetches its SVG logo and evidence document, and reports whether mailbox providers could show the logo. format=html answers a page that shows it in a browser; JSON is the contract."
})
  .setUrlParams(Schema.Struct({ domain: Domain, format: Schema.optional(Schema.Literal("json", "html")) }))
  .addSuccess(BimiResult)
  .addError(BadRequest)

const smtpTls = domainCheck("smtpTls", "/email/smtp-tls", SmtpTlsResult, {
  summary: "Test STARTTLS on the mail servers",
  description:
    "Connects to each MX host on port 25, asks for STARTTLS, and reports the TLS version, cipher and certificate (validity, chain, name) per server. A server that cannot be reached is unknown."
})

const fcrdns = domainCheck("fcrdns", "/email/fcrdns", FcrdnsResult, {
  summary: "Check reverse DNS of the mail servers",
  description:
    "For each mail server address, looks up its PTR name and whether that name resolves back to the address (forward-confirmed reverse DNS, RFC 1912 2.1)."
})

const blacklist = domainCheck("blacklist", "/email/blacklist", BlocklistResult, {
  summary: "Check mail servers against DNS blocklists",
  description:
    "Queries the configured DNS blocklists for each mail server address and reports where it is listed, with each list's severity (RFC 5782). A list that does not answer is unknown."
})

const senderRequirements = domainCheck(
  "senderRequirements",
  "/email/sender-requirements",
  SenderRequirementsResult,
  {
    summary: "Check the bulk-sender requirements of Gmail and Yahoo",
    description:
      "Judges the domain against the published requirements for bulk senders (SPF or DKIM, DMARC, aligned From, reverse DNS, TLS) and reports each rule as pass, warning or fail."
  }
)

const spfGenerate = Endpoint.post("spfGenerate", "/email/spf/generate", {
  summary: "Generate an SPF record",
  description:
    "Builds the SPF TXT value from the mechanisms, a and mx flags and the all policy given, with the direct lookup count, length checks and warnings. Included domains may add lookups of their own, so the count is a minimum. The record is previewed over the domain's live scan when the domain is named (?domain=): compared then says what publishing it does to the grade and the issues, as POST /scan/preview does; otherwise compared is null and comparedReason says so."
}).pipe(generates(SpfGenerateRequest, SpfGeneratedPreviewed))

const dmarcGenerate = Endpoint.post("dmarcGenerate", "/email/dmarc/generate", {
  summary: "Generate a DMARC record",
  description:
    "Builds the _dmarc TXT value from the policy, report addresses and the optional subdomain policy, alignment, percentage and failure options, with rollout advice: start at p=none with reports, then quarantine, then reject. The record is previewed over a domain's live scan when the domain is named (?domain=): compared then says what publishing it does to the grade and the issues, as POST /scan/preview does; otherwise compared is null and comparedReason says so."
}).pipe(generates(DmarcGenerateRequest, DmarcGeneratedPreviewed))

export class EmailApi extends withServed("email", [
  [10, check],
  [30, dkim],
  [50, bimi],
  [70, smtpTls],
  [80, fcrdns],
  [90, blacklist],
  [100, senderRequirements],
  [110, spfGenerate],
  [120, dmarcGenerate]
]) {}
