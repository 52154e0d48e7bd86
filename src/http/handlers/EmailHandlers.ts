/** Handlers of the email group. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Either } from "effect"
import { Api } from "../../Api.ts"
import { BadRequest } from "../../api/Errors.ts"
import { spfPreviewed } from "../../composite/GeneratedPreview.ts"
import * as SingleChecks from "../../composite/SingleChecks.ts"
import { EmailChecks } from "../../composite/EmailCheck.ts"
import * as MailTransport from "../../composite/MailTransport.ts"
import { fcrdns } from "./SelfUrl.ts"
import {
  handleBimi,
  handleDkim,
  handleDmarc,
  handleDmarcGenerate,
  handleMtaSts
} from "./EmailAuthHandlers.ts"
import { previewedGenerated } from "./Generated.ts"

export const EmailHandlers = HttpApiBuilder.group(Api, "email", (handlers) =>
  handlers
    .handle("check", ({ urlParams }) =>
      Effect.flatMap(EmailChecks, (checks) => checks.check(urlParams.domain))
    )
    .handle("spf", ({ urlParams }) => SingleChecks.spf(urlParams.domain))
    .handle("dkim", handleDkim)
    .handle("dmarc", handleDmarc)
    .handle("bimi", handleBimi)
    .handle("mtaSts", handleMtaSts)
    .handle("smtpTls", ({ urlParams }) => MailTransport.smtpTls(urlParams.domain))
    .handle("fcrdns", ({ request, urlParams }) => fcrdns(urlParams.domain, request))
    .handle("blacklist", ({ urlParams }) => MailTransport.blacklist(urlParams.domain))
    .handle("senderRequirements", ({ urlParams }) => MailTransport.senderRequirements(urlParams.domain))
    .handle("spfGenerate", ({ payload, urlParams }) =>
      previewedGenerated(spfPreviewed(payload, urlParams.domain))
    )
    .handle("dmarcGenerate", handleDmarcGenerate)
)
