/**
 * The checks served alone (`GET /email/spf`, `/web/tls`, ...), each over fresh Facts with whatever it
 * `need`s. `checkAlone` serves every check that declares its endpoint in its folder
 * (kernel/Served.ts); the others here take more than a domain: DKIM extra selectors, BIMI as JSON or
 * as a page.
 */
import type { Domain } from "../records/DomainName.ts"
import { Bimi, bimiWithLogo } from "../checks/bimi/Bimi.ts"
import { renderBimiHtml } from "../checks/bimi/BimiHtml.ts"
import { dkimWith } from "../checks/dkim/Dkim.ts"
import { Effect } from "effect"
import type { AnyCheck } from "../kernel/Check.ts"
import { runCheck, withFacts } from "../scan/Scanner.ts"

/** One check and whatever it `need`s for `domain`: the endpoint of a check declared `served`. */
export const checkAlone = <C extends AnyCheck>(check: C, domain: Domain) => runCheck(check, domain)

export const bimi = (domain: Domain) => runCheck(Bimi, domain)

/** DKIM over the default selectors and `selectors`. */
export const dkim = (domain: Domain, selectors: ReadonlyArray<string>) =>
  withFacts(domain, dkimWith(selectors))

/** The BIMI result as an HTML page, with the logo inlined. */
export const bimiHtml = (domain: Domain) =>
  Effect.map(withFacts(domain, bimiWithLogo), ({ result, logoBody }) => renderBimiHtml(result, logoBody))
