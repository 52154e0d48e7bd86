/**
 * The whole HTTP contract: the groups declared in api/, served under /api (and the signing keys
 * under /.well-known/).
 * OpenAPI is generated from this value; nothing about the contract is written by hand elsewhere.
 */
import { HttpApi, OpenApi } from "@effect/platform"
import { AiApi } from "./api/Ai.ts"
import { DnsApi } from "./api/Dns.ts"
import { DomainsApi } from "./api/Domains.ts"
import { EmailApi } from "./api/Email.ts"
import { HistoryApi } from "./api/History.ts"
import { InternalError, PayloadTooLarge, TooManyRequests, Unavailable } from "./api/Errors.ts"
import { MiscApi } from "./api/Misc.ts"
import { MonitorsApi } from "./api/Monitoring.ts"
import { ReportApi } from "./api/Report.ts"
import { ReportsApi } from "./api/Inbound.ts"
import { ScanApi } from "./api/Scan.ts"
import { SigningKeysApi } from "./api/SigningKeys.ts"
import { WebApi } from "./api/WebSecurity.ts"
import { UpstreamProblem } from "./composite/UpstreamProblem.ts"
import { withExamples } from "./api/Examples.ts"

export class Api extends HttpApi.make("domain-audit")
  .add(DnsApi)
  .add(EmailApi)
  .add(ScanApi)
  .add(ReportApi)
  .add(WebApi)
  .add(AiApi)
  .add(MiscApi)
  .add(HistoryApi)
  .add(ReportsApi)
  .add(MonitorsApi)
  .add(DomainsApi)
  .addError(PayloadTooLarge)
  .addError(TooManyRequests)
  .addError(InternalError)
  .addError(UpstreamProblem)
  .addError(Unavailable)
  .prefix("/api")
  // added after the prefix: the key set lives at the origin's /.well-known/ (RFC 8615)
  .add(SigningKeysApi)
  .annotate(OpenApi.Title, "Domain DNS and Email Security Analysis API")
  .annotate(OpenApi.Version, "2.0.0")
  .annotate(
    OpenApi.Description,
    "Analyses a domain's DNS, DNSSEC, email authentication, mail transport and web security, scores it, and keeps immutable report snapshots."
  )
  .annotate(OpenApi.Transform, withExamples) {}
