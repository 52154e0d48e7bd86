/**
 * `domain-audit keys`: API keys for the HTTP API (docs/access.md). Parsing is pure (argv in, a
 * command or a usage error out); `Keys.ts` does the work against the cluster's database, where the
 * running service reads them (loaded only for this command: it brings the cluster's client).
 */
import { readArgv } from "../records/CommandLine.ts"
import { Either } from "effect"
import {
  parseExpiry,
  parseGrace,
  parseScopes,
  parseTenant,
  SCOPES,
  type Scope
} from "../monitor/access/ApiKey.ts"

export const KEYS_USAGE = `usage: domain-audit keys <create | list | revoke | rotate> [options]

API keys for the HTTP API: clients send 'Authorization: Bearer <key>'. Keys are stored as their
SHA-256 in the service's cluster database (DATA_DIR, or CLUSTER_DATABASE_URL), so run this with the
service's settings; the running service sees a new or revoked key at once.

  keys create --tenant <name> [--scopes <list>] [--expires <duration>]
        prints a new key once (da_ and 43 characters); it cannot be shown again
        --scopes   comma-separated, from: ${SCOPES.join(", ")}
                   (default: every scope but admin)
        --expires  an ISO 8601 duration such as P90D (default: never)
  keys list     every key: id, tenant, scopes, created, expires, state (never the key)
  keys revoke <id>
        the key stops working at once, everywhere (401 'this API key has been revoked')
  keys rotate <id> [--grace <duration>]
        prints a new key once, for the same tenant and scopes (and as long a validity);
        the old key is revoked at once, or once the grace has passed (--grace PT1H), so
        clients can move to the new key first

Exit status: 0 done, 1 the database could not be used or no such key, 2 a usage error.`

export type KeysCommand =
  | {
      readonly action: "create"
      readonly tenant: string
      readonly scopes: ReadonlyArray<Scope>
      readonly validForMs: number | null
    }
  | { readonly action: "list" }
  | { readonly action: "revoke"; readonly id: string }
  | { readonly action: "rotate"; readonly id: string; readonly graceMs: number }
  | { readonly action: "help" }

const DEFAULT_SCOPES = SCOPES.filter((s) => s !== "admin")

/** `keys ...` (without `keys`) as a command, or the message of a usage error. */
export const parseKeys = (argv: ReadonlyArray<string>): Either.Either<KeysCommand, string> => {
  const read = readArgv(argv, {
    tenant: { type: "string" },
    scopes: { type: "string" },
    expires: { type: "string" },
    grace: { type: "string" }
  })
  if (Either.isLeft(read)) return Either.left(read.left)
  const { values, positionals } = read.right
  if (values.help) return Either.right({ action: "help" })
  const [action, ...rest] = positionals
  const onlyFor = (allowed: ReadonlyArray<keyof typeof values>) =>
    (["tenant", "scopes", "expires", "grace"] as const).find(
      (o) => values[o] !== undefined && !allowed.includes(o)
    )
  switch (action) {
    case "create": {
      const stray = onlyFor(["tenant", "scopes", "expires"])
      if (stray !== undefined) return Either.left(`keys create takes no --${stray}`)
      if (rest.length > 0) return Either.left(`keys create takes options only; got ${rest.join(" ")}`)
      if (typeof values.tenant !== "string") return Either.left("keys create needs --tenant <name>")
      const tenant = parseTenant(values.tenant)
      if (Either.isLeft(tenant)) return Either.left(tenant.left)
      const scopes =
        typeof values.scopes === "string" ? parseScopes(values.scopes) : Either.right(DEFAULT_SCOPES)
      if (Either.isLeft(scopes)) return Either.left(`--scopes: ${scopes.left}`)
      const expiry = typeof values.expires === "string" ? parseExpiry(values.expires) : Either.right(null)
      if (Either.isLeft(expiry)) return Either.left(expiry.left)
      return Either.right({ action, tenant: tenant.right, scopes: scopes.right, validForMs: expiry.right })
    }
    case "list": {
      const stray = onlyFor([])
      if (stray !== undefined) return Either.left(`keys list takes no --${stray}`)
      return rest.length > 0
        ? Either.left(`keys list takes no arguments; got ${rest.join(" ")}`)
        : Either.right({ action })
    }
    case "revoke": {
      const stray = onlyFor([])
      if (stray !== undefined) return Either.left(`keys revoke takes no --${stray}`)
      if (rest.length !== 1) return Either.left("keys revoke takes one key id (as keys list shows it)")
      return Either.right({ action, id: rest[0]! })
    }
    case "rotate": {
      const stray = onlyFor(["grace"])
      if (stray !== undefined) return Either.left(`keys rotate takes no --${stray}`)
      if (rest.length !== 1) return Either.left("keys rotate takes one key id (as keys list shows it)")
      const grace = typeof values.grace === "string" ? parseGrace(values.grace) : Either.right(0)
      if (Either.isLeft(grace)) return Either.left(grace.left)
      return Either.right({ action, id: rest[0]!, graceMs: grace.right })
    }
    case undefined:
      return Either.left("name what to do: create, list, revoke or rotate")
    default:
      return Either.left(`unknown keys action '${action.slice(0, 40)}'; use create, list, revoke or rotate`)
  }
}
