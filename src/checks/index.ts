/**
 * The registry: every check a full scan runs, in the order reports list them. The Scanner, the
 * score and the documentation read this list; adding a check is adding it here.
 *
 * Propagation (`checks/dns/Propagation.ts`) is a check too but deliberately not here: it asks each
 * of the configured public resolvers afresh, and a full scan must not send eight resolvers a
 * question per domain. `GET /dns/propagation` runs it on demand.
 */
import { Bimi } from "./bimi/Bimi.ts"
import { Caa } from "./caa/Caa.ts"
import { Blocklist } from "./blocklist/Blocklist.ts"
import { Dkim } from "./dkim/Dkim.ts"
import { Dmarc } from "./dmarc/Dmarc.ts"
import { Fcrdns } from "./fcrdns/Fcrdns.ts"
import { MtaSts } from "./mta-sts/MtaSts.ts"
import { SenderRequirements } from "./sender/SenderRequirements.ts"
import { SmtpTls } from "./smtp-tls/SmtpTls.ts"
import { RequireTls } from "./requiretls/RequireTls.ts"
import { Lookup } from "./dns/Lookup.ts"
import { NameServerCheck } from "./nameservers/NameServerCheck.ts"
import { Dnssec } from "./dnssec/Dnssec.ts"
import { Headers } from "./headers/Headers.ts"
import { PqKex } from "./pq-kex/PqKex.ts"
import { Rpki } from "./rpki/Rpki.ts"
import { HttpRedirect } from "./http-redirect/HttpRedirect.ts"
import { SecurityTxt } from "./security-txt/SecurityTxt.ts"
import { HttpsRecord } from "./https-record/HttpsRecord.ts"
import { Spf } from "./spf/Spf.ts"
import { Tlsa } from "./tlsa/Tlsa.ts"
import { Registration } from "./registration/Registration.ts"
import { Takeover } from "./takeover/Takeover.ts"
import { WebTls } from "./web-tls/WebTls.ts"
import type { Registered } from "../kernel/Check.ts"

export const registry = [
  // dns
  Lookup,
  NameServerCheck,
  Fcrdns,
  // dnssec
  Dnssec,
  // email
  Spf,
  Dmarc,
  Dkim,
  Bimi,
  MtaSts,
  // mail transport
  SmtpTls,
  Tlsa,
  RequireTls,
  Blocklist,
  SenderRequirements,
  // web
  Headers,
  WebTls,
  HttpRedirect,
  SecurityTxt,
  HttpsRecord,
  // web and mail: the key exchange each server takes when offered the post-quantum hybrids
  PqKex,
  // what the domain depends on: CAA against the certificates served, RPKI of its addresses
  Caa,
  Rpki,
  // dependencies: registration expiry (RDAP) and takeover risks
  Registration,
  Takeover
] as const satisfies ReadonlyArray<Registered>

export type Registry = typeof registry
