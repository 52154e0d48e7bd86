/**
 * How each inspected security header's value is judged: pure, one function per header, each
 * citing the specification that says what browsers do with the value.
 */
import { directive, parsePolicies } from "../../records/CspPolicy.ts"

export const INSPECTED = [
  "Strict-Transport-Security",
  "Content-Security-Policy",
  "X-Frame-Options",
  "X-Content-Type-Options",
  "Referrer-Policy",
  "Permissions-Policy"
] as const
export type InspectedHeader = (typeof INSPECTED)[number]

/** A header value's verdict: the `status`, `rating` and `issues` of its HeaderEntry. */
export interface Judgement {
  readonly status: "pass" | "missing" | "unknown"
  readonly rating: "good" | "weak" | "ineffective" | "absent" | "unknown"
  readonly issues: ReadonlyArray<string>
}
const good: Judgement = { status: "pass", rating: "good", issues: [] }
const weak = (...issues: Array<string>): Judgement => ({ status: "pass", rating: "weak", issues })
const ineffective = (...issues: Array<string>): Judgement => ({
  status: "missing",
  rating: "ineffective",
  issues
})

/** RFC 6797 §6.1: max-age is required; a year and includeSubDomains is the usual bar. */
export const judgeHsts = (value: string): Judgement => {
  const m = /(?:^|;)\s*max-age\s*=\s*"?(\d+)"?\s*(?:;|$)/i.exec(value)
  if (!m)
    return ineffective("max-age is missing or malformed, so browsers ignore the header (RFC 6797 §6.1.1)")
  const maxAge = Number(m[1])
  if (maxAge === 0) return ineffective("max-age=0 removes the HSTS policy")
  const issues: Array<string> = []
  if (maxAge < 31536000) issues.push(`max-age=${maxAge} is below one year (31536000)`)
  if (!/(?:^|;)\s*includesubdomains\s*(?:;|$)/i.test(value)) issues.push("includeSubDomains is not set")
  return issues.length === 0 ? good : weak(...issues)
}

/** Enforcing CSP: weak when it allows inline script, eval, or any host for scripts. */
export const judgeCsp = (value: string): Judgement => {
  const policies = parsePolicies(value)
  if (policies.length === 0) return ineffective("the policy has no directives")
  const issues: Array<string> = []
  for (const policy of policies) {
    const script = directive(policy, "script-src") ?? directive(policy, "default-src")
    const values = script?.values.map((v) => v.toLowerCase()) ?? []
    const strictDynamicOrHash = values.some((v) => /^'(nonce|sha(256|384|512))-/.test(v))
    if (!script) issues.push("no script-src or default-src: scripts are not restricted")
    else {
      if (values.includes("'unsafe-inline'") && !strictDynamicOrHash)
        issues.push("script-src allows 'unsafe-inline'")
      if (values.includes("'unsafe-eval'")) issues.push("script-src allows 'unsafe-eval'")
      if (values.some((v) => v === "*" || v === "https:" || v === "http:" || v === "data:"))
        issues.push("script-src allows any host (wildcard or scheme source)")
    }
    if (
      !directive(policy, "object-src") &&
      !(directive(policy, "default-src")?.values ?? []).includes("'none'")
    )
      issues.push("object-src is not restricted to 'none'")
    if (!directive(policy, "base-uri")) issues.push("base-uri is not set")
  }
  return issues.length === 0 ? good : weak(...issues)
}

/** RFC 7034: DENY or SAMEORIGIN; ALLOW-FROM is obsolete and ignored by current browsers. */
export const judgeFrameOptions = (value: string): Judgement => {
  const v = value.trim().toUpperCase()
  if (v === "DENY" || v === "SAMEORIGIN") return good
  return ineffective(`'${value}' is not DENY or SAMEORIGIN; browsers ignore it`)
}

export const judgeNosniff = (value: string): Judgement =>
  value.trim().toLowerCase() === "nosniff" ? good : ineffective(`'${value}' is not 'nosniff'`)

const REFERRER_SAFE = new Set([
  "no-referrer",
  "same-origin",
  "strict-origin",
  "strict-origin-when-cross-origin",
  "origin",
  "origin-when-cross-origin"
])
const REFERRER_UNSAFE = new Set(["unsafe-url", "no-referrer-when-downgrade"])

/** W3C Referrer Policy §8.1: the last recognised token of the list wins. */
export const judgeReferrer = (value: string): Judgement => {
  const tokens = value
    .split(",")
    .map((t) => t.trim().toLowerCase())
    .filter((t) => REFERRER_SAFE.has(t) || REFERRER_UNSAFE.has(t))
  const last = tokens[tokens.length - 1]
  if (last === undefined)
    return ineffective(`'${value}' contains no known policy; browsers use their default`)
  if (REFERRER_UNSAFE.has(last)) return weak(`'${last}' sends full URLs to other sites`)
  if (last === "origin" || last === "origin-when-cross-origin")
    return weak(`'${last}' sends the origin over plain HTTP too`)
  return good
}

export const judgePermissions = (value: string): Judgement => {
  const items = value
    .split(",")
    .map((i) => i.trim())
    .filter((i) => i !== "")
  if (items.length === 0 || !items.every((i) => /^[a-z0-9-]+=(\*|\(.*\)|self|[^,]*)$/i.test(i)))
    return ineffective("not a valid Structured Fields dictionary (features like camera=())")
  return good
}

export const JUDGES: Readonly<Record<InspectedHeader, (value: string) => Judgement>> = {
  "Strict-Transport-Security": judgeHsts,
  "Content-Security-Policy": judgeCsp,
  "X-Frame-Options": judgeFrameOptions,
  "X-Content-Type-Options": judgeNosniff,
  "Referrer-Policy": judgeReferrer,
  "Permissions-Policy": judgePermissions
}
