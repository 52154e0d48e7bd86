/**
 * security.txt (RFC 9116, `GET /web/security-txt`): gather fetches
 * https://<domain>/.well-known/security.txt (§3) hop by hop, following a redirect only within the
 * same host, and the legacy https://<domain>/security.txt only when the first has no file; analyse
 * judges the file (records/SecurityTxtFile.ts) against the clock, the address it came from and its
 * media type. A timeout or a failed DNS look-up is unknown, never "missing".
 */
import { Effect } from "effect"
import type { Redirect } from "../../net/Web.ts"
import { parseSecurityTxt } from "../../records/SecurityTxtFile.ts"
import { define, traced, overDomain } from "../../kernel/Check.ts"
import { Facts } from "../../kernel/Facts.ts"
import { about, served } from "./About.ts"
import { gatherSignature, judgeSignature, type SignatureGathered } from "./SignerKey.ts"
import { exampleGathered } from "./Example.ts"
import { SecurityTxtResult } from "./SecurityTxtResult.ts"

export * from "./SecurityTxtResult.ts"

/** Read at most this much: a contact file is a few hundred bytes; the RFC sets no limit. */
export const MAX_BYTES = 32_768

/** Redirects followed within the host (RFC 9116 §3 allows them; another host is not followed). */
const MAX_HOPS = 3

const DAY = 86_400_000

/** One fetch of the walk: the answer that ended it, or why there was none. */
export type Fetched =
  | {
      readonly kind: "response"
      readonly url: string
      readonly status: number
      readonly contentType: string | null
      readonly body: string
      readonly truncated: boolean
      readonly redirects: ReadonlyArray<Redirect>
    }
  | { readonly kind: "elsewhere"; readonly url: string; readonly redirects: ReadonlyArray<Redirect> }
  | { readonly kind: "failed"; readonly url: string; readonly reason: string; readonly message: string }

export interface SecurityTxtGathered {
  readonly wellKnown: Fetched
  /** Fetched only when the well-known location holds no file. */
  readonly legacy: Fetched | null
  /** The signer's key looked for and the signature verified, when the judged file is signed. */
  readonly signature?: SignatureGathered | null
}

const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).hostname : "")

/** The answer holds a file (not an error page, not an HTML page a site serves for every path). */
const holdsFile = (f: Fetched): f is Extract<Fetched, { kind: "response" }> => {
  if (f.kind !== "response" || f.status !== 200) return false
  const type = (f.contentType ?? "").toLowerCase()
  return !type.startsWith("text/html") || parseSecurityTxt(f.body).fields.length > 0
}

const empty = {
  contact: [],
  expires: null,
  expiresInDays: null,
  encryption: [],
  acknowledgments: [],
  preferredLanguages: null,
  canonical: [],
  policy: [],
  hiring: [],
  csaf: [],
  signed: false,
  signature: null,
  errors: [],
  warnings: []
}

