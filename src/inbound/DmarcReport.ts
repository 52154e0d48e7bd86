/**
 * A DMARC aggregate report as read from its XML: RFC 7489 Appendix C and the DMARCbis
 * aggregate-reporting schema (RFC 9990), the fields of both. Times are epoch seconds, as sent.
 */

export interface DmarcAuthDkim {
  /** The signing domain, d= (RFC 6376 3.5). */
  readonly domain: string
  /** s=; optional in RFC 7489, required in RFC 9990. */
  readonly selector: string | null
  /** none, pass, fail, policy, neutral, temperror, permerror (lower case). */
  readonly result: string
  readonly humanResult: string | null
}

export interface DmarcAuthSpf {
  readonly domain: string
  /** `mfrom` or `helo` (RFC 7489); RFC 9990 keeps only `mfrom`. */
  readonly scope: string | null
  readonly result: string
  readonly humanResult: string | null
}

export interface DmarcReason {
  /** forwarded, sampled_out, trusted_forwarder, mailing_list, local_policy, other. */
  readonly type: string
  readonly comment: string | null
}

export interface DmarcRecord {
  readonly sourceIp: string
  readonly count: number
  /** none, quarantine, reject (and `pass` in RFC 9990 drafts). */
  readonly disposition: string
  /** DMARC's own verdicts: an aligned DKIM or SPF pass (RFC 7489 A.3). */
  readonly dkim: "pass" | "fail"
  readonly spf: "pass" | "fail"
  readonly reasons: ReadonlyArray<DmarcReason>
  readonly headerFrom: string
  readonly envelopeFrom: string | null
  readonly envelopeTo: string | null
  readonly authDkim: ReadonlyArray<DmarcAuthDkim>
  readonly authSpf: ReadonlyArray<DmarcAuthSpf>
}

export interface DmarcPolicyPublished {
  readonly domain: string
  readonly adkim: string | null
  readonly aspf: string | null
  readonly p: string
  readonly sp: string | null
  /** RFC 9990: the policy for non-existent subdomains. */
  readonly np: string | null
  /** RFC 7489 only (DMARCbis removed pct). */
  readonly pct: number | null
  readonly fo: string | null
  /** RFC 9990: `y` when the domain's record says t=y. */
  readonly testing: string | null
  /** RFC 9990: `psl` or `treewalk`. */
  readonly discoveryMethod: string | null
}

export interface DmarcAggregateReport {
  readonly version: string | null
  readonly orgName: string
  readonly email: string | null
  readonly extraContactInfo: string | null
  readonly reportId: string
  readonly begin: number
  readonly end: number
  readonly errors: ReadonlyArray<string>
  /** RFC 9990: the software that wrote the report. */
  readonly generator: string | null
  readonly policy: DmarcPolicyPublished
  readonly records: ReadonlyArray<DmarcRecord>
}

/** Everything of a report but its records, which the streaming reader hands on one by one. */
export type DmarcReportHead = Omit<DmarcAggregateReport, "records">
