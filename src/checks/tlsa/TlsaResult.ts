/**
 * The result of the DANE check: its Schema (the type, the OpenAPI schema, what stored scans hold),
 * in a module of its own so that its rules and the rules that read it import it without a circle.
 */
import { Schema } from "effect"
import { Strings } from "../../records/Schemas.ts"
import { IMPLICIT_DESCRIPTION } from "../../kernel/MailServers.ts"
import { Status } from "../../kernel/Status.ts"
import { DaneHost, DaneSummary } from "./Dane.ts"

export const TlsaRecord = Schema.Struct({
  host: Schema.String,
  tlsaDomain: Schema.String,
  usage: Schema.Int,
  selector: Schema.Int,
  matchingType: Schema.Int,
  certificateAssociationData: Schema.String,
  usageName: Schema.String,
  usageDescription: Schema.String,
  selectorDescription: Schema.String,
  matchingTypeDescription: Schema.String,
  text: Schema.String,
  issues: Strings
})

export const TlsaHost = Schema.Struct({
  host: Schema.String,
  priority: Schema.Int,
  /**
   * The host is the implicit MX: the domain has no MX, mail goes to the domain itself (RFC 5321 5.1),
   * whose TLSA records are at _25._tcp.<domain> (RFC 7672 2.2.3, the name after CNAME resolution).
   */
  implicit: Schema.Boolean.annotations({ description: IMPLICIT_DESCRIPTION }),
  tlsaDomain: Schema.String,
  exists: Schema.Boolean,
  /** AD set on the TLSA answer (or its NODATA proof). */
  dnssecValidated: Schema.Boolean,
  status: Status,
  records: Schema.Array(TlsaRecord),
  issues: Strings
})

export const TlsaResult = Schema.Struct({
  domain: Schema.String,
  port: Schema.Int,
  protocol: Schema.String,
  /** The TLSA name of the most preferred MX host (SPEC field); every host is in `hosts`. */
  tlsaDomain: Schema.String,
  exists: Schema.Boolean,
  dnssecValidated: Schema.Boolean,
  status: Status,
  records: Schema.Array(TlsaRecord),
  hosts: Schema.Array(
    Schema.Struct({
      ...TlsaHost.fields,
      /** DANE verification against the presented chain; null without TLSA records. */
      dane: Schema.NullOr(DaneHost)
    })
  ),
  issues: Strings,
  dane: DaneSummary
})
export type TlsaResult = typeof TlsaResult.Type
