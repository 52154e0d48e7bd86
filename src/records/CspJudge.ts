/**
 * What a Content-Security-Policy allows, read as a CSP Level 3 browser reads it (W3C CSP3), pure.
 * One reading for every place that judges a policy: the security-headers analysis rates it from
 * this, and the CSP scan reports it beside csp_evaluator's findings, so both say the same.
 *
 * - A source list's keywords and expressions are read for what they allow, not for their text:
 *   `*`, a bare scheme (`https:`, `data:`) and a scheme with a host wildcard (`https://*`) all allow
 *   any host (CSP3 §6.7.2.5; the MDN HTTP Observatory fails `script-src https://*` as it fails `*`).
 * - A nonce or a hash makes `'unsafe-inline'` ignored (CSP3 §6.7.3.3 "Does a source list allow all
 *   inline behavior"), so the backward-compatible nonce pattern is not an open door.
 * - `'strict-dynamic'` makes host and scheme sources, `'self'` and `'unsafe-inline'` ignored for
 *   scripts (CSP3 §8.2 "Usage of 'strict-dynamic'").
 * - `object-src` is judged by its values (through `default-src`): `'none'` is what both reference
 *   tools ask for; a list of hosts is weak; anything-goes (absent, `*`, a scheme, `data:`) lets
 *   injected plugin content run, which csp_evaluator rates HIGH and the Observatory fails.
 */
import { type Directive, effectiveDirective, parsePolicies } from "./CspPolicy.ts"

/** How one policy (or a header's several, all enforced) lets content run. */
export interface CspReading {
  /** Why injected script or plugin content can run: empty when the policy restricts both. */
  readonly unrestricted: ReadonlyArray<string>
  /** Restricted, but weaker than it could be ('unsafe-eval', hosts for plugins, no base-uri ...). */
  readonly weaknesses: ReadonlyArray<string>
}

const NONCE_OR_HASH = /^'(nonce-[^']+|sha(256|384|512)-[^']+)'$/
/** Scheme sources that allow any host or inline content of that scheme. */
const SCHEME_ONLY = /^[a-z][a-z0-9+.-]*:$/
/** A host-source whose host is the bare wildcard: `https://*`, `*:443`, or with a port or path. */
const ANY_HOST = /^(?:[a-z][a-z0-9+.-]*:\/\/)?\*(?::(?:\*|\d+))?(?:\/.*)?$/

/** The source expressions that allow any host, as written (`*`, `https:`, `https://*` ...). */
const anyHostSources = (values: ReadonlyArray<string>): Array<string> =>
  values.filter((v) => SCHEME_ONLY.test(v) || ANY_HOST.test(v))

/** The source list as CSP3 applies it to scripts: what 'strict-dynamic' and nonces leave. */
const effectiveScriptSources = (values: ReadonlyArray<string>): ReadonlyArray<string> => {
  const nonceOrHash = values.some((v) => NONCE_OR_HASH.test(v))
  const strictDynamic = values.includes("'strict-dynamic'")
  return values.filter((v) => {
    if (v === "'unsafe-inline'") return !nonceOrHash && !strictDynamic
    if (strictDynamic) return v.startsWith("'") && v !== "'self'"
    return true
  })
}

const lower = (d: Directive | undefined) => d?.values.map((v) => v.toLowerCase())

/** The reading of one parsed policy. */
export const readPolicy = (policy: ReadonlyArray<Directive>): CspReading => {
  const unrestricted: Array<string> = []
  const weaknesses: Array<string> = []
  const scriptDirective = effectiveDirective(policy, "script-src")
  const script = lower(scriptDirective)
  if (script === undefined) unrestricted.push("no script-src or default-src: scripts are not restricted")
  else {
    const sources = effectiveScriptSources(script)
    if (sources.includes("'unsafe-inline'"))
      unrestricted.push(
        `${scriptDirective!.name} allows 'unsafe-inline' without a nonce or hash: injected inline scripts run`
      )
    const any = anyHostSources(sources)
    if (any.length > 0)
      unrestricted.push(`${scriptDirective!.name} allows scripts from any host (${any.join(" ")})`)
    if (sources.includes("'unsafe-eval'")) weaknesses.push(`${scriptDirective!.name} allows 'unsafe-eval'`)
    const plainHttp = sources.filter((v) => v.startsWith("http://") && !ANY_HOST.test(v))
    if (plainHttp.length > 0)
      weaknesses.push(`${scriptDirective!.name} loads scripts over plain HTTP (${plainHttp.join(" ")})`)
    if (script.includes("'strict-dynamic'") && !script.some((v) => NONCE_OR_HASH.test(v)))
      weaknesses.push(
        `${scriptDirective!.name} has 'strict-dynamic' without a nonce or hash: no script can run`
      )
  }
  const objectDirective = effectiveDirective(policy, "object-src")
  const objects = lower(objectDirective)
  if (objects === undefined)
    unrestricted.push("no object-src or default-src: plugin content (<object>, <embed>) is not restricted")
  else if (!(objects.length === 1 && objects[0] === "'none'") && objects.length > 0) {
    const any = anyHostSources(objects)
    if (any.length > 0)
      unrestricted.push(`${objectDirective!.name} allows plugin content from any host (${any.join(" ")})`)
    else if (!objects.includes("'none'"))
      weaknesses.push(
        `${objectDirective!.name} allows plugin content from listed hosts; 'none' is recommended`
      )
  }
  if (effectiveDirective(policy, "base-uri") === undefined) weaknesses.push("base-uri is not set")
  return { unrestricted, weaknesses }
}

/**
 * The reading of a header's value: several policies (comma-separated) are all enforced (CSP3
 * §8.1), so content runs only if every policy allows it: the whole is unrestricted only when every
 * policy is, and its weaknesses are those of every policy.
 */
export const readCsp = (value: string): CspReading | null => {
  const policies = parsePolicies(value)
  if (policies.length === 0) return null
  const readings = policies.map(readPolicy)
  const unrestricted = readings.every((r) => r.unrestricted.length > 0)
    ? [...new Set(readings.flatMap((r) => r.unrestricted))]
    : []
  return { unrestricted, weaknesses: [...new Set(readings.flatMap((r) => r.weaknesses))] }
}

/** A policy's rating: `unsafe` when content can run unrestricted, `weak` with weaknesses, else `good`. */
export const CspRatings = ["good", "weak", "unsafe", "ineffective"] as const
export type CspRating = (typeof CspRatings)[number]

/** The rating of a header's value and the reasons for it (`ineffective`: no directive at all). */
export const rateCsp = (
  value: string
): { readonly rating: CspRating; readonly issues: ReadonlyArray<string> } => {
  const reading = readCsp(value)
  if (reading === null) return { rating: "ineffective", issues: ["the policy has no directives"] }
  if (reading.unrestricted.length > 0)
    return { rating: "unsafe", issues: [...reading.unrestricted, ...reading.weaknesses] }
  return { rating: reading.weaknesses.length === 0 ? "good" : "weak", issues: reading.weaknesses }
}
