/**
 * The email check's MX reading (`GET /email/check`, composed in `src/composite/EmailCheck.ts` from the
 * SPF, DKIM and DMARC checks and the MX set). Its score is not computed here: it is the scoring
 * model's email category (`score/`), which checks must not import; the composite joins the two.
 */
import { Schema } from "effect"
import type { MxAnswer } from "../../kernel/Facts.ts"
import { Status } from "../../kernel/Status.ts"
import { Strings } from "../../records/Schemas.ts"

/** The domain's MX set as RFC 5321 5.1 and RFC 7505 read it. */
export interface MxSet {
  /** The MX records by priority; a null MX appears as host "" (RFC 7505 3: "0 ."). */
  readonly records: ReadonlyArray<{ readonly priority: number; readonly host: string }>
  /** The domain declares it accepts no mail: a single MX "0 ." (RFC 7505). */
  readonly nullMx: boolean
  /** A null MX mixed with other MX records: RFC 7505 3 says it MUST be the only one. */
  readonly nullMxMixed: boolean
  /**
   * No MX records, and the domain has an address: senders fall back to the domain's own A/AAAA
   * (RFC 5321 5.1, the implicit MX). `mxSet` alone cannot see the address and says so for any empty
   * answer; the composite corrects it from the mail servers' reading.
   */
  readonly implicit: boolean
}

/** RFC 7505 3 / RFC 5321 5.1 reading of an MX answer (a null MX's exchange is "" or "."). */
export const mxSet = (answer: ReadonlyArray<MxAnswer>): MxSet => {
  const records = answer.map((r) => ({
    priority: r.priority,
    host: r.exchange === "" || r.exchange === "." ? "" : r.exchange
  }))
  const nulls = records.filter((r) => r.host === "")
  return {
    records,
    nullMx: nulls.length > 0 && records.length === 1,
    nullMxMixed: nulls.length > 0 && records.length > 1,
    implicit: records.length === 0
  }
}

export const EmailMx = Schema.Struct({
  status: Status,
  /** A null MX (RFC 7505) appears as host ".". */
  records: Schema.Array(Schema.Struct({ priority: Schema.Int, host: Schema.String })),
  nullMx: Schema.Boolean,
  implicit: Schema.Boolean,
  issues: Strings
})
export type EmailMx = typeof EmailMx.Type

/** RFC 5321 5.1 / RFC 7505 reading of the MX set for the result. */
export const analyseMx = (set: MxSet | { readonly error: string }): EmailMx => {
  if ("error" in set)
    return {
      status: "unknown",
      records: [],
      nullMx: false,
      implicit: false,
      issues: [`MX lookup failed: ${set.error}`]
    }
  const issues: Array<string> = []
  if (set.nullMxMixed) issues.push("a null MX ('0 .') must be the only MX record (RFC 7505 3)")
  const nowhere = set.records.length === 0 && !set.implicit
  if (set.implicit)
    issues.push("no MX records: senders fall back to the domain's A/AAAA address (RFC 5321 5.1)")
  if (nowhere)
    issues.push("no MX records and no A/AAAA address: mail to the domain cannot be delivered (RFC 5321 5.1)")
  return {
    status: set.nullMxMixed
      ? "fail"
      : set.implicit || nowhere
        ? "warning"
        : set.nullMx
          ? "not-applicable"
          : "pass",
    records: set.records.map((r) => ({ priority: r.priority, host: r.host === "" ? "." : r.host })),
    nullMx: set.nullMx,
    implicit: set.implicit,
    issues
  }
}
