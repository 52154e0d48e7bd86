/**
 * The result of the blocklist check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { DateTime, Nullable, Strings } from "../../records/Schemas.ts"
import { IMPLICIT_DESCRIPTION } from "../../kernel/MailServers.ts"
import { Status } from "../../kernel/Status.ts"

const ZoneStatus = Schema.Literal("listed", "clean", "unknown")

export const ZoneVerdict = Schema.Struct({
  name: Schema.String,
  zone: Schema.String,
  severity: Schema.Literal("high", "medium", "low"),
  /** True only for a real listing; a refused or failed query is never "listed" (nor clean). */
  listed: Schema.Boolean,
  status: ZoneStatus,
  codes: Strings,
  meaning: Nullable(Schema.String),
  query: Nullable(Schema.String)
})
export type ZoneVerdict = typeof ZoneVerdict.Type

export const BlocklistResult = Schema.Struct({
  domain: Schema.String,
  checkedAt: DateTime,
  status: Status,
  mailServers: Schema.Array(
    Schema.Struct({
      hostname: Schema.String,
      /** The host is the implicit MX: the domain has no MX, mail goes to its own address (RFC 5321 5.1). */
      implicit: Schema.Boolean.annotations({ description: IMPLICIT_DESCRIPTION }),
      ip: Schema.String,
      status: Status,
      blacklistResult: Schema.Struct({
        listed: Schema.Boolean,
        status: ZoneStatus,
        blacklists: Schema.Array(ZoneVerdict)
      })
    })
  ),
  summary: Schema.Struct({
    serversChecked: Schema.Int,
    listedServers: Schema.Int,
    unknownLookups: Schema.Int,
    zones: Strings
  }),
  issues: Strings
})
export type BlocklistResult = typeof BlocklistResult.Type
