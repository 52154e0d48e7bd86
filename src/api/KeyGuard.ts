/**
 * What the API's key guards have in common (docs/access.md): each reads a bearer key and refuses
 * with 401 (no key, or one unknown), 403 (a key without the scope, a domain not its tenant's, or a
 * client that is not this machine) or 503 (the key store cannot be read).
 */
import { HttpApiSecurity } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, Unauthorized, Unavailable } from "./Errors.ts"

/** A guard's failures and security, beside what it provides: `HttpApiMiddleware.Tag`'s options. */
export const bearerGuard = {
  failure: Schema.Union(Unauthorized, Forbidden, Unavailable),
  security: { bearer: HttpApiSecurity.bearer }
}

/**
 * Whose data a request sees, as its guard decided: a tenant's key that of its tenant (`tenant`),
 * the operator and the open default everyone's (undefined).
 */
export interface Viewer {
  readonly tenant: string | undefined
}
