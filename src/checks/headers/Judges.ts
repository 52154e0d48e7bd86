/**
 * How each inspected security header's value is judged: pure, one function per header, each
 * citing the specification that says what browsers do with the value.
 */
import { rateCsp } from "../../records/CspJudge.ts"

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
  readonly rating: "good" | "weak" | "unsafe" | "ineffective" | "absent" | "unknown"
  readonly issues: ReadonlyArray<string>
}
const good: Judgement = { status: "pass", rating: "good", issues: [] }
const weak = (...issues: Array<string>): Judgement => ({ status: "pass", rating: "weak", issues })
/**
 * Present and applied by browsers, but it does not give the protection the header is for (a CSP
 * that lets any script run, a Referrer-Policy that sends the origin everywhere): not a `pass`, as the
 * MDN HTTP Observatory counts it a failure too (docs/security-headers.md).
 */
const unsafe = (...issues: Array<string>): Judgement => ({ status: "missing", rating: "unsafe", issues })
const ineffective = (...issues: Array<string>): Judgement => ({
  status: "missing",
  rating: "ineffective",
  issues
})

/**
 * RFC 6797 §6.1: max-age is required; a year and includeSubDomains is the usual bar.
 * A header sent twice reaches us joined by ", " (RFC 9110 §5.3): browsers process only the first
 * (RFC 6797 §8.1), so the first is judged and the repetition reported. A directive repeated within
 * one header breaks its syntax ("MUST appear only once", §6.1), and browsers ignore it (§8.1).
 */
export const judgeHsts = (value: string): Judgement => {
  const fields = value.split(",").map((f) => f.trim())
  const first = fields[0] ?? ""
  const names = first
    .split(";")
    .map((d) => d.split("=")[0]!.trim().toLowerCase())
    .filter((d) => d !== "")
  const repeated = [...new Set(names.filter((d, i) => names.indexOf(d) !== i))]
  if (repeated.length > 0)
    return ineffective(
      `${repeated.join(", ")} appears more than once; such a header is invalid and browsers ignore it (RFC 6797 §6.1, §8.1)`
    )
  const m = /(?:^|;)\s*max-age\s*=\s*"?(\d+)"?\s*(?:;|$)/i.exec(first)
  if (!m)
    return ineffective("max-age is missing or malformed, so browsers ignore the header (RFC 6797 §6.1.1)")
  const maxAge = Number(m[1])
  if (maxAge === 0) return ineffective("max-age=0 removes the HSTS policy")
  const issues: Array<string> = []
  if (fields.length > 1)
    issues.push(
      `the header is sent ${fields.length} times (or its value repeated); browsers use only the first (RFC 6797 §8.1): send it once`
    )
  if (maxAge < 31536000) issues.push(`max-age=${maxAge} is below one year (31536000)`)
  if (!/(?:^|;)\s*includesubdomains\s*(?:;|$)/i.test(first)) issues.push("includeSubDomains is not set")
  return issues.length === 0 ? good : weak(...issues)
}

/**
 * Enforcing CSP, read as CSP Level 3 browsers read it (`records/CspJudge.ts`, the same reading the
 * CSP scan reports). Unsafe (not a pass) when injected script or plugin content can run:
 * 'unsafe-inline' that no nonce or hash cancels, any host (`*`, a bare scheme, `https://*`), no
 * script-src/default-src, or object-src absent or open to any host; the HTTP Observatory scores
 * such a policy almost as no policy (csp-implemented-with-unsafe-inline, -20 of -25). Weak (a pass)
 * for 'unsafe-eval', plugin hosts instead of object-src 'none', scripts over plain HTTP, or no
 * base-uri.
 */
export const judgeCsp = (value: string): Judgement => {
  const { rating, issues } = rateCsp(value)
  return rating === "good"
    ? good
    : rating === "weak"
      ? weak(...issues)
      : rating === "unsafe"
        ? unsafe(...issues)
        : ineffective(...issues)
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

/**
 * W3C Referrer Policy §8.1: the last recognised token of the list wins. `unsafe-url`, `origin` and
 * `origin-when-cross-origin` send the page's URL or origin to every site, over plain HTTP too;
 * `no-referrer-when-downgrade` (the old browser default) sends the full URL to every HTTPS site,
 * more than `origin` gives away. The HTTP Observatory fails all four (referrer-policy-unsafe,
 * checked by scripts/crosscheck/header-values.mjs), and so do we.
 */
export const judgeReferrer = (value: string): Judgement => {
  const tokens = value
    .split(",")
    .map((t) => t.trim().toLowerCase())
    .filter((t) => REFERRER_SAFE.has(t) || REFERRER_UNSAFE.has(t))
  const last = tokens[tokens.length - 1]
  if (last === undefined)
    return ineffective(`'${value}' contains no known policy; browsers use their default`)
  if (last === "unsafe-url") return unsafe(`'${last}' sends full URLs to every site, over plain HTTP too`)
  if (last === "origin" || last === "origin-when-cross-origin")
    return unsafe(`'${last}' sends the origin to every site, over plain HTTP too`)
  if (REFERRER_UNSAFE.has(last)) return unsafe(`'${last}' sends full URLs to every other HTTPS site`)
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