/** Judge one file: RFC 9116 §2.5 fields, §3 media type, §2.5.2 Canonical, §2.5.5 Expires, §2.3 signature. */
const judgeFile = (
  f: Extract<Fetched, { kind: "response" }>,
  signature: SignatureGathered | null,
  now: Date
) => {
  const parsed = parseSecurityTxt(f.body)
  const errors = [...parsed.errors]
  const warnings = [...parsed.warnings]
  const type = (f.contentType ?? "").toLowerCase()
  const [media, ...params] = type.split(";").map((p) => p.trim())
  if (media !== "text/plain")
    errors.push(`served as ${f.contentType ?? "no content type"}; RFC 9116 §3 requires text/plain`)
  const charset = params
    .find((p) => p.startsWith("charset="))
    ?.slice(8)
    .replace(/"/g, "")
  if (media === "text/plain" && charset === undefined)
    warnings.push("the content type names no charset; RFC 9116 §3 asks for text/plain; charset=utf-8")
  else if (charset !== undefined && charset !== "utf-8")
    errors.push(`the charset is ${charset}; RFC 9116 §3 requires utf-8`)
  if (f.truncated) errors.push(`the file is larger than ${MAX_BYTES} bytes; only its start was read`)
  if (parsed.canonical.length > 0 && !parsed.canonical.includes(f.url))
    errors.push(
      `Canonical does not list ${f.url}, the URL the file was fetched from; its contents should not be trusted (§2.5.2)`
    )
  const expiresInDays =
    parsed.expiresAt === null ? null : Math.floor((parsed.expiresAt - now.getTime()) / DAY)
  const expired = parsed.expiresAt !== null && parsed.expiresAt <= now.getTime()
  if (expired) errors.push(`Expires ${parsed.expires} has passed; the file must be considered stale (§2.5.5)`)
  else if (parsed.expiresAt !== null && parsed.expiresAt - now.getTime() > 366 * DAY)
    warnings.push(`Expires ${parsed.expires} is more than a year away; RFC 9116 §2.5.5 recommends less`)
  if (parsed.signature !== null) {
    const checked = signature === null ? null : judgeSignature(signature, now)
    if (!parsed.signature.wellFormed)
      warnings.push(`the signature block is malformed: ${parsed.signature.problems.join("; ")}`)
    else if (checked === null || checked.verified === "unknown")
      warnings.push(
        `the file is signed; the signature was not verified: ${checked?.verification ?? "the signer's key was not looked for"}`
      )
    // §2.3: a signature that fails against its signer's key says the file is not the one signed;
    // as with a Canonical that does not list its address (§2.5.2), its contents are not trusted.
    else if (checked.verified === "bad")
      errors.push(
        `the signature does not verify with its signer's key (${checked.verification}): the file may have been altered since it was signed, so its contents should not be trusted (§2.3)`
      )
    if (checked?.keyStatus === "expired")
      warnings.push(`the signing key ${checked.fingerprint} expired ${checked.keyExpires}`)
    else if (checked?.keyStatus === "expiring")
      warnings.push(
        `the signing key ${checked.fingerprint} expires ${checked.keyExpires}, in ${checked.keyExpiresInDays} days`
      )
    if (parsed.canonical.length === 0)
      warnings.push(
        "a signed file should carry a Canonical field, so the signature binds its address (§2.5.2)"
      )
  }
  return {
    expired,
    errors,
    result: {
      contact: parsed.contact,
      expires: parsed.expires,
      expiresInDays,
      encryption: parsed.encryption,
      acknowledgments: parsed.acknowledgments,
      preferredLanguages: parsed.preferredLanguages,
      canonical: parsed.canonical,
      policy: parsed.policy,
      hiring: parsed.hiring,
      csaf: parsed.csaf,
      signed: parsed.signature !== null,
      signature:
        parsed.signature === null
          ? null
          : signature === null || !parsed.signature.wellFormed
            ? { ...parsed.signature, verified: "unknown" as const }
            : { ...parsed.signature, ...judgeSignature(signature, now) },
      errors,
      warnings
    }
  }
}

/** Pure and total: every gathered outcome gives a complete result. */
export const analyse = (domain: string, g: SecurityTxtGathered, now: Date): SecurityTxtResult => {
  const url = `https://${domain}/.well-known/security.txt`
  const base = { domain, checkedAt: now.toISOString(), url }
  const redirectsOf = (f: Fetched) => (f.kind === "failed" ? [] : f.redirects.map((r) => ({ ...r })))
  const w = g.wellKnown
  if (w.kind === "failed" && (w.reason === "timeout" || w.reason === "dns"))
    return {
      ...base,
      ...empty,
      verdict: "unknown",
      found: false,
      location: null,
      fetchedUrl: null,
      statusCode: null,
      contentType: null,
      redirects: [],
      redirectedTo: null,
      fetchError: `${w.reason}: ${w.message}`
    }
  if (w.kind === "elsewhere")
    return {
      ...base,
      ...empty,
      verdict: "redirected-elsewhere",
      found: false,
      location: null,
      fetchedUrl: null,
      statusCode: w.redirects.at(-1)?.status ?? null,
      contentType: null,
      redirects: redirectsOf(w),
      redirectedTo: w.url,
      errors: [
        `${url} redirects to ${w.url}, off this host or off HTTPS; a security.txt is served over HTTPS by the host it speaks for (RFC 9116 §3)`
      ]
    }
  const chosen = holdsFile(w)
    ? { f: w, location: "well-known" as const }
    : g.legacy !== null && holdsFile(g.legacy)
      ? { f: g.legacy, location: "legacy" as const }
      : null
  if (chosen === null) {
    const answered = w.kind === "response" ? w : null
    return {
      ...base,
      ...empty,
      verdict: "missing",
      found: false,
      location: null,
      fetchedUrl: null,
      statusCode: answered?.status ?? null,
      contentType: answered?.contentType ?? null,
      redirects: redirectsOf(w),
      redirectedTo: null,
      ...(w.kind === "failed" ? { fetchError: `${w.reason}: ${w.message}` } : {}),
      warnings:
        answered?.status === 200
          ? [`${url} answers with an HTML page, not a security.txt file`]
          : answered !== null
            ? [`${url} answers HTTP ${answered.status}`]
            : []
    }
  }
  const judged = judgeFile(chosen.f, g.signature ?? null, now)
  const verdict = judged.expired
    ? "expired"
    : judged.errors.length > 0
      ? "invalid"
      : chosen.location === "legacy"
        ? "legacy"
        : "valid"
  const legacyNote =
    chosen.location === "legacy"
      ? [`the file is served only at the legacy ${chosen.f.url}; RFC 9116 §3 puts it under /.well-known/`]
      : []
  return {
    ...base,
    ...judged.result,
    verdict,
    found: true,
    location: chosen.location,
    fetchedUrl: chosen.f.url,
    statusCode: chosen.f.status,
    contentType: chosen.f.contentType,
    redirects: redirectsOf(chosen.f),
    redirectedTo: null,
    warnings: [...legacyNote, ...judged.result.warnings]
  }
}

const REDIRECT = new Set([301, 302, 303, 307, 308])

/** Fetch `start` hop by hop, following redirects only to https URLs of the same host. */
const walk = (start: string) =>
  Effect.gen(function* () {
    const facts = yield* Facts
    const redirects: Array<Redirect> = []
    let url = start
    for (;;) {
      const res = yield* facts.fetch(url, {
        followRedirects: false,
        accept: "text/plain",
        maxBytes: MAX_BYTES,
        truncateBody: true
      })
      const location = res.headers["location"]
      if (!REDIRECT.has(res.status) || location === undefined || redirects.length >= MAX_HOPS)
        return {
          kind: "response",
          url,
          status: res.status,
          contentType: res.headers["content-type"] ?? null,
          body: new TextDecoder().decode(res.body),
          truncated: res.truncated === true,
          redirects
        } satisfies Fetched as Fetched
      const next = URL.canParse(location, url) ? new URL(location, url).href : location
      redirects.push({ url, status: res.status, location: next })
      if (!next.startsWith("https://") || hostOf(next) !== hostOf(start))
        return { kind: "elsewhere", url: next, redirects } satisfies Fetched as Fetched
      url = next
    }
  }).pipe(
    Effect.catchTag("WebError", (e) =>
      Effect.succeed<Fetched>({ kind: "failed", url: start, reason: e.reason, message: e.message })
    )
  )

export const gather = Effect.gen(function* () {
  const facts = yield* Facts
  const domain = facts.domain
  const wellKnown = yield* walk(`https://${domain}/.well-known/security.txt`)
  const answered =
    wellKnown.kind === "response" || (wellKnown.kind === "failed" && wellKnown.reason === "http")
  const legacy = answered && !holdsFile(wellKnown) ? yield* walk(`https://${domain}/security.txt`) : null
  const file = holdsFile(wellKnown) ? wellKnown : legacy !== null && holdsFile(legacy) ? legacy : null
  const parsed = file === null ? null : parseSecurityTxt(file.body)
  const signature =
    file !== null && parsed?.signature?.wellFormed === true ? yield* gatherSignature(file.body, parsed) : null
  return { domain, gathered: { wellKnown, legacy, signature } satisfies SecurityTxtGathered }
}).pipe(traced("SecurityTxt.gather", {}))

export const SecurityTxt = define(about, { served, gather, analyse: overDomain(analyse), exampleGathered })
