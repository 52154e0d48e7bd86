/** The rules' specs as the tests name them, gathered from the checks that declare them. */
import { BIMI_SPECS } from "../../src/checks/bimi/Rules.ts"
import { DKIM_SPECS } from "../../src/checks/dkim/Rules.ts"
import { DMARC_SPECS } from "../../src/checks/dmarc/Rules.ts"
import { MTA_STS_SPECS } from "../../src/checks/mta-sts/Rules.ts"
import { SPF_SPECS } from "../../src/checks/spf/Rules.ts"

export const EMAIL_SPECS = { ...SPF_SPECS, ...DMARC_SPECS, ...DKIM_SPECS, ...MTA_STS_SPECS, ...BIMI_SPECS }
