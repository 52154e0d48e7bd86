/**
 * Request ids: the one a client or proxy sent in `X-Request-Id`, when it is safe to log and to echo
 * back, else one made here. Bounded length and a small alphabet keep a header from smuggling log
 * lines, quotes or control characters into the logs (one JSON object per line) or the answer.
 */
import { randomUUID } from "node:crypto"

/** Letters, digits and `-._:` only, 1 to 128 of them: a UUID, a ULID, a trace id all fit. */
const SAFE = /^[A-Za-z0-9._:-]{1,128}$/

/** The id to use for a request whose `X-Request-Id` header is `sent` (absent, repeated, or one value). */
export const requestIdOf = (sent: string | ReadonlyArray<string> | undefined): string =>
  typeof sent === "string" && SAFE.test(sent) ? sent : randomUUID()

/** Whether `id` is one `requestIdOf` keeps as it is. */
export const isSafeRequestId = (id: string): boolean => SAFE.test(id)
