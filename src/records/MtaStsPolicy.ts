/**
 * MTA-STS grammar (RFC 8461): the `_mta-sts` TXT record (3.1), the policy file (3.2) and MX host
 * matching with wildcards (4.1). Pure and total.
 */
import { Schema } from "effect"
import { Strings } from "./Schemas.ts"

export interface StsRecord {
  readonly record: string
  readonly version: string | null
  readonly id: string | null
  readonly extensions: ReadonlyArray<{ readonly name: string; readonly value: string }>
  readonly errors: ReadonlyArray<string>
}

export const isStsRecord = (txt: string): boolean => /^\s*v\s*=\s*STSv1\s*(;|$)/.test(txt)

/** RFC 8461 3.1: `v=STSv1; id=<1-32 alphanumerics>;` plus optional extension fields. */
export const parseStsRecord = (record: string): StsRecord => {
  const errors: Array<string> = []
  const fields: Array<{ name: string; value: string }> = []
  for (const part of record.split(";")) {
    if (part.trim() === "") continue
    const eq = part.indexOf("=")
    const name = eq < 0 ? "" : part.slice(0, eq).trim()
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/.test(name)) {
      errors.push(`'${part.trim()}' is not a field=value pair`)
      continue
    }
    fields.push({ name, value: part.slice(eq + 1).trim() })
  }
  const version = fields[0]?.name === "v" ? fields[0].value : null
  if (version !== "STSv1") errors.push("the record must start with v=STSv1")
  const ids = fields.filter((f) => f.name === "id")
  const id = ids[0]?.value ?? null
  if (id === null) errors.push("the required id= field is missing")
  else if (!/^[A-Za-z0-9]{1,32}$/.test(id)) errors.push(`id=${id} must be 1 to 32 letters or digits`)
  if (ids.length > 1) errors.push("id= appears more than once")
  return {
    record,
    version,
    id,
    extensions: fields.filter((f) => f.name !== "v" && f.name !== "id"),
    errors
  }
}

export const StsMode = Schema.Literal("enforce", "testing", "none")
export type StsMode = typeof StsMode.Type

/** A parsed policy file (RFC 8461 3.2). */
export const StsPolicyFields = {
  version: Schema.NullOr(Schema.String),
  mode: Schema.NullOr(StsMode),
  maxAge: Schema.NullOr(Schema.Int),
  mx: Strings,
  errors: Strings,
  warnings: Strings
}
export const StsPolicy = Schema.Struct(StsPolicyFields)
export type StsPolicy = typeof StsPolicy.Type

export const MAX_AGE_LIMIT = 31_557_600

/** RFC 8461 3.2: `key: value` lines (sts-policy-term is LF or CRLF); version, mode, max_age and mx. */
export const parseStsPolicy = (text: string): StsPolicy => {
  const errors: Array<string> = []
  const warnings: Array<string> = []
  const seen = new Map<string, string>()
  const mx: Array<string> = []
  const lines = text.split(/\r?\n/)
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim()
    if (line === "") continue
    const colon = line.indexOf(":")
    if (colon < 0) {
      errors.push(`line ${i + 1}: '${line.slice(0, 60)}' is not a key: value pair`)
      continue
    }
    const key = line.slice(0, colon).trim()
    const value = line.slice(colon + 1).trim()
    if (key === "mx") mx.push(value.toLowerCase().replace(/\.$/, ""))
    else if (seen.has(key)) errors.push(`line ${i + 1}: ${key} appears more than once`)
    else seen.set(key, value)
  }
  const version = seen.get("version") ?? null
  if (version !== "STSv1")
    errors.push(version === null ? "version: is missing" : `version must be STSv1, found '${version}'`)
  const modeRaw = seen.get("mode")
  const mode = modeRaw === "enforce" || modeRaw === "testing" || modeRaw === "none" ? modeRaw : null
  if (mode === null)
    errors.push(
      modeRaw === undefined ? "mode: is missing" : `mode must be enforce, testing or none, found '${modeRaw}'`
    )
  const ageRaw = seen.get("max_age")
  let maxAge: number | null = null
  if (ageRaw === undefined) errors.push("max_age: is missing")
  else if (!/^\d{1,10}$/.test(ageRaw) || Number(ageRaw) > MAX_AGE_LIMIT)
    errors.push(`max_age must be an integer from 0 to ${MAX_AGE_LIMIT}, found '${ageRaw}'`)
  else maxAge = Number(ageRaw)
  if (maxAge !== null && maxAge < 86_400)
    warnings.push(
      `max_age=${maxAge} is under a day: senders forget the policy quickly (weeks are recommended)`
    )
  if (mx.length === 0 && mode !== "none")
    errors.push("no mx: lines; a policy in enforce or testing mode needs them")
  for (const pattern of mx)
    if (!isMxPattern(pattern)) errors.push(`mx: ${pattern} is not a host name or *.wildcard pattern`)
  return { version, mode, maxAge, mx, errors, warnings }
}

const LABEL = "[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?"
const HOST = new RegExp(`^(?:${LABEL}\\.)+${LABEL}$`)

export const isMxPattern = (p: string): boolean => HOST.test(p.startsWith("*.") ? p.slice(2) : p)

/**
 * RFC 8461 4.1: a pattern matches a host exactly, or `*.suffix` matches exactly one extra
 * leftmost label (`*.example.com` covers `mx1.example.com`, not `a.b.example.com` nor `example.com`).
 */
export const mxMatches = (pattern: string, host: string): boolean => {
  const p = pattern.toLowerCase().replace(/\.$/, "")
  const h = host.toLowerCase().replace(/\.$/, "")
  if (!p.startsWith("*.")) return p === h
  const dot = h.indexOf(".")
  return dot > 0 && h.slice(dot + 1) === p.slice(2)
}
