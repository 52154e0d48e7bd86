/**
 * GET /email/check: SPF, DKIM, DMARC and MX from one memoised Facts (each DNS question asked once),
 * and the email score (docs/scoring.md).
 */
import { Effect } from "effect"
import { check as checkEmail } from "../checks/email/EmailCheck.ts"
import { checkDkim } from "../checks/dkim/Dkim.ts"
import { checkDmarc } from "../checks/dmarc/Dmarc.ts"
import { Facts } from "../scan/Facts.ts"

export const handleEmailCheck = ({ urlParams }: { readonly urlParams: { readonly domain: string } }) =>
  Effect.flatMap(Facts.make(urlParams.domain), (facts) =>
    checkEmail(facts, {
      dkim: (f) => checkDkim(f.dns, f.domain),
      dmarc: (f) => checkDmarc(f.dns, f.domain)
    })
  )
