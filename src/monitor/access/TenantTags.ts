/**
 * A tenant's report tag (docs/access.md "Report addresses"): the local part of its report address,
 * `<tag>@<REPORTS_DOMAINS[0]>`. The address is published in the tenant's domains' DNS
 * (`rua=mailto:...`, RFC 7489 §6.3), where anyone reads it, so it is random rather than the
 * tenant's name: the DNS says nothing of who the service's customers are, and no name can be tried
 * at RCPT. Made once per tenant and kept, so a published record stays right. Stored beside the keys
 * in the cluster's database (SQLite or Postgres; plain SQL both accept; the table is created with
 * the keys', `ApiKeyStore.ts` `ensureKeyTables`).
 */
import { randomBytes } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** RFC 4648 §6 base32, lower case: letters and digits a mail system keeps as they are. */
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"

/** 10 random bytes as 16 base32 characters: 80 bits, not to be guessed. */
export const newTag = (bytes: Uint8Array = randomBytes(10)): string => {
  let bits = 0
  let value = 0
  let out = ""
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31]
  return out
}

/** Whether `text` has a tag's shape: a local part that is none cannot be a tenant's. */
export const looksLikeTag = (text: string): boolean => /^[a-z2-7]{16}$/.test(text)

export const createTagTable = (sql: SqlClient.SqlClient) =>
  sql`CREATE TABLE IF NOT EXISTS tenant_tags (
    tenant TEXT PRIMARY KEY,
    tag TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL
  )`

/** The tenant's tag, made now unless it has one. */
export const tagOf = (tenant: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.gen(function* () {
      yield* sql`INSERT INTO tenant_tags (tenant, tag, created_at) VALUES (${tenant}, ${newTag()}, ${Date.now()})
        ON CONFLICT (tenant) DO NOTHING`
      const rows = yield* sql`SELECT tag FROM tenant_tags WHERE tenant = ${tenant}`
      return String(rows[0]!.tag)
    })
  )

/**
 * The tenant whose tag `tag` is, if that tenant has a key usable at `now` or revoked later (a key
 * in its grace, `keys rotate`): a tenant without one receives nothing.
 */
export const tenantOfTag = (tag: string, now: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql`SELECT t.tenant AS tenant FROM tenant_tags t WHERE t.tag = ${tag}
        AND EXISTS (SELECT 1 FROM api_keys k WHERE k.tenant = t.tenant
          AND (k.revoked_at IS NULL OR k.revoked_at > ${now}))`,
      (rows) => (rows.length === 0 ? undefined : String(rows[0]!.tenant))
    )
  )
