/**
 * The checks served alone (`GET /email/spf`, `/email/dmarc`, ...): each runs over fresh Facts with
 * whatever it `need`s (`runCheck`), or with the parameters its endpoint takes (`withFacts`).
 */
import { Bimi, bimiWithLogo } from "../checks/bimi/Bimi.ts"
import { renderBimiHtml } from "../checks/bimi/BimiHtml.ts"
import { dkimWith } from "../checks/dkim/Dkim.ts"
import { Dmarc } from "../checks/dmarc/Dmarc.ts"
import { Headers } from "../checks/headers/Headers.ts"
import { MtaSts } from "../checks/mta-sts/MtaSts.ts"
import { SecurityTxt } from "../checks/security-txt/SecurityTxt.ts"
import { Spf } from "../checks/spf/Spf.ts"
import { WebTls } from "../checks/web-tls/WebTls.ts"
import { Effect } from "effect"
import { runCheck, withFacts } from "../scan/Scanner.ts"

export const spf = (domain: string) => runCheck(Spf, domain)
export const dmarc = (domain: string) => runCheck(Dmarc, domain)
export const mtaSts = (domain: string) => runCheck(MtaSts, domain)
export const bimi = (domain: string) => runCheck(Bimi, domain)
export const headers = (domain: string) => runCheck(Headers, domain)
export const webTls = (domain: string) => runCheck(WebTls, domain)
export const securityTxt = (domain: string) => runCheck(SecurityTxt, domain)

/** DKIM over the default selectors and `selectors`. */
export const dkim = (domain: string, selectors: ReadonlyArray<string>) =>
  withFacts(domain, dkimWith(selectors))

/** The BIMI result as an HTML page, with the logo inlined. */
export const bimiHtml = (domain: string) =>
  Effect.map(withFacts(domain, bimiWithLogo), ({ result, logoBody }) => renderBimiHtml(result, logoBody))
