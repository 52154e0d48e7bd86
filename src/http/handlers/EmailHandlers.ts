/** Handlers of the email group. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../../Api.ts"
import { spfPreviewed } from "../../composite/GeneratedPreview.ts"
import { EmailChecks } from "../../composite/EmailCheck.ts"
import * as MailTransport from "../../composite/MailTransport.ts"
import { fcrdns } from "./SelfUrl.ts"
import { handleBimi, handleDkim, handleDmarcGenerate } from "./EmailAuthHandlers.ts"
import { previewedGenerated } from "./Generated.ts"
import { handleServed } from "./ServedHandlers.ts"

export const EmailHandlers = HttpApiBuilder.group(Api, "email", (handlers) =>
  handleServed(
    "email",
    handlers
      .handle("check", ({ urlParams }) =>
        Effect.flatMap(EmailChecks, (checks) => checks.check(urlParams.domain))
      )
      .handle("dkim", handleDkim)
      .handle("bimi", handleBimi)
      .handle("smtpTls", ({ urlParams }) => MailTransport.smtpTls(urlParams.domain))
      .handle("fcrdns", ({ request, urlParams }) => fcrdns(urlParams.domain, request))
      .handle("blacklist", ({ urlParams }) => MailTransport.blacklist(urlParams.domain))
      .handle("senderRequirements", ({ urlParams }) => MailTransport.senderRequirements(urlParams.domain))
      .handle("spfGenerate", ({ payload, urlParams }) =>
        previewedGenerated(spfPreviewed(payload, urlParams.domain))
      )
      .handle("dmarcGenerate", handleDmarcGenerate)
  )
)
