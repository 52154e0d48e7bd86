/**
 * API keys as values (docs/access.md): their text, their scopes, their state. Pure but for the
 * random bytes of a new key.
 *
 * A key is `da_` and 32 random bytes in base64url (RFC 4648 §5): 256 bits, so guessing is hopeless
 * and a key needs no slow hash; the prefix lets secret scanners and people recognise one. Only its
 * SHA-256 is stored: a copy of the database gives no one a key that works.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import { Either } from "effect"
import { parseEvery } from "../../records/IsoDuration.ts"

export const KEY_PREFIX = "da_"

/** What a key may do. `admin` may do everything. */
export const SCOPES = ["monitors", "reports:read", "reports:write", "history", "admin"] as const
export type Scope = (typeof SCOPES)[number]

/** A key's shape: the prefix, then base64url of 32 bytes or more (43+ characters). */
const KEY_TEXT = /^da_[A-Za-z0-9_-]{43,128}$/

/** A new key, its SHA-256 (hex) and its public id (what `keys list` shows and `keys revoke` takes). */
export const newKey = (): { readonly key: string; readonly hash: string; readonly id: string } => {
  const key = KEY_PREFIX + randomBytes(32).toString("base64url")
  return { key, hash: keyHash(key), id: `key_${randomBytes(8).toString("hex")}` }
}

export const keyHash = (key: string): string => createHash("sha256").update(key, "utf8").digest("hex")

/** Whether `text` has a key's shape (no database is asked about anything else). */
export const looksLikeKey = (text: string): boolean => KEY_TEXT.test(text)

/** Two hashes compared in constant time (their length is public: both are SHA-256). */
export const sameHash = (a: string, b: string): boolean => {
  const x = Buffer.from(a, "hex")
  const y = Buffer.from(b, "hex")
  return x.length === 32 && y.length === 32 && timingSafeEqual(x, y)
}

/** A tenant's name: what `--tenant` takes and the lists show. */
export const parseTenant = (text: string): Either.Either<string, string> =>
  /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/i.test(text)
    ? Either.right(text.toLowerCase())
    : Either.left(
        `--tenant must be 1-64 letters, digits, '.', '_' or '-', starting and ending with a letter or digit; got '${text.slice(0, 80)}'`
      )

/** `monitors,reports:read`: each a known scope, at least one, each once. */
export const parseScopes = (text: string): Either.Either<ReadonlyArray<Scope>, string> => {
  const items = text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
  const unknown = items.find((s) => !(SCOPES as ReadonlyArray<string>).includes(s))
  if (unknown !== undefined)
    return Either.left(`unknown scope '${unknown.slice(0, 40)}'; the scopes are ${SCOPES.join(", ")}`)
  if (items.length === 0) return Either.left(`name at least one scope: ${SCOPES.join(", ")}`)
  return Either.right(SCOPES.filter((s) => items.includes(s)))
}

/** `--expires P90D` as milliseconds of validity (an ISO 8601 duration of fixed length). */
export const parseExpiry = (text: string): Either.Either<number, string> => {
  const parsed = parseEvery(text)
  return "ms" in parsed ? Either.right(parsed.ms) : Either.left(`--expires: ${parsed.error}`)
}

/** `--grace PT1H` of `keys rotate` as milliseconds (a positive ISO 8601 duration of fixed length). */
export const parseGrace = (text: string): Either.Either<number, string> => {
  const parsed = parseEvery(text)
  return "ms" in parsed ? Either.right(parsed.ms) : Either.left(`--grace: ${parsed.error}`)
}

export interface KeyRecord {
  readonly id: string
  readonly tenant: string
  readonly scopes: ReadonlyArray<Scope>
  readonly createdAt: number
  readonly expiresAt: number | null
  readonly revokedAt: number | null
}

export type KeyState = "valid" | "revoked" | "expired"

/** Revoked wins over expired: it is what the operator did. */
export const keyState = (key: KeyRecord, now: number): KeyState =>
  key.revokedAt !== null && key.revokedAt <= now
    ? "revoked"
    : key.expiresAt !== null && key.expiresAt <= now
      ? "expired"
      : "valid"

/** Whether `key` grants `scope` (`admin` grants every scope). */
export const grants = (key: Pick<KeyRecord, "scopes">, scope: Scope): boolean =>
  key.scopes.includes(scope) || key.scopes.includes("admin")
