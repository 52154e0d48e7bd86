/** The email group: SPF, DKIM, DMARC, BIMI, MTA-STS, transport checks and the record generators. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { BlocklistResult } from "../checks/blocklist/Blocklist.ts"
import { FcrdnsResult } from "../checks/fcrdns/Fcrdns.ts"
import { SmtpTlsResult } from "../checks/smtp-tls/SmtpTls.ts"
import { SenderRequirementsResult } from "../checks/sender/SenderRequirements.ts"
import { DateTime, Open, Strings } from "./Common.ts"
import { Domain, DomainQuery } from "./Domain.ts"
import { DmarcGenerated, DmarcGenerateFields } from "../generate/DmarcGenerator.ts"
import { BadRequest } from "./Errors.ts"
import { BimiResult } from "../checks/bimi/Bimi.ts"
import { DkimResult } from "../checks/dkim/Dkim.ts"
import { DmarcResult } from "../checks/dmarc/Dmarc.ts"
import { EmailCheckResult } from "../composite/EmailCheck.ts"
import { MtaStsResult } from "../checks/mta-sts/MtaSts.ts"
import { SpfResult } from "../checks/spf/Spf.ts"
import { SpfGenerated, SpfGenerateRequest } from "../generate/SpfGenerator.ts"

const Nullable = Schema.NullOr

export { BlocklistResult, FcrdnsResult, SenderRequirementsResult, SmtpTlsResult }

export const DmarcGenerateRequest = Schema.Struct({
  ...DmarcGenerateFields
})

const get = <const Name extends string, A, I>(name: Name, path: `/${string}`, success: Schema.Schema<A, I>) =>
  HttpApiEndpoint.get(name, path).setUrlParams(DomainQuery).addSuccess(success).addError(BadRequest)

export { BimiResult, DkimResult, DmarcResult, EmailCheckResult, MtaStsResult }

export class EmailApi extends HttpApiGroup.make("email")
  .add(get("check", "/email/check", EmailCheckResult))
  .add(get("spf", "/email/spf", SpfResult))
  .add(
    HttpApiEndpoint.get("dkim", "/email/dkim")
      .setUrlParams(
        Schema.Struct({
          domain: Domain,
          /** Extra DKIM selectors to check: repeat the parameter or separate with commas. */
          selector: Schema.optional(Schema.Union(Schema.String, Schema.Array(Schema.String)))
        })
      )
      .addSuccess(DkimResult)
      .addError(BadRequest)
  )
  .add(get("dmarc", "/email/dmarc", DmarcResult))
  .add(
    HttpApiEndpoint.get("bimi", "/email/bimi")
      .setUrlParams(
        Schema.Struct({ domain: Domain, format: Schema.optional(Schema.Literal("json", "html")) })
      )
      .addSuccess(BimiResult)
      .addError(BadRequest)
  )
  .add(get("mtaSts", "/email/mta-sts", MtaStsResult))
  .add(get("smtpTls", "/email/smtp-tls", SmtpTlsResult))
  .add(get("fcrdns", "/email/fcrdns", FcrdnsResult))
  .add(get("blacklist", "/email/blacklist", BlocklistResult))
  .add(get("senderRequirements", "/email/sender-requirements", SenderRequirementsResult))
  .add(
    HttpApiEndpoint.post("spfGenerate", "/email/spf/generate")
      .setPayload(SpfGenerateRequest)
      .addSuccess(SpfGenerated)
      .addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.post("dmarcGenerate", "/email/dmarc/generate")
      .setPayload(DmarcGenerateRequest)
      .addSuccess(DmarcGenerated)
      .addError(BadRequest)
  ) {}
