/**
 * The key that signed a security.txt, found where the file says (RFC 9116 §2.3, §2.5.4): each
 * `Encryption:` https URL, then the Web Key Directory of each `mailto:` contact
 * (draft-koch-openpgp-webkey-service §3.1: the advanced method, then the direct one), fetched
 * through the scan's web client; the signature verified against the first key that issued it
 * (records/PgpSignature.ts). `judgeSignature` says what the result shows, against the clock.
 */
import { Effect } from "effect"
import { Facts } from "../../kernel/Facts.ts"
import { type PgpVerification, verifyCleartext } from "../../records/PgpSignature.ts"
import type { ParsedSecurityTxt } from "../../records/SecurityTxtFile.ts"
import { wkdUrls } from "../../records/Wkd.ts"

/** One place a key was looked for. */
export interface KeyTried {
  readonly url: string
  /** found: a key was served (it may not be the signer's); not-found: an answer without one; unknown: no answer. */
  readonly outcome: "found" | "not-found" | "unknown"
  readonly detail: string
}

export interface SignatureGathered {
  readonly verification: PgpVerification
  /** The URL the signer's key came from. */
  readonly source: string | null
  readonly tried: ReadonlyArray<KeyTried>
}

/** A public key is a few kilobytes; a WKD answer may hold several. */
const KEY_BYTES = 65_536
/** Places asked at most (each WKD address costs two). */
const MAX_TRIES = 6
/** A key that expires within this many days is reported as expiring. */
export const EXPIRING_DAYS = 30
const DAY = 86_400_000

/** A mailto: address with its %-escapes undone (kept as written when they are malformed). */
const mailAddress = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * Where the file says its key is, in order: each group is tried until one of its URLs serves a key
 * (a WKD address's advanced URL, then its direct one, §3.1).
 */
export const keyLocations = (parsed: ParsedSecurityTxt): ReadonlyArray<ReadonlyArray<string>> => {
  const encryption = parsed.encryption.filter((u) => u.startsWith("https://")).map((u) => [u])
  const addresses = [
    ...new Set(
      parsed.contact.filter((c) => /^mailto:/i.test(c)).map((c) => mailAddress(c.slice(7).split("?")[0]!))
    )
  ]
  const wkd = addresses.flatMap((a) => {
    const urls = wkdUrls(a)
    return urls ? [[urls.advanced, urls.direct]] : []
  })
  return [...encryption, ...wkd]
}

const fetchKey = (url: string) =>
  Effect.gen(function* () {
    const facts = yield* Facts
    const res = yield* facts.fetch(url, {
      accept: "application/pgp-keys, application/octet-stream;q=0.9, text/plain;q=0.8",
      maxBytes: KEY_BYTES,
      truncateBody: true
    })
    return res.status === 200 && res.body.length > 0
      ? { tried: { url, outcome: "found" as const, detail: `${res.body.length} bytes` }, bytes: res.body }
      : { tried: { url, outcome: "not-found" as const, detail: `HTTP ${res.status}` }, bytes: null }
  }).pipe(
    Effect.catchTag("WebError", (e) =>
      Effect.succeed({
        tried: {
          url,
          outcome:
            e.reason === "timeout" || e.reason === "dns" ? ("unknown" as const) : ("not-found" as const),
          detail: `${e.reason}: ${e.message}`
        },
        bytes: null
      })
    )
  )

const verifyWith = (file: string, keys: ReadonlyArray<Uint8Array>) =>
  Effect.promise(() => verifyCleartext(file, keys))

/** Look for the signer's key where the file says and verify the signature with it. */
export const gatherSignature = (file: string, parsed: ParsedSecurityTxt) =>
  Effect.gen(function* () {
    const tried: Array<KeyTried> = []
    let last = yield* verifyWith(file, [])
    if (last.outcome === "unreadable") return { verification: last, source: null, tried }
    for (const group of keyLocations(parsed)) {
      for (const url of group) {
        if (tried.length >= MAX_TRIES) break
        const got = yield* fetchKey(url)
        tried.push(got.tried)
        if (got.bytes === null) continue
        const v = yield* verifyWith(file, [got.bytes])
        if (v.outcome !== "no-key") return { verification: v, source: url, tried } satisfies SignatureGathered
        last = { ...v, reason: `${url} serves a key that did not issue the signature` }
        break
      }
    }
    return { verification: last, source: null, tried } satisfies SignatureGathered
  })

/** What the result shows of a verified signature; pure. */
export const judgeSignature = (g: SignatureGathered, now: Date) => {
  const v = g.verification
  const expiresAt = v.keyExpires === null ? null : Date.parse(v.keyExpires)
  const keyExpiresInDays = expiresAt === null ? null : Math.floor((expiresAt - now.getTime()) / DAY)
  const keyStatus =
    v.fingerprint === null
      ? null
      : expiresAt === null
        ? ("no-expiry" as const)
        : expiresAt <= now.getTime()
          ? ("expired" as const)
          : keyExpiresInDays !== null && keyExpiresInDays < EXPIRING_DAYS
            ? ("expiring" as const)
            : ("current" as const)
  const unanswered = g.tried.length > 0 && g.tried.every((t) => t.outcome === "unknown")
  const reason =
    v.outcome === "no-key" && g.tried.length === 0
      ? "the file names no https Encryption URL and no mailto contact whose Web Key Directory could hold the key"
      : v.outcome === "no-key" && unanswered
        ? `the key could not be fetched: ${g.tried.map((t) => `${t.url} (${t.detail})`).join("; ")}`
        : v.outcome === "no-key" && !g.tried.some((t) => t.outcome === "found")
          ? `no key was found where the file says: ${g.tried.map((t) => `${t.url} (${t.detail})`).join("; ")}`
          : v.reason
  return {
    verified:
      v.outcome === "valid"
        ? ("valid" as const)
        : v.outcome === "bad"
          ? ("bad" as const)
          : ("unknown" as const),
    verification: reason,
    signerKeyIds: [...v.signerKeyIds],
    fingerprint: v.fingerprint,
    signedAt: v.signedAt,
    keySource: g.source,
    keyExpires: v.keyExpires,
    keyExpiresInDays,
    keyStatus,
    keysTried: g.tried.map((t) => ({ ...t }))
  }
}
