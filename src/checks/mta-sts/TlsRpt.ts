/**
 * SMTP TLS Reporting (RFC 8460): the `_smtp._tls.<domain>` TXT record, `v=TLSRPTv1; rua=...`
 * (section 3). Reported as the `tlsRpt` extra of the MTA-STS result. `analyseTlsRpt` is pure.
 */
import { Schema } from "effect"
import { Status } from "../../kernel/Status.ts"
import { isTxtError, type TxtOutcome } from "../../kernel/TxtOutcome.ts"
import { mailboxDomain } from "../../records/DmarcRecord.ts"
import { Strings } from "../../records/Schemas.ts"

export const tlsRptName = (domain: string) => `_smtp._tls.${domain}`

export const TlsRptResult = Schema.Struct({
  status: Status,
  exists: Schema.Boolean,
  record: Schema.NullOr(Schema.String),
  valid: Schema.Boolean,
  rua: Strings,
  issues: Strings
})
export type TlsRptResult = typeof TlsRptResult.Type

export const isTlsRptRecord = (txt: string): boolean => /^\s*v\s*=\s*TLSRPTv1\s*(;|$)/.test(txt)

/** RFC 8460 3: v first, rua a comma-separated list of mailto: or https: URIs. */
export const parseTlsRpt = (
  record: string
): { rua: ReadonlyArray<string>; errors: ReadonlyArray<string> } => {
  const errors: Array<string> = []
  const fields = record
    .split(";")
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => {
      const eq = p.indexOf("=")
      return eq < 0
        ? { name: p, value: null }
        : { name: p.slice(0, eq).trim(), value: p.slice(eq + 1).trim() }
    })
  if (fields[0]?.name !== "v" || fields[0].value !== "TLSRPTv1")
    errors.push("the record must start with v=TLSRPTv1")
  for (const f of fields) if (f.value === null) errors.push(`'${f.name}' is not a field=value pair`)
  const ruaFields = fields.filter((f) => f.name === "rua")
  if (ruaFields.length === 0) errors.push("the required rua= field is missing")
  if (ruaFields.length > 1) errors.push("rua= appears more than once")
  const rua = (ruaFields[0]?.value ?? "")
    .split(",")
    .map((u) => u.trim())
    .filter((u) => u !== "")
  if (ruaFields.length === 1 && rua.length === 0) errors.push("rua= is empty")
  for (const uri of rua) {
    if (/^mailto:/i.test(uri)) {
      if (mailboxDomain(decodeURIComponentSafe(uri.slice(7).split("?")[0]!)) === null)
        errors.push(`${uri} is not a valid mailto: address`)
    } else if (/^https:/i.test(uri)) {
      try {
        new URL(uri)
      } catch {
        errors.push(`${uri} is not a valid https: URL`)
      }
    } else errors.push(`${uri}: rua must be mailto: or https: (RFC 8460 3)`)
  }
  return { rua, errors }
}

const decodeURIComponentSafe = (s: string) => {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** Judges the `_smtp._tls` answer. */
export const analyseTlsRpt = (outcome: TxtOutcome): TlsRptResult => {
  if (isTxtError(outcome))
    return {
      status: "unknown",
      exists: false,
      record: null,
      valid: false,
      rua: [],
      issues: [`TLS-RPT could not be determined: the lookup of ${outcome.name} failed (${outcome.error})`]
    }
  const records = outcome.records.filter(isTlsRptRecord)
  if (records.length === 0)
    return {
      status: "missing",
      exists: false,
      record: null,
      valid: false,
      rua: [],
      issues: [`No TLS-RPT record at ${outcome.name}: you get no reports of TLS delivery failures`]
    }
  if (records.length > 1)
    return {
      status: "fail",
      exists: true,
      record: records.join("\n"),
      valid: false,
      rua: [],
      issues: [`${records.length} TLS-RPT records at ${outcome.name}: senders ignore them all (RFC 8460 3)`]
    }
  const { rua, errors } = parseTlsRpt(records[0]!)
  return {
    status: errors.length === 0 ? "pass" : "fail",
    exists: true,
    record: records[0]!,
    valid: errors.length === 0,
    rua,
    issues: errors
  }
}
